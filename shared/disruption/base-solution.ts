// The pass's base solution for the delta simulation (docs/mechanisms/delta-simulation.md): the pending backlog
// solved once against the whole cluster, as the provisioner would, with the queue place at which the scheduler's
// first pass decides each pod (a gang at its first member's) and what that pass did with it.
import type { ResourceList } from '../model/resources.ts';
import { PodState, type PendingPod } from '../scheduling/pod-state.ts';
import { byCpuAndMemoryDescending } from '../scheduling/queue.ts';
import {
  solve,
  type Deadline,
  type SchedulingInput,
  type SchedulingOptions,
  type SchedulingResult,
} from '../scheduling/scheduler.ts';
import type { GangRecord } from '../scheduling/gang-record.ts';
import type { NewClaim } from '../scheduling/new-claim.ts';
import type { Topology } from '../scheduling/topology.ts';
import type { PassView } from '../state/scheduling-view.ts';
import type { StateNode } from '../state/snapshot.ts';
import { watchClaims, type ClaimAt, type OrderEvent } from './base-claims.ts';
import type { PassContext } from './pass-context.ts';

/** A backlog pod the base put on an existing node during the scheduler's first pass. */
export interface Arrival {
  readonly pod: PendingPod;
  readonly state: PodState;
  readonly at: number;
  readonly node: string;
}

/** A backlog pod the base's first pass did not put on an existing node (a claim, a retry, or nowhere). */
export interface OffNode {
  readonly pod: PendingPod;
  readonly state: PodState;
  readonly at: number;
}

/** One count a backlog pod's first-pass placement recorded in the base (net of trial placements rolled back). */
export interface Count {
  readonly group: string;
  readonly domain: string;
  readonly delta: number;
}

/** When a backlog pod is decided (`decided`) and, if its first pass placed it, when it lands (`placed`). */
interface Timed {
  readonly key: string;
  readonly decided: number;
  readonly placed: number;
  /** The existing node the first pass put it on, if any. */
  readonly node: string | undefined;
}

export interface BaseSolution {
  readonly options: SchedulingOptions;
  /** The scheduler input of the base (every schedulable node but the expired ones). */
  readonly input: SchedulingInput;
  /** First-pass placements on existing nodes, by time. */
  readonly arrivals: readonly Arrival[];
  /** Backlog pods whose first attempt tried every existing node and took none, by time. */
  readonly offNodes: readonly OffNode[];
  readonly onNode: ReadonlyMap<string, readonly Arrival[]>;
  /** Position of each schedulable node in the scheduler's node order. */
  readonly nodeIndex: ReadonlyMap<string, number>;
  /** The pass's nodes and in-flight claims by name. */
  readonly stateNodes: ReadonlyMap<string, StateNode>;
  /** Gangs (namespace/name) with members in the backlog: the members, and when the gang is decided. */
  readonly pendingGangs: ReadonlyMap<
    string,
    { readonly at: number; readonly members: readonly PendingPod[] }
  >;
  /** How many base pods precede `p` in the scheduler's queue: the time `p` would be decided at. */
  timeOf(p: PodState): number;
  /** The base's state of a backlog pod (shared: the follow reads it, never relaxes it). */
  stateOf(key: string): PodState | undefined;
  /** The pending gang a backlog pod belongs to. */
  gangOf(key: string): string | undefined;
  /** The least each limited NodePool had left at any point of the base (the scheduler's leastRemaining). */
  readonly remainingAfter: ReadonlyMap<string, ResourceList>;
  /** How the scheduler placed a pending gang, with the NodePool limits left just before it. */
  gangRecord(gang: string): GangRecord | undefined;
  /** The existing node the first pass put a backlog pod on, if it did. */
  nodeOf(key: string): string | undefined;
  /**
   * The base's topology (its groups, its domain universe, the fork's reach rule) and, per group id, its counts
   * before any placement: with each pod's own counts below, the counts of any group at any queue place.
   */
  readonly topology: Topology;
  initialCounts(group: string): ReadonlyMap<string, number> | undefined;
  /** What a backlog pod's first-pass placement recorded in each group (none for a pod the first pass did not place). */
  countsOf(key: string): readonly Count[];
  /** The base's claims as they stood at queue place `t` (opened before it), in the order they were opened. */
  claimsAt(t: number): readonly ClaimAt[];
  /**
   * The scheduler's claim-order events (load-order.ts) before queue place `t`, in run order: an undo that disturbed
   * the order (`dirty`) and the re-sort that follows at the next pod to reach the claims (`resorted`).
   */
  orderEvents(from: number, t: number): readonly OrderEvent[];
  /** The claim the first pass put a backlog pod on, if it did. */
  claimOf(key: string): NewClaim | undefined;
  /**
   * Backlog pods the full simulation may still try on a claim after a delta pod at queue place `t`: those decided
   * at or after it, and those the base retried (a retry comes after every first attempt).
   */
  triedAfter(t: number): Iterable<TriedLater>;
}

/** A backlog pod that may try a claim later, when it is decided, and whether the base retried it. */
export interface TriedLater {
  readonly state: PodState;
  readonly at: number;
  readonly retried: boolean;
}

const memo = new WeakMap<PassView, BaseSolution>();

/**
 * The base solution of this pass's view, solved on first use; undefined when `deadline` cut the solve short
 * (a partial base is never kept, so a later candidate with a budget left solves it again).
 */
export function baseSolution(
  ctx: PassContext,
  view: PassView,
  deadline?: Deadline,
): BaseSolution | undefined {
  let base = memo.get(view);
  if (!base) {
    base = ctx.timed('simulation', () => solveBase(ctx, view, deadline));
    if (base) memo.set(view, base);
  }
  return base;
}

function solveBase(ctx: PassContext, view: PassView, deadline?: Deadline): BaseSolution | undefined {
  const options = ctx.schedulingOptions(view);
  const backlog = ctx.backlog(view);
  const input = view.input(backlog, ctx.expired);
  const gangRecords = new Map<string, GangRecord>();
  const watch = watchCounts();
  const claims = watchClaims();
  const result = solve(
    {
      ...input,
      onGang: (r) => gangRecords.set(r.gang, r),
      onTopology: watch.attach,
      ...claims.observers,
    },
    options,
    deadline,
  );
  const topology = watch.detach();
  if (result.timedOut || !topology) return undefined;
  const byPod = watch.netted();
  const states = backlog
    .map((p) => new PodState(p, options.toleratePreferNoSchedule))
    .sort(byCpuAndMemoryDescending);
  const gangs = queuedGangs(states);
  const { timed, arrivals, offNodes } = queuePlaces(states, gangs, result);
  const onNode = byNode(arrivals);
  const nodeIndex = new Map(input.existing.map((e, i) => [e.name, i]));
  const stateByKey = new Map(states.map((st) => [st.key, st]));
  const history = claims.history(result, (key) => (timed.get(key) as Timed).decided);
  const gangOfPod = new Map<string, string>();
  for (const [name, g] of gangs) for (const m of g.members) gangOfPod.set(m.key, name);
  return {
    options,
    input,
    arrivals,
    offNodes,
    onNode,
    nodeIndex,
    stateNodes: new Map([...view.snapshot.nodes, ...view.snapshot.inFlight].map((n) => [n.name, n])),
    pendingGangs: gangs,
    timeOf: (p) => precedingCount(states, p),
    stateOf: (key) => stateByKey.get(key),
    gangOf: (key) => gangOfPod.get(key),
    remainingAfter: result.leastRemaining,
    gangRecord: (gang) => gangRecords.get(gang),
    nodeOf: (key) => timed.get(key)?.node,
    topology,
    initialCounts: (group) => watch.initial.get(group),
    countsOf: (key) => (result.requeued.has(key) ? NO_COUNTS : (byPod.get(key) ?? NO_COUNTS)),
    claimsAt: history.claimsAt,
    orderEvents: history.orderEvents,
    claimOf: (key) => {
      const p = result.placements.get(key);
      return p?.kind === 'new' && !result.requeued.has(key) ? p.claim : undefined;
    },
    triedAfter: function* (t) {
      for (const st of states) {
        const at = timed.get(st.key) as Timed;
        const retried = result.requeued.has(st.key);
        if (at.decided >= t || retried) yield { state: st, at: at.decided, retried };
      }
    },
  };
}

const NO_COUNTS: readonly Count[] = [];

/** Pending gangs by name, in queue order: a gang is placed as a unit when its first member leaves the queue. */
function queuedGangs(states: readonly PodState[]): Map<string, { at: number; members: PendingPod[] }> {
  const gangs = new Map<string, { at: number; members: PendingPod[] }>();
  states.forEach((s, i) => {
    const g = s.info.gang?.name;
    if (g === undefined) return;
    const entry = gangs.get(g);
    if (entry) entry.members.push(s.info);
    else gangs.set(g, { at: i, members: [s.info] });
  });
  return gangs;
}

/** Each backlog pod's queue place and what the scheduler's first pass did with it, by time. */
function queuePlaces(
  states: readonly PodState[],
  gangs: ReadonlyMap<string, { readonly at: number }>,
  result: SchedulingResult,
): { timed: Map<string, Timed>; arrivals: Arrival[]; offNodes: OffNode[] } {
  const timed = new Map<string, Timed>();
  const arrivals: Arrival[] = [];
  const offNodes: OffNode[] = [];
  states.forEach((s, i) => {
    const decided = s.info.gang ? (gangs.get(s.info.gang.name)?.at ?? i) : i;
    const placement = result.placements.get(s.key);
    const firstPass = placement !== undefined && !result.requeued.has(s.key);
    timed.set(s.key, {
      key: s.key,
      decided,
      placed: firstPass ? decided : Number.POSITIVE_INFINITY,
      node: firstPass && placement.kind === 'existing' ? placement.node : undefined,
    });
    if (firstPass && placement.kind === 'existing')
      arrivals.push({ pod: s.info, state: s, at: decided, node: placement.node });
    else offNodes.push({ pod: s.info, state: s, at: decided });
  });
  arrivals.sort((a, b) => a.at - b.at);
  offNodes.sort((a, b) => a.at - b.at);
  return { timed, arrivals, offNodes };
}

function byNode(arrivals: readonly Arrival[]): Map<string, Arrival[]> {
  const onNode = new Map<string, Arrival[]>();
  for (const a of arrivals) {
    const list = onNode.get(a.node) ?? [];
    list.push(a);
    onNode.set(a.node, list);
  }
  return onNode;
}

/**
 * Watches the base's topology: its counts before the first placement, and every count each placement adds or a
 * rollback takes back, netted per pod (a pod's counts are recorded when it is placed, so a group's count at a
 * queue place is its initial count plus the counts of the pods placed before it).
 */
function watchCounts() {
  let topology: Topology | undefined;
  const initial = new Map<string, ReadonlyMap<string, number>>();
  // pod → group → domain → net count (group ids and domains may hold any character: no joined keys)
  const raw = new Map<string, Map<string, Map<string, number>>>();
  return {
    initial,
    attach(t: Topology): void {
      topology = t;
      for (const [id] of t.groupKeys()) initial.set(id, new Map(t.countsOf(id)));
      t.onCount = (pod, group, domain, delta) => {
        let byGroup = raw.get(pod);
        if (!byGroup) raw.set(pod, (byGroup = new Map()));
        let m = byGroup.get(group);
        if (!m) byGroup.set(group, (m = new Map()));
        m.set(domain, (m.get(domain) ?? 0) + delta);
      };
    },
    detach(): Topology | undefined {
      if (topology) topology.onCount = undefined;
      return topology;
    },
    netted(): Map<string, Count[]> {
      const out = new Map<string, Count[]>();
      for (const [pod, byGroup] of raw) {
        const list: Count[] = [];
        for (const [group, m] of byGroup)
          for (const [domain, delta] of m) if (delta !== 0) list.push({ group, domain, delta });
        if (list.length) out.set(pod, list);
      }
      return out;
    },
  };
}

/** Binary search in the sorted queue: pods that the scheduler would pop before `p`. */
function precedingCount(sorted: readonly PodState[], p: PodState): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (byCpuAndMemoryDescending(sorted[mid] as PodState, p) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
