// The window check of the delta simulation, decided pod by pod in queue order (docs/mechanisms/delta-simulation.md,
// point 3): the full simulation interleaves the backlog pods of the window with the delta's pods; this follows
// that interleaving on bounds of each node's load instead of re-running the window, and gives up wherever the
// bounds cannot tell which node a pod takes.
import { addInto, fits, subtract, type MutableResourceList } from '../model/resources.ts';
import { hostPortConflict, type HostPort } from '../scheduling/host-ports.ts';
import type { ExistingNodeInput } from '../scheduling/nodes.ts';
import type { PendingPod, PodState } from '../scheduling/pod-state.ts';
import { labelRequirements, NO_UNDEFINED } from '../scheduling/requirement-set.ts';
import { untolerated } from '../scheduling/taints.ts';
import type { Arrival, BaseSolution, OffNode } from './base-solution.ts';
import { selects } from './delta-groups.ts';
import { lowerBound } from './delta-window.ts';

/** A delta pod at its queue time, on the node the delta's own run gave it. */
export interface Landed {
  readonly pod: PendingPod;
  readonly time: number;
  readonly node: string;
}

export type CascadeVerdict =
  'same' | 'arrival-conflict' | 'topology' | 'crowded-window' | 'gang-displaced' | 'backfill';

/** Displaced backlog pods followed at most: past this the bounds are too loose to certify anything. */
export const MAX_DISPLACED = 64;

class Load {
  readonly requests: MutableResourceList = {};
  readonly ports: HostPort[] = [];
  readonly drivers = new Map<string, number>();
  add(pod: PendingPod): this {
    addInto(this.requests, pod.requests);
    this.ports.push(...pod.hostPorts);
    for (const d of pod.volumeDrivers) this.drivers.set(d, (this.drivers.get(d) ?? 0) + 1);
    return this;
  }
  merge(other: Load): this {
    addInto(this.requests, other.requests);
    this.ports.push(...other.ports);
    for (const [d, n] of other.drivers) this.drivers.set(d, (this.drivers.get(d) ?? 0) + n);
    return this;
  }
}

/** Whether `pod` fits `input` (its state when the window opened) beside every load given. */
function fitsBeside(
  pod: PendingPod,
  input: ExistingNodeInput,
  loads: readonly (Load | undefined)[],
): boolean {
  let free: MutableResourceList = { ...input.available };
  for (const l of loads) if (l) free = subtract(free, l.requests);
  if (!fits(pod.requests, free)) return false;
  for (const l of loads) if (l && hostPortConflict(l.ports, pod.hostPorts)) return false;
  if (hostPortConflict(input.hostPorts, pod.hostPorts)) return false;
  for (const d of new Set(pod.volumeDrivers)) {
    const left = input.volumeSlots.get(d);
    if (left === undefined) continue;
    const used = loads.reduce((n, l) => n + (l?.drivers.get(d) ?? 0), 0);
    if (used + pod.volumeDrivers.filter((x) => x === d).length > left) return false;
  }
  return true;
}

/**
 * Follows the full simulation through the window [since, until) on load bounds. Relative to the delta's own
 * run every node only gains load (the window's backlog pods), so a node that rejected a delta pod still does;
 * relative to the base a node only gains load unless a backlog pod was displaced from it ("lost"), so a node that
 * rejected a backlog pod in the base still does. What remains to check: each pod still fits the node it took
 * (upper bound of its load: every base arrival, every delta pod before it, every displaced pod that may have
 * gone there), and no pod could now take a lost node (lower bound: only what surely stayed). A displaced backlog
 * pod is followed only if it is no gang member and no topology group counts it.
 */
export function cascade(
  base: BaseSolution,
  window: { readonly since: number; readonly until: number; readonly candidate: string },
  inputs: ReadonlyMap<string, ExistingNodeInput>,
  landed: readonly Landed[],
  moved: ReadonlySet<string>,
): CascadeVerdict {
  const idx = (n: string) => base.nodeIndex.get(n) ?? Number.POSITIVE_INFINITY;
  const wAll = new Map<string, Load>(); // every base arrival of the window so far (upper bound)
  const wStay = new Map<string, Load>(); // those not displaced (lower bound)
  const dLoad = new Map<string, Load>();
  const lost: string[] = [];
  const floating: { index: number; load: Load }[] = [];
  // a displaced pod can have gone to any node after its base node (the nodes before it still reject it)
  const floatingAbove = (i: number) => {
    const l = new Load();
    for (const f of floating) if (f.index < i) l.merge(f.load);
    return l;
  };
  // whether a pod could take a lost node: only what surely stayed there counts, and only a rule that no
  // relaxation lifts (a taint, every required node-affinity term) rules the node out
  const takesLost = (x: { pod: PendingPod; state: PodState }, below: number) =>
    lost.some((n) => {
      const input = inputs.get(n);
      if (!input) return true;
      if (idx(n) >= below || neverOn(x.state, input)) return false;
      return fitsBeside(x.pod, input, [wStay.get(n), dLoad.get(n)]);
    });
  const displacedOf = new Map<string, number>();
  const push = (m: Map<string, Load>, n: string, pod: PendingPod) => {
    const l = m.get(n) ?? new Load();
    m.set(n, l.add(pod));
  };

  const own = [...landed].sort((a, b) => a.time - b.time);
  const arrivals = base.arrivals;
  const offNodes = base.offNodes;
  let ai = lowerBound(arrivals, window.since);
  let oi = lowerBoundAt(offNodes, window.since);
  let di = 0;
  for (;;) {
    const a = arrivals[ai];
    const o = offNodes[oi];
    const d = own[di];
    const at = (x: { at: number } | undefined) =>
      x && x.at < window.until ? x.at : Number.POSITIVE_INFINITY;
    const next = Math.min(at(a), at(o), d ? d.time : Number.POSITIVE_INFINITY);
    if (next === Number.POSITIVE_INFINITY) return 'same';
    // a delta pod at time t is tried before the backlog pod at queue place t
    if (d && d.time <= next) {
      di++;
      push(dLoad, d.node, d.pod);
      const input = inputs.get(d.node);
      // the delta pods on that node so far (this one included) and all the window may have put there must fit
      const loads = [dLoad.get(d.node), wAll.get(d.node), floatingAbove(idx(d.node))];
      if (!input || !fitsTogether(input, loads)) return 'arrival-conflict';
      continue;
    }
    if (a && a.at === next) {
      ai++;
      if (a.node === window.candidate || moved.has(a.pod.key)) continue;
      const verdict = arrive(a);
      if (verdict !== 'same') return verdict;
      continue;
    }
    oi++;
    if (o && !moved.has(o.pod.key) && lost.length > 0 && takesLost(o, Number.POSITIVE_INFINITY))
      return 'backfill';
  }

  function arrive(a: Arrival): CascadeVerdict {
    const i = idx(a.node);
    if (takesLost(a, i)) return 'backfill';
    const input = inputs.get(a.node);
    if (!input) return 'arrival-conflict';
    // a node the delta and the displaced pods cannot have reached holds exactly what the base gave it
    const untouched = !dLoad.has(a.node) && !floating.some((f) => f.index < i);
    const stays =
      untouched || fitsBeside(a.pod, input, [wAll.get(a.node), dLoad.get(a.node), floatingAbove(i)]);
    push(wAll, a.node, a.pod);
    if (stays) {
      push(wStay, a.node, a.pod);
      return 'same';
    }
    // displaced: it goes to some later node or a claim; follow it only where nothing else depends on where
    if (countedByTopology(base, a)) return 'topology';
    // a gang member tries again after its mates, relaxed (so on any node); the gang still commits only while
    // the members that may fail stay within what the base placed beyond its minimum
    const gang = a.pod.gang?.name;
    if (gang !== undefined) {
      const n = (displacedOf.get(gang) ?? 0) + 1;
      displacedOf.set(gang, n);
      if (n > base.gangSlack(gang)) return 'gang-displaced';
    }
    if (takesLost(a, Number.POSITIVE_INFINITY)) return 'backfill';
    if (!lost.includes(a.node)) lost.push(a.node);
    // a member that surely lands does so in its first round, after its base node; one that may fail can land
    // on any node once relaxed
    floating.push({ index: gang === undefined ? i : -1, load: new Load().add(a.pod) });
    return floating.length > MAX_DISPLACED ? 'crowded-window' : 'same';
  }
}

function fitsTogether(input: ExistingNodeInput, loads: readonly (Load | undefined)[]): boolean {
  const all = new Load();
  for (const l of loads) {
    if (!l) continue;
    for (const p of l.ports)
      if (hostPortConflict(all.ports, [p]) || hostPortConflict(input.hostPorts, [p])) return false;
    all.merge(l);
  }
  if (!fits(all.requests, input.available)) return false;
  for (const [d, n] of all.drivers) {
    const left = input.volumeSlots.get(d);
    if (left !== undefined && n > left) return false;
  }
  return true;
}

/** A displaced pod whose new place could change what some pod's topology counts see. */
function countedByTopology(base: BaseSolution, a: Arrival): boolean {
  const g = base.groupsOf(a.state);
  if (g.owned.length > 0 || g.inverse.length > 0) return true;
  return [...base.ownedGroups, ...base.inverseGroups].some((x) => selects(x.spec, a.state.info));
}

const hardTaint = (t: { effect: string }) => t.effect === 'NoSchedule' || t.effect === 'NoExecute';

/** A rule that keeps the pod off the node whatever it relaxes: a hard taint or every required term. */
function neverOn(state: PodState, input: ExistingNodeInput): boolean {
  if (untolerated(input.taints.filter(hardTaint), state.tolerations)) return true;
  const labels = labelRequirements(input.labels);
  return state.strictTerms.every((t) => labels.incompatibility(t, NO_UNDEFINED) !== undefined);
}

function lowerBoundAt(xs: readonly OffNode[], time: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((xs[mid] as OffNode).at < time) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
