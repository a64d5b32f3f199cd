// The window check of the delta simulation, decided exactly (docs/mechanisms/delta-simulation.md, point 3): the
// full simulation interleaves the backlog's pods with the delta's pods. This follows that interleaving pod by pod
// in queue order with the scheduler's own existing-node check and the full simulation's own topology (its counts
// kept at each queue place from the base's recorded counts and the follow's differences), keeping the exact
// state of every node that differs from the base, and gives up only where a claim it cannot see could decide.
import { HOSTNAME } from '../model/labels.ts';
import { add, fits, fitsSum, type ResourceList } from '../model/resources.ts';
import { newClaimAccepts } from '../scheduling/fit-check.ts';
import type { GangRecord } from '../scheduling/gang-record.ts';
import type { InstanceType } from '../scheduling/instance-type.ts';
import { Journal } from '../scheduling/journal.ts';
import { ExistingNode, staticallyRejects, type ExistingNodeInput } from '../scheduling/nodes.ts';
import { PodState } from '../scheduling/pod-state.ts';
import { labelRequirements } from '../scheduling/requirement-set.ts';
import type { Labels } from '../scheduling/selector.ts';
import { staticFit } from '../scheduling/static-fit.ts';
import type { Deadline } from '../scheduling/scheduler.ts';
import type { NodeClaimTemplate } from '../scheduling/template.ts';
import type { Topology } from '../scheduling/topology.ts';
import type { BaseSolution, OffNode } from './base-solution.ts';
import { withLoad } from './delta-window.ts';

/** A delta pod (the candidate's, or a backlog pod the base put on it) at its queue time. */
export interface DeltaPod {
  readonly state: PodState;
  readonly time: number;
}

export type FollowVerdict =
  'same' | 'needs-claim' | 'topology' | 'gang-displaced' | 'crowded-window' | 'timed-out';

const NO_LOAD: ResourceList = {};

/** Backlog pods re-placed at most: each costs a walk over the node order, and past this it stops paying. */
export const MAX_REPLACED = 4096;

/** A node whose state in the full simulation differs from the base's: its exact state, and base pods it lacks. */
interface Slot {
  readonly name: string;
  readonly node: ExistingNode;
  readonly index: number;
  missing: number;
}

export interface FollowInput {
  readonly base: BaseSolution;
  /** The queue place of the candidate's last pod: after it nothing the command needs can change. */
  readonly until: number;
  readonly candidate: { readonly name: string; readonly labels: Labels };
  /** The nodes of the full simulation (the candidate left out) before any backlog pod is placed. */
  readonly inputs: ReadonlyMap<string, ExistingNodeInput>;
  /**
   * The full simulation's topology before any placement (every pending pod's groups, the candidate's pods no
   * longer bound, its domain universe); the follow brings it forward place by place. Its observer is the follow's.
   */
  readonly live: Topology;
  /** The delta's pods, by queue time (a gang's members in its order). */
  readonly delta: readonly DeltaPod[];
  /** Keys of the delta's pods: their base placements are the delta's business. */
  readonly moved: ReadonlySet<string>;
  /** The candidate's budget, asked between pods as the scheduler asks it. */
  readonly deadline?: Deadline;
}

/**
 * Whether the full simulation places every delta pod on an existing node, and where. A backlog pod keeps its
 * base first fit when its topology sees the base's counts (no group deciding it differs, no domain it counts
 * changed its suppliers) and no node before it lacks a base pod (it may now fit there) and its own node gained
 * none (it may not); otherwise it is placed over the whole node order as the scheduler would.
 */
export function follow(x: FollowInput): { verdict: FollowVerdict; nodes: ReadonlyMap<string, string> } {
  const f = new Follow(x);
  try {
    return { verdict: f.run(), nodes: f.placedBy };
  } finally {
    x.live.onCount = undefined;
  }
}

class Follow {
  private readonly slots = new Map<string, Slot>();
  /** Slots lacking a base pod, by node order: where a backlog pod may now fit earlier than in the base. */
  private readonly lighter: Slot[] = [];
  /** Some pod went to the claims in one run and not the other: the claims are no longer the base's. */
  private claimsDiverged = false;
  private replaced = 0;
  /** Where the last backlog pod `single` followed went in the full simulation. */
  private went: 'node' | 'claims' = 'node';
  /** The node the full simulation gave each delta pod. */
  readonly placedBy = new Map<string, string>();
  private readonly tolerate: boolean;
  /** Never begun: placements here are never rolled back, so it records nothing. */
  private readonly journal = new Journal();
  /** Per group: full simulation's count minus the base's, by domain, where they differ (now). */
  private readonly diff = new Map<string, Map<string, number>>();
  /** Groups whose domains or reach differ from the base's for good (not a count a later placement evens out). */
  private readonly structural = new Set<string>();
  private readonly keyOf = new Map<string, string>();
  /** Per node: the base's arrival times on it and the running sum of their requests (a node walk's cheap test). */
  private readonly loads = new Map<string, { at: number[]; sums: ResourceList[] }>();
  /** Groups of the full simulation the base does not have (the candidate's pods own them): no base count is theirs. */
  private readonly unknown = new Set<string>();

  constructor(private readonly x: FollowInput) {
    this.tolerate = x.base.options.toleratePreferNoSchedule;
    x.live.onCount = (_pod, group, domain, delta) => this.bump(group, domain, delta);
    this.initialDiff();
  }

  // Before any placement the runs differ only where the candidate was: its bound pods' counts at its own
  // domains, and those domains themselves if it was their last supplier. Its hostname is no node of the full
  // simulation, so no pod can be placed there and its count decides nothing (docs/mechanisms/delta-simulation.md).
  private initialDiff(): void {
    const { live, base, candidate } = this.x;
    for (const [id, key] of live.groupKeys()) {
      this.keyOf.set(id, key);
      const before = base.initialCounts(id);
      if (!before) {
        this.structural.add(id);
        this.unknown.add(id);
        continue;
      }
      const v = candidate.labels[key];
      if (key === HOSTNAME || v === undefined) continue;
      const full = live.countsOf(id)?.get(v);
      const was = before.get(v);
      if ((full === undefined) !== (was === undefined)) this.structural.add(id);
      else if (full !== was) this.bump(id, v, (full as number) - (was as number));
    }
  }

  private bump(group: string, domain: string, delta: number): void {
    let m = this.diff.get(group);
    if (!m) this.diff.set(group, (m = new Map()));
    const n = (m.get(domain) ?? 0) + delta;
    if (n === 0) m.delete(domain);
    else m.set(domain, n);
    if (m.size === 0) this.diff.delete(group);
  }

  /** Whether the pod's topology sees exactly what it saw in the base at this queue place. */
  private clean(s: PodState): boolean {
    const { live, base, candidate } = this.x;
    for (const id of live.deciding(s.key)) {
      if (this.structural.has(id) || this.diff.has(id)) return false;
      const key = this.keyOf.get(id) as string;
      const v = candidate.labels[key];
      // the fork's reach rule: the candidate may have been the domain's only supplier this pod could use
      if (key !== HOSTNAME && v !== undefined && live.counts(s, id, v) !== base.topology.counts(s, id, v))
        return false;
    }
    return true;
  }

  /** The pod stays where the base put it, off the nodes the follow holds: its base counts stand. */
  private keep(s: PodState): void {
    for (const c of this.x.base.countsOf(s.key)) this.x.live.addCount(c.group, c.domain, c.delta);
  }

  /** A group the base does not have counts the pod: its base counts miss that group, only placing it counts it. */
  private countedUnknown(s: PodState): boolean {
    return this.unknown.size > 0 && this.x.live.counting(s.key).some((id) => this.unknown.has(id));
  }

  /** The pod was placed here through the live topology (which counted it): its base counts are not the run's. */
  private unkeep(s: PodState): void {
    for (const c of this.x.base.countsOf(s.key)) this.bump(c.group, c.domain, -c.delta);
  }

  private place(s: Slot, state: PodState): boolean {
    return s.node.add(state, this.x.live, this.journal) === undefined;
  }

  /** A topology group decides or counts the pod: where it goes changes what others see, or depends on counts. */
  private coupled(s: PodState): boolean {
    return this.x.live.deciding(s.key).length > 0 || this.x.live.counting(s.key).length > 0;
  }

  run(): FollowVerdict {
    const { base, until } = this.x;
    const own = this.x.delta;
    const arrivals = base.arrivals;
    const offNodes = base.offNodes;
    const gangsDone = new Set<string>();
    const at = (e: { at: number } | undefined) => (e && e.at < until ? e.at : Number.POSITIVE_INFINITY);
    let ai = 0;
    let oi = 0;
    let di = 0;
    for (;;) {
      const a = arrivals[ai];
      const o = offNodes[oi];
      const d = own[di];
      const next = Math.min(at(a), at(o), d ? d.time : Number.POSITIVE_INFINITY);
      if (next === Number.POSITIVE_INFINITY) return 'same';
      let verdict: FollowVerdict;
      // a delta pod at time t is tried before the backlog pod at queue place t
      if (d && d.time <= next) verdict = this.delta(own[di++] as DeltaPod);
      else if (a && a.at === next) verdict = this.backlog(arrivals[ai++] as OffNode, a.node, gangsDone);
      else verdict = this.backlog(offNodes[oi++] as OffNode, undefined, gangsDone);
      if (verdict !== 'same') return verdict;
      if (this.replaced > MAX_REPLACED) return 'crowded-window';
      if (this.x.deadline?.passed()) return 'timed-out';
    }
  }

  private idx(node: string): number {
    return this.x.base.nodeIndex.get(node) ?? Number.POSITIVE_INFINITY;
  }

  /** The node as the full simulation has it at `time`: the slot, or the base's state then (made a slot). */
  private slot(name: string, time: number): Slot | undefined {
    const known = this.slots.get(name);
    if (known) return known;
    const input = this.baseInput(name, time);
    if (!input) return undefined;
    const s: Slot = { name, node: new ExistingNode(input), index: this.idx(name), missing: 0 };
    this.slots.set(name, s);
    return s;
  }

  /** An untouched node's state at `time`: the full simulation's node plus the base arrivals before then. */
  private baseInput(name: string, time: number): ExistingNodeInput | undefined {
    const input = this.x.inputs.get(name);
    if (!input) return undefined;
    const pods = (this.x.base.onNode.get(name) ?? []).filter((a) => a.at < time).map((a) => a.pod);
    return pods.length ? withLoad(input, pods) : input;
  }

  /** What the base's arrivals on an untouched node request before `time`. */
  private loadBefore(name: string, time: number): ResourceList {
    let l = this.loads.get(name);
    if (!l) {
      const at: number[] = [];
      const sums: ResourceList[] = [];
      for (const a of this.x.base.onNode.get(name) ?? []) {
        at.push(a.at);
        sums.push(sums.length ? add(sums[sums.length - 1] as ResourceList, a.pod.requests) : a.pod.requests);
      }
      this.loads.set(name, (l = { at, sums }));
    }
    let lo = 0;
    let hi = l.at.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((l.at[mid] as number) < time) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? NO_LOAD : (l.sums[lo - 1] as ResourceList);
  }

  private lose(s: Slot): void {
    if (s.missing++ === 0) insertByIndex(this.lighter, s);
  }

  // A delta pod has no base placement to keep: it is placed over the whole node order, as the scheduler tries it.
  private delta(d: DeltaPod): FollowVerdict {
    const to = this.scanAfter(d.state, -1, d.time);
    // no existing node takes it: it meets the base's claims, whose state the follow does not have
    if (!to) return 'needs-claim';
    this.placedBy.set(d.state.key, to.name);
    this.unkeep(d.state);
    return 'same';
  }

  private backlog(e: OffNode, node: string | undefined, gangsDone: Set<string>): FollowVerdict {
    const key = e.pod.key;
    if (this.x.moved.has(key)) {
      // the delta placed it: its base node lacks it, unless the delta put it back on the same node
      if (node !== undefined && this.placedBy.get(key) !== node && this.x.inputs.has(node))
        this.lose(this.slot(node, e.at) as Slot);
      return 'same';
    }
    // once the claims differ, a pod a group counts may take another claim, in another domain
    if (node === undefined && this.claimsDiverged && this.coupled(e.state)) return 'topology';
    const gang = this.x.base.gangOf(key);
    if (gang === undefined) return this.single(e.state, node, e.at);
    if (gangsDone.has(gang)) return 'same';
    gangsDone.add(gang);
    return this.gang(gang, e.at);
  }

  /** Where the full simulation's first attempt puts a backlog pod the base put on `home` (or on no node). */
  private single(state: PodState, home: string | undefined, time: number): FollowVerdict {
    // its topology sees other counts than in the base: the base's verdicts on the nodes before its home say nothing
    if (!this.clean(state)) {
      const to = this.scanAfter(state, -1, time);
      if (to && to.name === home) {
        this.went = 'node';
        this.unkeep(state);
        return 'same';
      }
      return this.moved(state, home, time, to);
    }
    const moved = this.firstIn(
      this.lighter,
      state,
      home === undefined ? Number.POSITIVE_INFINITY : this.idx(home),
    );
    if (moved) return this.moved(state, home, time, moved);
    this.went = home === undefined ? 'claims' : 'node';
    let s = home === undefined ? undefined : this.slots.get(home);
    // untouched: the nodes before it hold what they held in the base, the node itself too
    if (!s && !this.countedUnknown(state)) {
      this.keep(state);
      return 'same';
    }
    // on a claim of the base it would count in a group the base never had: its domain there is the claims'
    if (home === undefined) return 'topology';
    if (!s) s = this.slot(home, time) as Slot;
    if (this.place(s, state)) {
      this.unkeep(state);
      return 'same';
    }
    return this.moved(state, home, time, this.scanAfter(state, s.index, time));
  }

  private moved(
    state: PodState,
    home: string | undefined,
    time: number,
    to: Slot | undefined,
  ): FollowVerdict {
    this.went = to ? 'node' : 'claims';
    // a pod a group decides or counts, sent to claims other than the base's: its domain there is the claims'
    if (!to && this.coupled(state)) return 'topology';
    this.replaced++;
    if (to) this.unkeep(state);
    if (home !== undefined) this.lose(this.slot(home, time) as Slot);
    if ((home === undefined) !== (to === undefined)) this.claimsDiverged = true;
    return 'same';
  }

  private firstIn(slots: readonly Slot[], state: PodState, below: number): Slot | undefined {
    for (const s of slots) {
      if (s.index >= below) break;
      if (fits(state.info.requests, s.node.free()) && this.place(s, state)) return s;
    }
    return undefined;
  }

  /**
   * The first node after `after` in the node order that takes the pod (placed there, through the live topology),
   * as the scheduler walks on. A node it only tries becomes a slot when it takes the pod.
   */
  private scanAfter(state: PodState, after: number, time: number): Slot | undefined {
    const existing = this.x.base.input.existing;
    const want = state.info.requests;
    for (let i = after + 1; i < existing.length; i++) {
      const name = (existing[i] as ExistingNodeInput).name;
      const s = this.slots.get(name);
      if (s) {
        if (fits(want, s.node.free()) && this.place(s, state)) return s;
        continue;
      }
      const input = this.x.inputs.get(name);
      // a node too small before any backlog placement only filled up since
      if (!input || !fits(want, input.available) || staticallyRejects(input, state)) continue;
      if (!fitsSum(this.loadBefore(name, time), want, input.available)) continue;
      const now = this.baseInput(name, time) as ExistingNodeInput;
      const node = new ExistingNode(now);
      if (node.add(state, this.x.live, this.journal) !== undefined) continue;
      const made: Slot = { name, node, index: this.idx(name), missing: 0 };
      this.slots.set(name, made);
      return made;
    }
    return undefined;
  }

  private gang(name: string, time: number): FollowVerdict {
    const members = (this.x.base.pendingGangs.get(name)?.members ?? []).map(
      (m) => new PodState(m, this.tolerate),
    );
    const exact = members.every((m) => this.clean(m) && !this.countedUnknown(m));
    if (this.slots.size === 0 && !this.claimsDiverged && exact) {
      for (const m of members) this.keep(m);
      return 'same';
    }
    const record = this.x.base.gangRecord(name);
    const whole = record && record.committed && record.rounds === 1 && record.placed === record.members;
    return whole ? this.replaceGang(members, record, time) : this.untouchedGang(members, exact);
  }

  // A gang the base did not place whole in one round: its rounds and rollback cannot be followed, so it must be
  // the base's — no node that differs can take any member whatever its load, and the claims are the base's.
  private untouchedGang(members: readonly PodState[], exact: boolean): FollowVerdict {
    if (this.claimsDiverged) return 'gang-displaced';
    // a member whose topology sees other counts may be turned away where the base placed it
    if (!exact) return 'topology';
    for (const m of members)
      for (const s of this.slots.values()) {
        if (staticFit(s.node.input, labelRequirements(s.node.input.labels), m) === 0) return 'gang-displaced';
      }
    for (const m of members) this.keep(m);
    return 'same';
  }

  // A gang the base placed whole in its first round, member by member as placeGang does. A member that now finds
  // no node must land on a claim, or the gang rolls back: provable only against the limits the base had left
  // before the gang, while the claims are still the base's, each member sent to the claims before it taking at
  // most one claim of the largest type.
  private replaceGang(members: readonly PodState[], record: GangRecord, time: number): FollowVerdict {
    const claimsBefore = this.claimsDiverged;
    for (const m of members) {
      const home = this.x.base.nodeOf(m.key);
      if (home !== undefined && this.x.inputs.has(home)) this.slot(home, time);
    }
    let toClaims = 0;
    for (const m of members) {
      const home = this.x.base.nodeOf(m.key);
      const before = this.claimsDiverged;
      const verdict = this.single(m, home, time);
      if (verdict !== 'same') return verdict;
      if (this.went !== 'claims') continue;
      // the claims it meets are the base's only while nothing diverged before it
      if (before || this.claimsDiverged) {
        if (claimsBefore) return 'gang-displaced';
        if (this.coupled(m)) return 'topology';
        if (!this.claimLands(m, record, toClaims)) return 'gang-displaced';
      }
      toClaims++;
    }
    return 'same';
  }

  private claimLands(m: PodState, record: GangRecord, before: number): boolean {
    const b = this.x.base;
    return b.input.templates.some((t) => {
      const left = record.remaining.get(t.nodePool);
      const types = left ? surelyWithin(t, left, before) : t.instanceTypes;
      return newClaimAccepts(t, types, m, b.options.allowUndefined);
    });
  }
}

function insertByIndex(list: Slot[], s: Slot): void {
  const i = list.findIndex((l) => l.index > s.index);
  list.splice(i < 0 ? list.length : i, 0, s);
}

/** The template's types within `left` even after `claims` more claims of its largest type (subtractMax). */
function surelyWithin(t: NodeClaimTemplate, left: ResourceList, claims: number): InstanceType[] {
  const worst: Record<string, number> = {};
  for (const k in left) {
    const l = left[k] as number;
    if (l >= Number.MAX_SAFE_INTEGER) continue; // a saturated limit stays unlimited
    let max = 0;
    for (const it of t.instanceTypes) max = Math.max(max, it.capacity[k] ?? 0);
    worst[k] = l - claims * max;
  }
  return t.instanceTypes.filter((it) => {
    for (const k in worst) if ((it.capacity[k] ?? 0) > (worst[k] as number)) return false;
    return true;
  });
}
