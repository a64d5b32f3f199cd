// Which of the pass's bound anti-affinity (inverse) groups one simulation needs: those that select one of its
// pending pods, are owned by one, or share a spec with a pending pod's own term. The others can neither constrain
// nor count a placement, and a 1,000-node pass has hundreds of them; building and counting every one per
// simulation was most of a topology's construction (docs/mechanisms/simulation-copy.md).
import type { PendingPod, PodState } from './pod-state.ts';
import type { GroupSpec } from './topology-group.ts';

export interface BoundInverse {
  readonly spec: GroupSpec;
  readonly owners: readonly string[];
}

/** Pass-scoped: the bound groups, and per pending pod which of them select it (pods repeat across simulations). */
export interface BoundInverseMemo {
  groups?: readonly BoundInverse[];
  selecting?: WeakMap<PendingPod, readonly number[]>;
  owning?: ReadonlyMap<string, readonly number[]>;
}

/** The groups this simulation needs, in their order in `groups` (the order topology builds them in). */
export function relevantInverse(
  groups: readonly BoundInverse[],
  pending: readonly PodState[],
  pendingSpecs: ReadonlySet<string>,
  share: { readonly boundInverse?: BoundInverseMemo } | undefined,
): BoundInverse[] {
  if (groups.length === 0) return [];
  const memo: BoundInverseMemo = share?.boundInverse ?? {};
  const selecting = (memo.selecting ??= new WeakMap());
  const owning = (memo.owning ??= ownersIndex(groups));
  const wanted = new Set<number>();
  for (const p of pending) {
    let sel = selecting.get(p.info);
    if (!sel) selecting.set(p.info, (sel = selectors(groups, p.info)));
    for (const i of sel) wanted.add(i);
    for (const i of owning.get(p.key) ?? []) wanted.add(i);
  }
  return groups.filter((g, i) => wanted.has(i) || pendingSpecs.has(g.spec.hash));
}

function selectors(groups: readonly BoundInverse[], pod: PendingPod): number[] {
  const out: number[] = [];
  groups.forEach((g, i) => {
    if (g.spec.namespaces.has(pod.namespace) && g.spec.selects(pod.labels)) out.push(i);
  });
  return out;
}

function ownersIndex(groups: readonly BoundInverse[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  groups.forEach((g, i) => {
    for (const o of g.owners) {
      const list = out.get(o);
      if (list) list.push(i);
      else out.set(o, [i]);
    }
  });
  return out;
}
