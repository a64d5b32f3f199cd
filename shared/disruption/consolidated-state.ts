// The consolidated state (docs/mechanisms/consolidated-state.md): Karpenter skips its consolidation methods while
// nothing changed since the cluster was last found consolidated. Its cluster state keeps the time of the last
// change (state/cluster.go, MarkUnconsolidated: a node or NodeClaim added or removed, one turning Initialized or
// marked for deletion, any event of a bound pod, a pod deleted, any NodePool event) and re-arms it once that
// time is five minutes old (ConsolidationState), so something the watch cannot see (an offering coming back)
// is looked at again; each consolidation method that ends with no command and no budget holding it back records
// it (markConsolidated) and is passed over while it is unchanged (IsConsolidated). Drift is not gated by it
// (drift.go). A Lambda forgets between invocations, so the view is a fingerprint of exactly those inputs, stored
// with the time it was first seen and the methods that marked it. Pure.
import type { ClusterSnapshot } from '../state/snapshot.ts';
import { hashText } from './fingerprint.ts';
import type { MethodName, PassOptions } from './types.ts';

/** Karpenter's ConsolidationState re-arms a state five minutes after its last change. */
export const CONSOLIDATION_STATE_TIMEOUT_MS = 5 * 60_000;

/** The view a pass last found consolidated, as the StateStore keeps it. */
export interface ConsolidatedView {
  /** consolidationFingerprint of the view. */
  readonly fingerprint: string;
  /** When this view was first seen (Karpenter's cluster-state timestamp): the five minutes run from here. */
  readonly since: Date;
  /** The methods that found nothing to do on it (each method keeps its own mark, as in Karpenter). */
  readonly methods: readonly MethodName[];
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

/** The methods still consolidated on this view (IsConsolidated): none unless it is the stored one, and young. */
export function consolidatedMethods(
  stored: ConsolidatedView | undefined,
  fingerprint: string,
  now: Date,
): ReadonlySet<MethodName> {
  return stored !== undefined &&
    stored.fingerprint === fingerprint &&
    now.getTime() - stored.since.getTime() < CONSOLIDATION_STATE_TIMEOUT_MS
    ? new Set(stored.methods)
    : new Set();
}

/**
 * What to store after a pass: the methods consolidated on this view (gated, or marked by markConsolidated), with
 * the time the view was first seen kept while it is the stored one and young, so marking does not restart the
 * five minutes; nothing when no method is — a view that changes and comes back is not taken for one that never
 * changed.
 */
export function nextConsolidatedView(
  stored: ConsolidatedView | undefined,
  fingerprint: string,
  now: Date,
  methods: readonly MethodName[],
): ConsolidatedView | undefined {
  if (methods.length === 0) return undefined;
  const young = consolidatedMethods(stored, fingerprint, now).size > 0 && stored !== undefined;
  return { fingerprint, since: young ? stored.since : now, methods: [...new Set(methods)].sort() };
}
