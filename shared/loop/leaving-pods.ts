// Which nodes the provisioner treats as leaving and which of their pods need a new home before the drain
// (docs/mechanisms/provisioning-demand.md): Karpenter's StateNodes.Deleting and IsCurrentlyReschedulable.
import { pdbLimits } from '../disruption/pdb-limits.ts';
import { doNotDisruptActive, isReschedulable } from '../disruption/pod-rules.ts';
import type { Leaving } from '../provisioning/demand.ts';
import type { ClusterObjects } from '../state/objects.ts';
import { isActive } from '../state/pods.ts';
import type { PassState } from '../ports/state-store/records.ts';
import { TERMINATION_STARTED } from './termination.ts';

/**
 * IsCurrentlyReschedulable (pkg/utils/pdb Limits.IsCurrentlyReschedulable): reschedulable, disruptable (an
 * active pod without an active do-not-disrupt annotation) and not held by a fully blocking PDB — a pod that will
 * not be evicted gets no capacity. The open commands' candidates and the Nodes whose termination started
 * (termination.ts) are marked for deletion.
 */
export function leavingOf(
  objects: ClusterObjects,
  state: Pick<PassState, 'openCommands'>,
  now: Date,
): Leaving {
  const pdbs = pdbLimits(objects.pdbs, objects.pods);
  return {
    marked: new Set([
      ...state.openCommands.flatMap((c) => c.candidates),
      ...objects.nodes
        .filter((n) => n.metadata.annotations?.[TERMINATION_STARTED] !== undefined)
        .map((n) => n.metadata.name),
    ]),
    moves: (p) =>
      isReschedulable(p) && (!isActive(p) || !doNotDisruptActive(p, now)) && !pdbs.fullyBlocked(p),
  };
}
