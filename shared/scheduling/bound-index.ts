// Bound pods indexed by namespace, by key and (on demand) by a label, once per bound-pod list
// (docs/mechanisms/simulation-copy.md): a topology group counts only pods of its namespaces that carry its
// selector's anchor label (an inverse group only its owners), so counting a new group reads those pods instead
// of scanning every bound pod of the cluster, as each simulation of a walk meets new ones.
import type { BoundPod } from './topology.ts';

interface BoundIndex {
  readonly byNamespace: ReadonlyMap<string, readonly number[]>;
  readonly byKey: ReadonlyMap<string, readonly number[]>;
  /** Label key → namespace and value → indices, built the first time a group anchors on the key. */
  readonly byLabel: Map<string, ReadonlyMap<string, readonly number[]>>;
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
    index = { byNamespace, byKey, byLabel: new Map() };
    indexes.set(pods, index);
  }
  return index;
}

function labelIndex(pods: readonly BoundPod[], index: BoundIndex, key: string) {
  let byValue = index.byLabel.get(key);
  if (!byValue) {
    const built = new Map<string, number[]>();
    pods.forEach((p, i) => {
      const v = p.labels[key];
      if (v !== undefined) push(built, labelBucket(p.namespace, v), i);
    });
    index.byLabel.set(key, (byValue = built));
  }
  return byValue;
}

const labelBucket = (namespace: string, value: string) => `${namespace}\u0000${value}`;

function push(map: Map<string, number[]>, key: string, i: number): void {
  const list = map.get(key);
  if (list) list.push(i);
  else map.set(key, [i]);
}

export type BoundFilter =
  | {
      readonly namespaces: ReadonlySet<string>;
      readonly anchor?: { readonly key: string; readonly value: string } | undefined;
    }
  | { readonly keys: ReadonlySet<string> };

/**
 * The pods of `pods` in `namespaces` (carrying `anchor`, if given), or with a key among `keys`, in their order
 * in `pods` (topology records domains in that order, and a hostname group's domain order follows it).
 */
export function boundIn(pods: readonly BoundPod[], by: BoundFilter): BoundPod[] {
  const index = indexOf(pods);
  const at: number[] = [];
  if ('keys' in by) for (const name of by.keys) for (const i of index.byKey.get(name) ?? []) at.push(i);
  else if (by.anchor) {
    const byValue = labelIndex(pods, index, by.anchor.key);
    for (const ns of by.namespaces)
      for (const i of byValue.get(labelBucket(ns, by.anchor.value)) ?? []) at.push(i);
  } else for (const ns of by.namespaces) for (const i of index.byNamespace.get(ns) ?? []) at.push(i);
  // one bucket's indices are already ascending; several are merged back into list order
  if (('keys' in by ? by.keys : by.namespaces).size > 1) at.sort((a, b) => a - b);
  return at.map((i) => pods[i] as BoundPod);
}
