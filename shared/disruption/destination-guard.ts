// consolidateAfter guards destinations too (Karpenter v1.14, provisioning/scheduling/scheduler.go with
// IsConsolidationSimulation): in a consolidation simulation a node still under its consolidateAfter window takes
// no pod that is neither pending nor leaving a deleting node — so a candidate's pods never move onto it.
import type { DestinationGuard } from '../scheduling/nodes.ts';
import type { PendingPod } from '../scheduling/pod-state.ts';
import { isUnderConsolidateAfter } from './candidates.ts';
import type { PassContext } from './pass-context.ts';

const memo = new WeakMap<PassContext, DestinationGuard>();

/** The pass's guard: built on first use, once the pass knows its expired nodes (they count as deleting). */
export function destinationGuard(ctx: PassContext): DestinationGuard {
  let guard = memo.get(ctx);
  if (guard) return guard;
  const { snapshot, now } = ctx;
  const nodes = new Set<string>();
  const deleting = new Set(ctx.expired);
  for (const n of snapshot.nodes) {
    if (n.markedForDeletion) deleting.add(n.name);
    const view = n.nodePool ? snapshot.nodePools.get(n.nodePool) : undefined;
    if (view && isUnderConsolidateAfter(n, view, now)) nodes.add(n.name);
  }
  // scheduler.go addToExistingNode: pending pods and pods of deleting nodes are exempt (pod.IsPending checks the
  // phase; an unbound pod is pending demand here whatever its phase says, docs/contract.md)
  const exempt = (p: PendingPod): boolean => {
    const nodeName = p.pod.spec.nodeName;
    return !nodeName || p.pod.status?.phase === 'Pending' || deleting.has(nodeName);
  };
  guard = { nodes, refuses: (p) => !exempt(p) };
  memo.set(ctx, guard);
  return guard;
}
