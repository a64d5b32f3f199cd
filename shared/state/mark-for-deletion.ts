// Karpenter's cluster-state MarkForDeletion for nodes kraftsman's own bookkeeping names: a node in an open
// disruption command is only tainted and recorded until orchestration deletes it, yet every later pass and
// validation must treat it as leaving (docs/mechanisms/batched-admission.md).
import type { ClusterSnapshot, StateNode } from './snapshot.ts';

/** The snapshot with `names` marked for deletion (the same snapshot when none of them is a node). */
export function markForDeletion(
  snapshot: ClusterSnapshot,
  names: ReadonlySet<string> | undefined,
): ClusterSnapshot {
  if (!names?.size || !snapshot.nodes.some((n) => names.has(n.name) && !n.markedForDeletion)) return snapshot;
  const nodes = snapshot.nodes.map((n): StateNode =>
    names.has(n.name) && !n.markedForDeletion ? { ...n, markedForDeletion: true } : n,
  );
  return { ...snapshot, nodes };
}
