// The window check of the delta simulation, decided exactly (docs/mechanisms/delta-simulation.md, point 3): the
// full simulation interleaves the window's backlog pods with the delta's pods. This follows that interleaving pod
// by pod in queue order with the scheduler's own existing-node check, keeping the exact state of every node that
// differs from the base, and gives up only where topology or a claim it cannot see could decide.
import { HOSTNAME } from '../model/labels.ts';
import { fits, type ResourceList } from '../model/resources.ts';
import { newClaimAccepts, placeOnNode } from '../scheduling/fit-check.ts';
import type { GangRecord } from '../scheduling/gang-record.ts';
import type { InstanceType } from '../scheduling/instance-type.ts';
import { ExistingNode, type ExistingNodeInput } from '../scheduling/nodes.ts';
import { PodState, type PendingPod } from '../scheduling/pod-state.ts';
import { labelRequirements } from '../scheduling/requirement-set.ts';
import { staticFit } from '../scheduling/static-fit.ts';
import type { NodeClaimTemplate } from '../scheduling/template.ts';
import type { GroupSpec } from '../scheduling/topology-group.ts';
import type { BaseSolution, OffNode } from './base-solution.ts';
import { selects } from './delta-groups.ts';
import { lowerBound, withLoad } from './delta-window.ts';

/** A delta pod at its queue time, on the node the delta's own run gave it. */
export interface Landed {
  readonly pod: PendingPod;
  readonly time: number;
  readonly node: string;
}

export type FollowVerdict = 'same' | 'arrival-conflict' | 'topology' | 'gang-displaced' | 'crowded-window';

/** Backlog pods re-placed at most: each costs a walk over the node order, and past this it stops paying. */
export const MAX_REPLACED = 128;

/** A node whose state in the full simulation differs from the base's: its exact state, and base pods it lacks. */
interface Slot {
  readonly name: string;
  readonly node: ExistingNode;
  readonly index: number;
  missing: number;
}

export interface FollowInput {
  readonly base: BaseSolution;
  readonly window: { readonly since: number; readonly until: number; readonly candidate: string };
  /** The nodes of the full simulation (the candidate left out) as they stood at `since`. */
  readonly inputs: ReadonlyMap<string, ExistingNodeInput>;
  /** The delta's pods (and replayed backlog pods) with the node the delta's run gave each. */
  readonly landed: readonly Landed[];
  /** Keys of every pod in `landed`: their base placements are the delta's business. */
  readonly moved: ReadonlySet<string>;
  /** Groups the candidate's own pods own or impose: a backlog pod they count must not move. */
  readonly ownGroups: readonly GroupSpec[];
}

/**
 * Whether the full simulation places every pod of `landed` on the node the delta's run did. Against the base a
 * node only differs once the follow has touched it (a slot); an untouched node holds exactly the base's pods, so
 * a backlog pod's base first fit stands unless a node before it lacks a base pod (it may now fit there) or its
 * own node gained one (it may not). A node that only gained pods rejects what it rejected in the base.
 */
export function follow(x: FollowInput): { verdict: FollowVerdict; nodes: ReadonlyMap<string, string> } {
  const f = new Follow(x);
  return { verdict: f.run(), nodes: f.placedBy };
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
  /** Nodes lacking a delta pod the delta's run put there, by node order: a later delta pod may fit there now. */
  private readonly deltaLighter: Slot[] = [];
  private readonly groups: readonly GroupSpec[];
  private readonly tolerate: boolean;

  constructor(private readonly x: FollowInput) {
    const b = x.base;
    this.groups = [
      ...b.ownedGroups.map((g) => g.spec),
      ...b.inverseGroups.map((g) => g.spec),
      ...b.boundInverse(),
      ...x.ownGroups,
    ];
    this.tolerate = b.options.toleratePreferNoSchedule;
  }

  run(): FollowVerdict {
    const { base, window } = this.x;
    const own = [...this.x.landed].sort((a, b) => a.time - b.time);
    const arrivals = base.arrivals;
    const offNodes = base.offNodes;
    const gangsDone = new Set<string>();
    const at = (e: { at: number } | undefined) =>
      e && e.at < window.until ? e.at : Number.POSITIVE_INFINITY;
    let ai = lowerBound(arrivals, window.since);
    let oi = lowerBoundAt(offNodes, window.since);
    let di = 0;
    for (;;) {
      const a = arrivals[ai];
      const o = offNodes[oi];
      const d = own[di];
      const next = Math.min(at(a), at(o), d ? d.time : Number.POSITIVE_INFINITY);
      if (next === Number.POSITIVE_INFINITY) return 'same';
      let verdict: FollowVerdict;
      // a delta pod at time t is tried before the backlog pod at queue place t
      if (d && d.time <= next) verdict = this.delta(own[di++] as Landed);
      else if (a && a.at === next) verdict = this.backlog(arrivals[ai++] as OffNode, a.node, gangsDone);
      else verdict = this.backlog(offNodes[oi++] as OffNode, undefined, gangsDone);
      if (verdict !== 'same') return verdict;
      if (this.replaced > MAX_REPLACED) return 'crowded-window';
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

  /** An untouched node's state at `time`: the base's at `since` plus the base arrivals since then. */
  private baseInput(name: string, time: number): ExistingNodeInput | undefined {
    const input = this.x.inputs.get(name);
    if (!input) return undefined;
    const since = this.x.window.since;
    const pods = (this.x.base.onNode.get(name) ?? [])
      .filter((a) => a.at >= since && a.at < time)
      .map((a) => a.pod);
    return pods.length ? withLoad(input, pods) : input;
  }

  private lose(s: Slot): void {
    if (s.missing++ === 0) insertByIndex(this.lighter, s);
  }

  /** A topology group owns or counts the pod: where it goes changes what others see, or depends on counts. */
  private coupled(s: PodState): boolean {
    const g = this.x.base.groupsOf(s);
    if (g.owned.length > 0 || g.inverse.length > 0) return true;
    return this.groups.some((spec) => selects(spec, s.info));
  }

  // A delta pod goes where the delta's run put it: every node before that one holds at least what it held in the
  // delta's run (the base before the window, plus whatever the window added), so it still rejects the pod —
  // except a node a delta pod the run put there has left. One that no longer fits is followed like a backlog pod
  // when no topology group owns or counts it (a gang member never: its gang's rounds are the run's).
  private delta(d: Landed): FollowVerdict {
    const st = new PodState(d.pod, this.tolerate);
    const free = !d.pod.gang && !this.coupled(st);
    const earlier = free ? this.firstIn(this.deltaLighter, st, this.idx(d.node)) : undefined;
    const s = this.slot(d.node, d.time);
    if (!s) return 'arrival-conflict';
    if (!earlier && placeOnNode(s.node, st) === undefined) {
      this.placedBy.set(d.pod.key, d.node);
      return 'same';
    }
    const to = earlier ?? (free ? this.scanAfter(st, s.index, d.time) : undefined);
    if (!to) return 'arrival-conflict';
    this.placedBy.set(d.pod.key, to.name);
    if (!this.deltaLighter.includes(s)) insertByIndex(this.deltaLighter, s);
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
    const moved = this.firstLighter(state, home === undefined ? Number.POSITIVE_INFINITY : this.idx(home));
    if (moved) return this.moved(state, home, time, moved);
    this.went = home === undefined ? 'claims' : 'node';
    const s = home === undefined ? undefined : this.slots.get(home);
    // untouched: the nodes before it hold what they held in the base, the node itself too
    if (!s || placeOnNode(s.node, state) === undefined) return 'same';
    return this.moved(state, home, time, this.scanAfter(state, s.index, time));
  }

  private moved(
    state: PodState,
    home: string | undefined,
    time: number,
    to: Slot | undefined,
  ): FollowVerdict {
    this.went = to ? 'node' : 'claims';
    if (this.coupled(state) && !this.sameDomains(state, home, to)) return 'topology';
    this.replaced++;
    if (home !== undefined) this.lose(this.slot(home, time) as Slot);
    if ((home === undefined) !== (to === undefined)) this.claimsDiverged = true;
    return 'same';
  }

  // A pod some group owns or counts may still move between two nodes of the same domain for every key of its
  // groups (not the hostname), with the same taints, when every group that counts it is one of its own (a
  // workload's replicas): it sees the counts the base gave it, so the same verdict, and changes no count.
  private sameDomains(state: PodState, home: string | undefined, to: Slot | undefined): boolean {
    const from = home === undefined ? undefined : this.x.inputs.get(home);
    if (!from || !to) return false;
    const g = this.x.base.groupsOf(state);
    const own = new Set([...g.owned, ...g.inverse].map((spec) => spec.hash));
    if (this.groups.some((spec) => selects(spec, state.info) && !own.has(spec.hash))) return false;
    if (JSON.stringify(from.taints) !== JSON.stringify(to.node.input.taints)) return false;
    return [...g.owned, ...g.inverse].every((spec) => {
      const v = from.labels[spec.key];
      return spec.key !== HOSTNAME && v !== undefined && to.node.input.labels[spec.key] === v;
    });
  }

  /** The first node lacking a base pod, before `below`, that takes the pod (placed there). */
  private firstLighter(state: PodState, below: number): Slot | undefined {
    return this.firstIn(this.lighter, state, below);
  }

  private firstIn(slots: readonly Slot[], state: PodState, below: number): Slot | undefined {
    for (const s of slots) {
      if (s.index >= below) break;
      if (fits(state.info.requests, s.node.free()) && placeOnNode(s.node, state) === undefined) return s;
    }
    return undefined;
  }

  /** The first node after `after` in the node order that takes the pod (placed there), as the scheduler walks on. */
  private scanAfter(state: PodState, after: number, time: number): Slot | undefined {
    const existing = this.x.base.input.existing;
    for (let i = after + 1; i < existing.length; i++) {
      const name = (existing[i] as ExistingNodeInput).name;
      let s = this.slots.get(name);
      if (!s) {
        const input = this.x.inputs.get(name);
        // a node too small at `since` only filled up since
        if (!input || !fits(state.info.requests, input.available)) continue;
        if (!fits(state.info.requests, (this.baseInput(name, time) as ExistingNodeInput).available)) continue;
        s = this.slot(name, time) as Slot;
      }
      if (placeOnNode(s.node, state) === undefined) return s;
    }
    return undefined;
  }

  private gang(name: string, time: number): FollowVerdict {
    if (this.slots.size === 0 && !this.claimsDiverged) return 'same';
    const members = (this.x.base.pendingGangs.get(name)?.members ?? []).map(
      (m) => new PodState(m, this.tolerate),
    );
    const record = this.x.base.gangRecord(name);
    const whole = record && record.committed && record.rounds === 1 && record.placed === record.members;
    return whole ? this.replaceGang(members, record, time) : this.untouchedGang(members);
  }

  // A gang the base did not place whole in one round: its rounds and rollback cannot be followed, so it must be
  // the base's — no node that differs can take any member whatever its load, and the claims are the base's.
  private untouchedGang(members: readonly PodState[]): FollowVerdict {
    if (this.claimsDiverged) return 'gang-displaced';
    for (const m of members)
      for (const s of this.slots.values()) {
        const fit = staticFit(s.node.input, labelRequirements(s.node.input.labels), m);
        if (fit.taint === undefined && fit.labels === undefined) return 'gang-displaced';
      }
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
