// The consolidated state (docs/mechanisms/consolidated-state.md): Karpenter skips its consolidation methods while
// nothing changed since the cluster was last found consolidated. Its cluster state keeps the time of the last
// change (state/cluster.go, MarkUnconsolidated: a node or NodeClaim added or removed, one turning Initialized or
// marked for deletion, any event of a bound pod, a pod deleted, any NodePool event) and re-arms it once that
// time is five minutes old (ConsolidationState), so something the watch cannot see (an offering coming back)
// is looked at again; a method that ends with no command and no budget holding it back records it
// (markConsolidated) and skips while it is unchanged (IsConsolidated). Drift is not gated by it (drift.go).
// A Lambda forgets between invocations, so the view is a fingerprint of exactly those inputs, stored with the
// time it was first seen. Pure.
import type { ClusterSnapshot } from '../state/snapshot.ts';
import { detectDrift } from './drift-detect.ts';
import { hashText } from './fingerprint.ts';
import type { PassOutcome } from './metric-names.ts';
import type { PassOptions } from './types.ts';

/** Karpenter's ConsolidationState re-arms a state five minutes after its last change. */
export const CONSOLIDATION_STATE_TIMEOUT_MS = 5 * 60_000;

/** The view a pass last found consolidated, as the StateStore keeps it. */
export interface ConsolidatedView {
  /** consolidationFingerprint of the view. */
  readonly fingerprint: string;
  /** When this view was first seen (Karpenter's cluster-state timestamp): the five minutes run from here. */
  readonly since: Date;
}

/**
 * What Karpenter's cluster state reacts to, read from the snapshot: every node and NodeClaim (in flight too) by
 * identity with its initialized and marked-for-deletion flags, every bound pod at its resourceVersion, every
 * NodePool at its resourceVersion — and the pass options, since a redeploy starts Karpenter afresh.
 * `claimedByCommands` are the nodes open commands mark for deletion.
 */
export function consolidationFingerprint(
  snapshot: ClusterSnapshot,
  claimedByCommands: ReadonlySet<string>,
  options: PassOptions,
): string {
  const nodes = [...snapshot.nodes, ...snapshot.inFlight]
    .map((n) =>
      [
        n.name,
        n.node?.metadata.uid ?? '',
        n.claim?.metadata.name ?? '',
        n.claim?.metadata.uid ?? '',
        n.initialized ? 'I' : '-',
        n.markedForDeletion || claimedByCommands.has(n.name) ? 'D' : '-',
      ].join('|'),
    )
    .sort();
  const pods = snapshot.objects.pods
    .filter((p) => p.spec.nodeName)
    .map(
      (p) =>
        `${p.metadata.namespace ?? ''}/${p.metadata.name}|${p.metadata.uid ?? ''}|${p.metadata.resourceVersion ?? ''}|${p.spec.nodeName}`,
    )
    .sort();
  const pools = snapshot.objects.nodePools
    .map((p) => `${p.metadata.name}|${p.metadata.uid ?? ''}|${p.metadata.resourceVersion ?? ''}`)
    .sort();
  return `cs1:${hashText(JSON.stringify([options, nodes, pods, pools]))}`;
}

/** Drift runs whatever the consolidated state says (Karpenter's Drift method never asks IsConsolidated). */
export function anyDrifted(snapshot: ClusterSnapshot): boolean {
  for (const n of snapshot.nodes) {
    const view = n.managed && n.nodePool ? snapshot.nodePools.get(n.nodePool) : undefined;
    if (view && detectDrift(n, view, snapshot)) return true;
  }
  return false;
}

/** IsConsolidated: the stored view is this one, and less than five minutes old. */
export function isConsolidated(
  stored: ConsolidatedView | undefined,
  fingerprint: string,
  now: Date,
): boolean {
  return (
    stored !== undefined &&
    stored.fingerprint === fingerprint &&
    now.getTime() - stored.since.getTime() < CONSOLIDATION_STATE_TIMEOUT_MS
  );
}

/**
 * What to store after a pass that ran: markConsolidated when it ended `consolidated` (keeping the time the view
 * was first seen while it is unchanged and young, so the five minutes are not restarted by marking), and
 * nothing otherwise — a pass that found work, timed out, or was held back by a budget forgets the mark, so a
 * view that changes and comes back is not taken for one that never changed.
 */
export function nextConsolidatedView(
  stored: ConsolidatedView | undefined,
  fingerprint: string,
  now: Date,
  outcome: PassOutcome,
): ConsolidatedView | undefined {
  if (outcome !== 'consolidated') return undefined;
  const since = isConsolidated(stored, fingerprint, now) && stored ? stored.since : now;
  return { fingerprint, since };
}
