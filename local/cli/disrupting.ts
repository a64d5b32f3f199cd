// The nodes a snapshot shows mid-disruption: tainted `karpenter.sh/disrupted:NoSchedule`, the taint an
// orchestrator (Karpenter's or kraftsman's) puts on a command's candidates before it drains them. The CLI has no
// command store, so the taint is its evidence of a command in flight: `plan` and `census` treat such a node as an
// open command's candidate — no candidate itself ("claimed-by-pending-command", Karpenter's "Candidate is already
// being disrupted"), its pods leaving (docs/contract.md "plan").
import { DISRUPTED_TAINT_KEY } from '../../shared/model/labels.ts';
import type { ClusterSnapshot } from '../../shared/state/snapshot.ts';

export function disruptingNodes(snapshot: ClusterSnapshot): ReadonlySet<string> {
  const out = new Set<string>();
  for (const n of snapshot.nodes)
    if (n.taints.some((t) => t.key === DISRUPTED_TAINT_KEY && t.effect === 'NoSchedule')) out.add(n.name);
  return out;
}
