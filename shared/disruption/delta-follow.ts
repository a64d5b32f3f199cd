// The window check of the delta simulation, decided exactly (docs/mechanisms/delta-simulation.md, point 3): the
// full simulation's interleaving of backlog and delta pods followed pod by pod in queue order, with the node state
// (delta-node-slots.ts) and the count differences (delta-count-diff.ts); it gives up only where a claim could decide.
import type { GangRecord } from '../scheduling/gang-record.ts';
import type { Journal } from '../scheduling/journal.ts';
import type { NewClaim } from '../scheduling/new-claim.ts';
import type { ExistingNodeInput } from '../scheduling/nodes.ts';
import { PodState } from '../scheduling/pod-state.ts';
import type { Labels } from '../scheduling/selector.ts';
import type { Deadline } from '../scheduling/scheduler.ts';
import type { Topology } from '../scheduling/topology.ts';
import type { BaseSolution, OffNode } from './base-solution.ts';
import { CountDiff } from './delta-count-diff.ts';
import { DeltaClaims, type ClaimFallback } from './delta-claims.ts';
import { claimLands, GangClouds, type Landed } from './delta-gang-claims.ts';
import { NodeSlots, type Slot } from './delta-node-slots.ts';

/** A delta pod (the candidate's, or a backlog pod the base put on it) at its queue time. */
export interface DeltaPod {
  readonly state: PodState;
  readonly time: number;
}

export type FollowVerdict =
  'same' | 'topology' | 'gang-displaced' | 'gang-cloud' | 'crowded-window' | 'timed-out' | ClaimFallback;

/** Backlog pods re-placed at most: each costs a walk over the node order, and past this it stops paying. */
export const MAX_REPLACED = 4096;

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
  /** The journal `live` was built with: a claim's trial placement is rolled back through it. */
  readonly journal: Journal;
}

/**
 * Whether the full simulation places every delta pod on an existing node, and where. A backlog pod keeps its
 * base first fit when its topology sees the base's counts (no group deciding it differs, no domain it counts
 * changed its suppliers) and no node before it lacks a base pod (it may now fit there) and its own node gained
 * none (it may not); otherwise it is placed over the whole node order as the scheduler would.
 */
export function follow(x: FollowInput): {
  verdict: FollowVerdict;
  nodes: ReadonlyMap<string, string>;
  /** The claim the full simulation gave each delta pod no existing node took (docs/mechanisms/delta-simulation.md). */
  claims: ReadonlyMap<string, NewClaim>;
  /** Backlog pods the full simulation placed elsewhere than the base, up to where the follow stopped. */
  replaced: number;
} {
  const f = new Follow(x);
  try {
    const verdict = f.run();
    return { verdict, nodes: f.placedBy, claims: f.claims.placed, replaced: f.replaced };
  } finally {
    x.live.onCount = undefined;
  }
}

class Follow {
  private readonly slots: NodeSlots;
  private readonly counts: CountDiff;
  readonly claims: DeltaClaims;
  /** Some pod went to the claims in one run and not the other: the claims are no longer the base's. */
  private claimsDiverged = false;
  replaced = 0;
  /** Where the last backlog pod `single` followed went in the full simulation. */
  private went: 'node' | 'claims' = 'node';
  /** Where it landed, for a gang's one-cloud rule: a node, its base claim, or another claim. */
  private landed: Landed = { claim: 'base' };
  /** The clouds the delta's gangs landed on, member by member. */
  private readonly deltaGangs = new Map<string, GangClouds>();
  /** The node the full simulation gave each delta pod. */
  readonly placedBy = new Map<string, string>();
  private readonly tolerate: boolean;

  constructor(private readonly x: FollowInput) {
    this.tolerate = x.base.options.toleratePreferNoSchedule;
    this.counts = new CountDiff(x.base, x.live, x.candidate.labels);
    this.slots = new NodeSlots(x.base, x.inputs, x.live);
    this.claims = new DeltaClaims(x.base, x.live, x.journal, x.moved);
  }

  run(): FollowVerdict {
    const { base, until } = this.x;
    const own = this.x.delta;
    // past the candidate's last pod only while a claim the delta touched may still take a pod (delta-claims.ts)
    const limit = () => Math.max(until, this.claims.horizon);
    const arrivals = base.arrivals;
    const offNodes = base.offNodes;
    const gangsDone = new Set<string>();
    const at = (e: { at: number } | undefined) => (e && e.at < limit() ? e.at : Number.POSITIVE_INFINITY);
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

  // A delta pod has no base placement to keep: it is placed over the whole node order, as the scheduler tries it.
  private delta(d: DeltaPod): FollowVerdict {
    const gang = d.state.info.gang;
    // a gang asking for one zone is tried in every zone and kept in the cheapest (place-gang-zone.ts): not followed
    if (gang?.oneZone) return 'gang-cloud';
    const to = this.slots.scanAfter(d.state, -1, d.time);
    if (to) {
      this.placedBy.set(d.state.key, to.name);
      // members on two clouds: the scheduler undoes the gang and places it again on each cloud alone (place-gang.ts),
      // which the follow does not (the random fleets at seed 1940638628; delta-gang-cloud.test.ts)
      if (gang) {
        let clouds = this.deltaGangs.get(gang.name);
        if (!clouds) this.deltaGangs.set(gang.name, (clouds = new GangClouds(this.x.base, this.x.inputs)));
        if (clouds.add(d.state, { node: to.name })) return 'gang-cloud';
      }
    } else {
      // no existing node takes it: the claims, which are the base's (and the delta's) only until some pod went to
      // them in one run and not the other; a gang's member takes its gang's all-or-nothing path, not followed
      if (d.state.info.gang) return 'gang-claim';
      if (this.claimsDiverged) return 'needs-claim';
      const why = this.claims.place(d.state, d.time);
      if (why) return why;
    }
    this.counts.unkeep(d.state);
    return 'same';
  }

  private backlog(e: OffNode, node: string | undefined, gangsDone: Set<string>): FollowVerdict {
    const key = e.pod.key;
    // past the candidate's last pod (a claim's horizon): a pod the base put on the candidate has no home there.
    // Following it as a delta pod disagreed with the full simulation on a gang-heavy fleet (a GPU pod with a zone
    // spread, its base counts on the candidate's zone): not followed until that is understood
    if (node === this.x.candidate.name && !this.x.moved.has(key)) return 'claim-shared';
    if (this.x.moved.has(key)) {
      // the delta placed it: its base node lacks it, unless the delta put it back on the same node
      if (node !== undefined && this.placedBy.get(key) !== node && this.x.inputs.has(node))
        this.slots.lose(this.slots.slot(node, e.at) as Slot);
      return 'same';
    }
    // once the claims differ, a pod a group counts may take another claim, in another domain
    if (node === undefined && this.claimsDiverged && this.counts.coupled(e.state)) return 'topology';
    const gang = this.x.base.gangOf(key);
    if (gang === undefined) return this.single(e.state, node, e.at);
    if (gangsDone.has(gang)) return 'same';
    gangsDone.add(gang);
    return this.gang(gang, e.at);
  }

  /** Where the full simulation's first attempt puts a backlog pod the base put on `home` (or on no node). */
  private single(state: PodState, home: string | undefined, time: number): FollowVerdict {
    this.landed = home === undefined ? { claim: 'base' } : { node: home };
    // its topology sees other counts than in the base: the base's verdicts on the nodes before its home say nothing
    if (!this.counts.clean(state)) {
      const to = this.slots.scanAfter(state, -1, time);
      if (to && to.name === home) {
        this.went = 'node';
        this.counts.unkeep(state);
        return 'same';
      }
      return this.moved(state, home, time, to);
    }
    const moved = this.slots.firstLighter(
      state,
      home === undefined ? Number.POSITIVE_INFINITY : this.slots.index(home),
    );
    if (moved) return this.moved(state, home, time, moved);
    if (home === undefined) {
      // a claim the delta touched may take it (its own base claim among them): placed as the scheduler would
      const v = this.backlogToClaims(state, time, true);
      if (v !== undefined) return v;
    }
    // the base put it on a claim a delta pod has filled since, which turns it away: it went to another claim
    if (home === undefined && this.claims.displaced(state.key, time)) {
      this.claimsDiverged = true;
      return this.moved(state, home, time, undefined);
    }
    this.went = home === undefined ? 'claims' : 'node';
    let s = home === undefined ? undefined : this.slots.get(home);
    // untouched: the nodes before it hold what they held in the base, the node itself too
    if (!s && !this.counts.countedUnknown(state)) {
      this.counts.keep(state);
      return 'same';
    }
    // on a claim of the base it would count in a group the base never had: its domain there is the claims'
    if (home === undefined) return 'topology';
    if (!s) s = this.slots.slot(home, time) as Slot;
    if (this.slots.place(s, state)) {
      this.counts.unkeep(state);
      return 'same';
    }
    return this.moved(state, home, time, this.slots.scanAfter(state, s.index, time));
  }

  private moved(
    state: PodState,
    home: string | undefined,
    time: number,
    to: Slot | undefined,
  ): FollowVerdict {
    this.went = to ? 'node' : 'claims';
    this.landed = to ? { node: to.name } : { claim: 'other' };
    // a pod a group decides or counts, sent to claims other than the base's: its domain there is the claims'
    if (!to && this.counts.coupled(state)) return 'topology';
    if (!to) {
      // 'same': it joined a claim elsewhere than the base's, counted and diverged; its node's loss follows
      const v = this.backlogToClaims(state, time, home === undefined);
      if (v !== undefined && v !== 'same') return v;
    }
    this.replaced++;
    if (to) this.counts.unkeep(state);
    if (home !== undefined) this.slots.lose(this.slots.slot(home, time) as Slot);
    if ((home === undefined) !== (to === undefined)) this.claimsDiverged = true;
    return 'same';
  }

  /**
   * A backlog pod the full simulation sends to the claims (the base too, if `onClaim`): where it lands is the
   * command's business only if a claim the delta touched may take it; then, while the claims are otherwise the
   * base's, it is placed as the scheduler would (delta-claims.ts). Undefined: it goes as the base had it, or its
   * claim is none of the command's business.
   */
  private backlogToClaims(state: PodState, time: number, onClaim: boolean): FollowVerdict | undefined {
    if (!this.claims.any || !this.claims.mayTake(state)) return undefined;
    if (this.claimsDiverged || state.info.gang) return 'claim-shared';
    const where = this.claims.placeBacklog(state, time);
    if (where === 'base' && onClaim) return undefined;
    if (where !== 'touched' && where !== 'rejoined' && where !== 'other' && where !== 'base') return where;
    // its counts: recorded by the placement on a touched claim; elsewhere on the claims, in an unknown domain
    if (where === 'touched' || where === 'rejoined') this.counts.unkeep(state);
    else if (this.counts.coupled(state)) return 'topology';
    this.went = 'claims';
    // on the delta's copy of its own base claim the other claims stay the base's; anywhere else they differ
    if (where !== 'rejoined' || !onClaim) {
      this.claimsDiverged = true;
      if (onClaim) this.replaced++;
    }
    return 'same';
  }

  private gang(name: string, time: number): FollowVerdict {
    const members = (this.x.base.pendingGangs.get(name)?.members ?? []).map(
      (m) => this.x.base.stateOf(m.key) ?? new PodState(m, this.tolerate),
    );
    const exact = members.every((m) => this.counts.clean(m) && !this.counts.countedUnknown(m));
    const displaced = members.some((m) => this.claims.displaced(m.key, time));
    if (this.slots.size === 0 && !this.claimsDiverged && exact && !displaced) {
      for (const m of members) this.counts.keep(m);
      return 'same';
    }
    const record = this.x.base.gangRecord(name);
    const whole = record && record.committed && record.rounds === 1 && record.placed === record.members;
    if (displaced && !whole) return 'gang-displaced';
    return whole ? this.replaceGang(members, record, time) : this.untouchedGang(members, exact);
  }

  // A gang the base did not place whole in one round: its rounds and rollback cannot be followed, so it must be
  // the base's — no node that differs can take any member whatever its load, and the claims are the base's.
  private untouchedGang(members: readonly PodState[], exact: boolean): FollowVerdict {
    if (this.claimsDiverged) return 'gang-displaced';
    // a member whose topology sees other counts may be turned away where the base placed it
    if (!exact) return 'topology';
    for (const m of members) {
      // a member the base put on a node that differs now may not fit there
      const home = this.x.base.nodeOf(m.key);
      if (home !== undefined && this.slots.get(home)) return 'gang-displaced';
      // judged on the slot's requirements as narrowed so far: a narrowed key may admit what its labels turn away
      for (const s of this.slots.all()) if (s.node.admitsStatically(m)) return 'gang-displaced';
    }
    for (const m of members) this.counts.keep(m);
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
      if (home !== undefined && this.x.inputs.has(home)) this.slots.slot(home, time);
    }
    let toClaims = 0;
    // the base placed it on one cloud at the first try; re-placed, its members must stay on one (place-gang.ts)
    const clouds = new GangClouds(this.x.base, this.x.inputs);
    for (const m of members) {
      const home = this.x.base.nodeOf(m.key);
      const before = this.claimsDiverged;
      const verdict = this.single(m, home, time);
      if (verdict !== 'same') return verdict;
      if (clouds.add(m, this.landed)) return 'gang-cloud';
      if (this.went !== 'claims') continue;
      // the claims it meets are the base's only while nothing diverged before it
      if (before || this.claimsDiverged) {
        // the claims the delta opened took from the limits claimLands reads
        if (claimsBefore || this.claims.any) return 'gang-displaced';
        if (this.counts.coupled(m)) return 'topology';
        if (!claimLands(this.x.base, m, record, toClaims)) return 'gang-displaced';
      }
      toClaims++;
    }
    return 'same';
  }
}
