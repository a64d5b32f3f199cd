// What each NodePool with limits has left for a simulation (Karpenter's Scheduler.remainingResources): its limits
// minus the capacity of its active nodes, each also one `nodes` (StateNode.Capacity). Deleting nodes do not count
// (cluster.Nodes().Active()), nor the nodes a simulation leaves out (SimulateScheduling drops its candidates).
import {
  addInto,
  fromQuantities,
  NODES,
  ONE_NODE,
  subtractWithin,
  type MutableResourceList,
  type ResourceList,
} from '../model/resources.ts';
import type { ClusterSnapshot, StateNode } from './snapshot.ts';

export interface PoolLimits {
  /** Each limited pool's declared limits (spec.limits), for reasons that name one. */
  readonly declared: ReadonlyMap<string, ResourceList>;
  /** Per limited pool, what is left with the `excluded` nodes gone; the same map whenever none of them counts. */
  remaining(excluded?: ReadonlySet<string>): ReadonlyMap<string, ResourceList>;
}

const ONE_NODE_USED: ResourceList = Object.freeze({ [NODES]: ONE_NODE });

export function poolLimits(snapshot: ClusterSnapshot): PoolLimits {
  const limited = new Map<string, ResourceList>();
  for (const view of snapshot.nodePools.values())
    if (view.pool.spec.limits) limited.set(view.name, fromQuantities(view.pool.spec.limits));
  const counted = [...snapshot.nodes, ...snapshot.inFlight].filter(
    (n) => n.nodePool !== undefined && limited.has(n.nodePool) && !n.markedForDeletion,
  );
  const build = (leftOut: ReadonlySet<string>) => {
    const used = new Map<string, MutableResourceList>();
    for (const n of counted) {
      if (leftOut.has(n.name)) continue;
      const u = used.get(n.nodePool as string) ?? {};
      used.set(n.nodePool as string, addInto(addInto(u, capacityOf(n)), ONE_NODE_USED));
    }
    const out = new Map<string, ResourceList>();
    for (const [pool, limits] of limited) out.set(pool, subtractWithin(limits, used.get(pool) ?? {}));
    return out;
  };
  const all = build(new Set());
  const countedNames = new Set(counted.map((n) => n.name));
  const memo = new Map<string, ReadonlyMap<string, ResourceList>>();
  return {
    declared: limited,
    remaining(excluded) {
      const relevant = [...(excluded ?? [])].filter((name) => countedNames.has(name)).sort();
      if (relevant.length === 0) return all;
      const key = relevant.join('\u0000');
      let m = memo.get(key);
      if (!m) memo.set(key, (m = build(new Set(relevant))));
      return m;
    },
  };
}

const capacityOf = (n: StateNode): ResourceList => n.instanceType?.capacity ?? n.allocatable;
