// Bound pods indexed by namespace and by key, once per bound-pod list (docs/mechanisms/simulation-copy.md): a
// topology group counts only pods of its namespaces (an inverse group only its owners), so counting a new group
// reads those pods instead of scanning every bound pod of the cluster, as each simulation of a walk meets new ones.
import type { BoundPod } from './topology.ts';

interface BoundIndex {
  readonly byNamespace: ReadonlyMap<string, readonly number[]>;
  readonly byKey: ReadonlyMap<string, readonly number[]>;
}

// Keyed by the list itself: a pass shares one list of bound pods across its simulations, and a simulation's
// removed pods are a list of its own, so an entry lives exactly as long as its list.
const indexes = new WeakMap<readonly BoundPod[], BoundIndex>();

function indexOf(pods: readonly BoundPod[]): BoundIndex {
  let index = indexes.get(pods);
  if (!index) {
    const byNamespace = new Map<string, number[]>();
    const byKey = new Map<string, number[]>();
    pods.forEach((p, i) => {
      push(byNamespace, p.namespace, i);
      push(byKey, p.key, i);
    });
    index = { byNamespace, byKey };
    indexes.set(pods, index);
  }
  return index;
}

function push(map: Map<string, number[]>, key: string, i: number): void {
  const list = map.get(key);
  if (list) list.push(i);
  else map.set(key, [i]);
}

/**
 * The pods of `pods` in `namespaces`, or with a key among `keys`, in their order in `pods` (topology records
 * domains in that order, and a hostname group's domain order follows it).
 */
export function boundIn(
  pods: readonly BoundPod[],
  by: { readonly namespaces: ReadonlySet<string> } | { readonly keys: ReadonlySet<string> },
): BoundPod[] {
  const index = indexOf(pods);
  const at: number[] = [];
  const buckets = 'namespaces' in by ? by.namespaces : by.keys;
  const map = 'namespaces' in by ? index.byNamespace : index.byKey;
  for (const name of buckets) for (const i of map.get(name) ?? []) at.push(i);
  // one namespace's (or key's) indices are already ascending; several are merged back into list order
  if (buckets.size > 1) at.sort((a, b) => a - b);
  return at.map((i) => pods[i] as BoundPod);
}
