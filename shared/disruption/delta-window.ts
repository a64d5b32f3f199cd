// A node of the full simulation as the base had it at a queue place (docs/mechanisms/delta-simulation.md), its
// backlog arrivals before then taking their share. The follow's slots (delta-node-slots.ts) hold every node that
// differs from that.
import { HOSTNAME } from '../model/labels.ts';
import { addInto, subtract, type MutableResourceList } from '../model/resources.ts';
import type { ExistingNodeInput } from '../scheduling/nodes.ts';
import type { PendingPod } from '../scheduling/pod-state.ts';
import type { Requirement } from '../scheduling/requirement.ts';
import { Requirements } from '../scheduling/requirement-set.ts';
import type { BaseSolution } from './base-solution.ts';
import { countBelow } from './delta-room.ts';

/** A node input with `pods` placed on it: their requests, host ports and attachable volumes taken. */
export function withLoad(e: ExistingNodeInput, pods: readonly PendingPod[]): ExistingNodeInput {
  const requests: MutableResourceList = {};
  const claims = new Map<string, Set<string>>();
  for (const p of pods) {
    addInto(requests, p.requests);
    for (const v of p.volumes) {
      const known = e.volumeLimits.get(v.driver);
      if (!known) continue;
      const set = claims.get(v.driver) ?? new Set(known.claims);
      claims.set(v.driver, set.add(v.id));
    }
  }
  let volumeLimits = e.volumeLimits;
  if (claims.size) {
    const changed = new Map(e.volumeLimits);
    for (const [d, set] of claims) changed.set(d, { limit: e.volumeLimits.get(d)?.limit ?? 0, claims: set });
    volumeLimits = changed;
  }
  return {
    ...e,
    available: subtract(e.available, requests),
    hostPorts: [...e.hostPorts, ...pods.flatMap((p) => p.hostPorts)],
    volumeLimits,
  };
}

/**
 * What the base's arrivals narrowed a node's requirements with (ExistingNode.add, as Karpenter's): on a key the
 * node has a label for, narrowing leaves `In [its value]` and changes nothing; on a key it has none for (the
 * arrival's requirement there is `NotIn` or `DoesNotExist`: an existing node admits no other on an undefined key)
 * it changes what later pods meet — `capacity-type NotIn [spot]` lets a later `In [on-demand]` in, which the
 * node's labels alone turn away. withLoad carries the load, not that: the follow adds it from here.
 */
export interface Narrowing {
  /** Per node: the queue places of its narrowing arrivals (ascending) and, at each, the narrowing so far. */
  readonly byNode: ReadonlyMap<string, { readonly at: number[]; readonly sofar: Requirements[] }>;
  /**
   * Nodes an arrival's topology may have narrowed on such a key too (a group deciding it has a key narrowed so
   * far, by it or an earlier arrival: its domains pin the key): replaying requirements is not the base's state
   * then, so the follow holds these nodes exactly from queue place 0 instead, placing their base pods through add.
   */
  readonly pinned: readonly string[];
  /** Every key narrowed so on some node: a pod requiring one of them may fit where the node's labels say no. */
  readonly keys: ReadonlySet<string>;
}

const narrowingMemo = new WeakMap<BaseSolution, Narrowing>();

/** The base's narrowing on keys its nodes have no label for, once per base (docs/mechanisms/delta-simulation.md). */
export function narrowing(base: BaseSolution): Narrowing {
  const known = narrowingMemo.get(base);
  if (known) return known;
  const byNode = new Map<string, { at: number[]; sofar: Requirements[] }>();
  const pinned: string[] = [];
  const keys = new Set<string>();
  let keyOf: Map<string, string> | undefined;
  for (const [name, arrivals] of base.onNode) {
    const labels = base.input.existing[base.nodeIndex.get(name) ?? -1]?.labels;
    if (!labels) continue;
    let pin = false;
    let last: Requirements | undefined;
    for (const a of arrivals) {
      const off: Requirement[] = [];
      for (const r of a.state.requirements.values()) if (!Object.hasOwn(labels, r.key)) off.push(r);
      if (off.length) {
        let n = byNode.get(name);
        if (!n) byNode.set(name, (n = { at: [], sofar: [] }));
        last = (last ? last.copy() : new Requirements()).addAll(new Requirements(off));
        n.at.push(a.at);
        n.sofar.push(last);
        for (const r of off) keys.add(r.key);
      }
      // a group deciding it on such a key narrows it too: anti-affinity to `NotIn` its blocked domains, and a
      // spread or affinity on a key narrowed so far to `In` its domains
      if (pin) continue;
      const map = (keyOf ??= new Map(base.topology.groupKeys()));
      const unlabelled = (id: string) => !Object.hasOwn(labels, map.get(id) ?? HOSTNAME);
      if (base.topology.deciding(a.state.key).some(unlabelled)) pin = true;
    }
    if (pin) pinned.push(name);
  }
  const out = { byNode, pinned, keys };
  narrowingMemo.set(base, out);
  return out;
}

/** The narrowing the base's arrivals on `node` made before queue place `time`, if any. */
export function narrowedBefore(n: Narrowing, node: string, time: number): Requirements | undefined {
  const steps = n.byNode.get(node);
  if (!steps) return undefined;
  const k = countBelow(steps.at, time);
  return k === 0 ? undefined : steps.sofar[k - 1];
}
