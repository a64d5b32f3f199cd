// Beyond the fork (issue 3, item 3): a candidate's simulation only needs the backlog pods that could interact
// with the pods it moves. A pending pod that can land on none of the nodes or NodePools the moving pods can
// use (judged conservatively by taints, required node selectors, volume zones and resource kinds) never
// touches their capacity, claims or limits — nor does one that only competes with such pods — so leaving it
// out cannot change where the moving pods go.
// Topology couples pods beyond that, so any moving pod with spread or (anti-)affinity, and any pending pod
// with anti-affinity, keeps the whole interaction; gang-mates of a moving pod are always kept.
import type { Taint, Toleration } from '../model/meta.ts';
import type { ResourceList } from '../model/resources.ts';
import { PodState, type PendingPod } from '../scheduling/pod-state.ts';
import type { Requirements } from '../scheduling/requirement-set.ts';
import { Requirements as Reqs } from '../scheduling/requirement-set.ts';
import { untolerated } from '../scheduling/taints.ts';
import type { PassView } from '../state/scheduling-view.ts';

interface Target {
  readonly requirements: Requirements;
  readonly taints: readonly Taint[];
  /** Resource kinds some shape of this target offers (a node's allocatable; any of a pool's types). */
  readonly kinds: ReadonlySet<string>;
}

const HARD = (t: Taint) => t.effect !== 'PreferNoSchedule';
const kindsOf = (lists: readonly ResourceList[]): Set<string> => {
  const out = new Set<string>();
  for (const l of lists) for (const [k, v] of Object.entries(l)) if (v > 0) out.add(k);
  return out;
};

function hasTopology(p: PendingPod): boolean {
  const a = p.pod.spec.affinity;
  return !!a?.podAffinity || !!a?.podAntiAffinity || (p.pod.spec.topologySpreadConstraints ?? []).length > 0;
}

export interface BacklogReduction {
  /** The backlog pods a simulation moving `moving` must keep (all of them when topology couples the pods). */
  relevant(backlog: readonly PendingPod[], moving: readonly PendingPod[]): PendingPod[];
}

export function backlogReduction(view: PassView): BacklogReduction {
  const { snapshot } = view;
  const targets: Target[] = [
    ...[...snapshot.nodes, ...snapshot.inFlight].map((n) => ({
      requirements: Reqs.fromLabels(n.labels),
      taints: n.taints.filter(HARD),
      kinds: kindsOf([n.allocatable]),
    })),
    ...view.templates.map((t) => ({
      requirements: t.requirements,
      taints: t.taints.filter(HARD),
      kinds: kindsOf(t.instanceTypes.map((it) => it.allocatable)),
    })),
  ];
  // reach sets as bitsets, 32 targets a word, so the closure below intersects them a word at a time
  const words = Math.ceil(targets.length / 32);
  const byShape = new Map<string, Uint32Array>();
  const byPod = new Map<PendingPod, Uint32Array>();
  const reach = (p: PendingPod): Uint32Array => {
    const known = byPod.get(p);
    if (known) return known;
    const state = new PodState(p, true);
    const shape = JSON.stringify([
      state.strictTerms.map((r) => r.toString()),
      state.tolerations,
      Object.keys(p.requests)
        .filter((k) => (p.requests[k] ?? 0) > 0)
        .sort(),
    ]);
    let bits = byShape.get(shape);
    if (!bits) {
      bits = new Uint32Array(words);
      const tolerations: Toleration[] = state.tolerations;
      const set = bits;
      targets.forEach((t, i) => {
        if (untolerated(t.taints, tolerations)) return;
        for (const k of Object.keys(p.requests)) if ((p.requests[k] ?? 0) > 0 && !t.kinds.has(k)) return;
        if (state.strictTerms.some((term) => t.requirements.compatible(term, view.allowUndefined)))
          set[i >>> 5] = (set[i >>> 5] as number) | (1 << (i & 31));
      });
      byShape.set(shape, bits);
    }
    byPod.set(p, bits); // pending pods are memoized per pass, so this is a per-pass cache too
    return bits;
  };
  const orBits = (into: Set<number>, bits: Uint32Array, find: (t: number) => number) => {
    for (let w = 0; w < words; w++)
      for (let word = bits[w] as number; word !== 0; word &= word - 1)
        into.add(find(w * 32 + (31 - Math.clz32(word & -word))));
  };
  let parts: Components | undefined;
  return {
    relevant(backlog, moving) {
      if (moving.some(hasTopology)) return [...backlog];
      // Closure, not one step: a backlog pod that competes only with another backlog pod still moves that
      // pod, which may then take capacity a moving pod needed. Keep every pod connected to the moving pods
      // through shared targets: the backlog's connected components, found once per pass.
      if (!parts?.covers(backlog)) parts = components(backlog, targets.length, reach);
      const { find, of } = parts;
      const seeds = new Set<number>();
      const gangs = new Set<string>();
      for (const m of moving) {
        orBits(seeds, reach(m), find);
        if (m.gang) gangs.add(m.gang.name);
      }
      const always = (b: PendingPod) =>
        !!b.pod.spec.affinity?.podAntiAffinity || (!!b.gang && gangs.has(b.gang.name));
      for (const b of backlog) if (always(b)) orBits(seeds, reach(b), find);
      return backlog.filter((b) => {
        const c = of.get(b);
        return always(b) || (c !== undefined && c >= 0 && seeds.has(c));
      });
    },
  };
}

interface Components {
  /** The component of a target (union-find root). */
  readonly find: (target: number) => number;
  /** Each backlog pod's component (-1: it can land nowhere). */
  readonly of: ReadonlyMap<PendingPod, number>;
  covers(backlog: readonly PendingPod[]): boolean;
}

// Targets joined whenever one backlog pod can reach both: two targets in one component are linked by a chain
// of backlog pods each sharing a target with the next, which is exactly what the closure follows.
function components(
  backlog: readonly PendingPod[],
  size: number,
  reach: (p: PendingPod) => Uint32Array,
): Components {
  const parent = Int32Array.from({ length: size }, (_, i) => i);
  const find = (t: number): number => {
    let r = t;
    while (parent[r] !== r) r = parent[r] as number;
    for (let x = t; parent[x] !== r;) {
      const next = parent[x] as number;
      parent[x] = r;
      x = next;
    }
    return r;
  };
  const firsts = new Map<PendingPod, number>();
  for (const b of backlog) {
    const bits = reach(b);
    let first = -1;
    for (let w = 0; w < bits.length; w++)
      for (let word = bits[w] as number; word !== 0; word &= word - 1) {
        const t = w * 32 + (31 - Math.clz32(word & -word));
        if (first < 0) first = t;
        else parent[find(t)] = find(first);
      }
    firsts.set(b, first);
  }
  const of = new Map<PendingPod, number>();
  for (const [b, first] of firsts) of.set(b, first < 0 ? -1 : find(first));
  return {
    find,
    of,
    covers: (list) => list.length === of.size && list.every((b) => of.has(b)),
  };
}
