// The delta simulation (beyond the fork; docs/mechanisms/delta-simulation.md): instead of solving the whole
// backlog again for every candidate, place only what the candidate changes — its pods, and the backlog pods the
// base solution had put on it — against the base state as it stood when the first of them would be scheduled.
// It answers only where that answer is provably the full simulation's: every moved pod lands on an existing
// node on its first attempt, every backlog pod placed meanwhile on one of those nodes still fits beside them, and
// no topology group or gang couples them to the backlog. Anything else falls back to the full simulation.
import { PodState, type PendingPod } from '../scheduling/pod-state.ts';
import { solve, type Deadline } from '../scheduling/scheduler.ts';
import { HOSTNAME } from '../model/labels.ts';
import { gangName } from '../state/pods.ts';
import type { PassView } from '../state/scheduling-view.ts';
import { baseSolution, type BaseSolution } from './base-solution.ts';
import { topologyCoupled, type Moved } from './delta-coupling.ts';
import { follow, type FollowVerdict, type Landed } from './delta-follow.ts';
import { landedOnNodes, loadedAt } from './delta-window.ts';
import type { PassContext } from './pass-context.ts';
import { deletingPods, movesOnEviction, type Simulation } from './simulate-candidates.ts';
import type { Candidate } from './types.ts';

/** Why the delta left a candidate to the full simulation. */
export const DELTA_FALLBACKS = [
  'off',
  'not-single',
  'deleting-pods',
  'no-backlog',
  'gang',
  'needs-claim',
  'crowded-window',
  'arrival-conflict',
  'queue-tie',
  'topology',
  'gang-displaced',
] as const;
export type DeltaFallback = (typeof DELTA_FALLBACKS)[number];

export type DeltaOutcome =
  | { readonly kind: 'decided'; readonly simulation: Simulation }
  | { readonly kind: 'fallback'; readonly reason: DeltaFallback };

/** A simulation the deadline cut short: it decides nothing (computeConsolidation answers a timed-out no-op). */
const TIMED_OUT: Simulation = { unscheduled: new Map(), replacements: [], allClaims: [], timedOut: true };
const fallback = (reason: DeltaFallback): DeltaOutcome => ({ kind: 'fallback', reason });
const decided = (simulation: Simulation): DeltaOutcome => ({ kind: 'decided', simulation });

/** The candidate's simulation from its delta, or undefined when only the full simulation can tell. */
export function deltaSimulation(
  ctx: PassContext,
  candidates: readonly Candidate[],
  held: readonly Candidate[],
  deadline?: Deadline,
): Simulation | undefined {
  const outcome = deltaOutcome(ctx, candidates, held, deadline);
  const tally =
    outcome.kind === 'fallback' ? outcome.reason : outcome.simulation.timedOut ? 'timed-out' : 'decided';
  if (tally !== 'off') ctx.deltaOutcomes[tally] = (ctx.deltaOutcomes[tally] ?? 0) + 1;
  return outcome.kind === 'decided' ? outcome.simulation : undefined;
}

export function deltaOutcome(
  ctx: PassContext,
  candidates: readonly Candidate[],
  held: readonly Candidate[],
  deadline?: Deadline,
): DeltaOutcome {
  const o = ctx.options;
  // attribution is what makes backlog claims none of the command's business
  if (!o.deltaSimulation || !o.attributeReplacements) return fallback('off');
  // held candidates and several candidates would each need a base of their own
  if (candidates.length !== 1 || held.length > 0) return fallback('not-single');
  const moving = movesOnEviction(ctx);
  if (deletingPods(ctx, moving).length > 0) return fallback('deleting-pods');
  const view = ctx.view();
  // with nothing pending the full simulation already schedules only the candidate's pods: a base saves nothing
  if (ctx.backlog(view).length === 0) return fallback('no-backlog');
  const base = baseSolution(ctx, view, deadline);
  // a base cut off by the candidate's budget is not kept: the candidate reaches no verdict, like a full one would
  if (!base) return decided(TIMED_OUT);
  const c = candidates[0] as Candidate;
  const own = c.reschedulable.filter(moving).map((p) => view.pendingPod(p));
  if (own.length === 0)
    return decided({ unscheduled: new Map(), replacements: [], allClaims: [], timedOut: false });
  // a running gang with members still pending is placed by the full simulation as one unit
  const pendingMates = (p: Candidate['pods'][number]) => {
    const g = gangName(p);
    return g !== undefined && base.pendingGangs.has(`${p.metadata.namespace ?? 'default'}/${g}`);
  };
  if (c.pods.some(pendingMates)) return fallback('gang');
  return simulateDelta(ctx, view, base, c, own, deadline);
}

/** Backlog pods the second round replays at most (docs/mechanisms/delta-simulation.md, point 3). */
export const MAX_REPLAYED = 32;

interface Timed {
  readonly pod: PendingPod;
  readonly state: PodState;
  readonly time: number;
  readonly kind: 'own' | 'backlog';
}

function simulateDelta(
  ctx: PassContext,
  view: PassView,
  base: BaseSolution,
  c: Candidate,
  own: readonly PendingPod[],
  deadline: Deadline | undefined,
): DeltaOutcome {
  const moved = movedPods(base, c, own);
  const window = {
    since: Math.min(...moved.map((m) => m.time)),
    until: Math.max(...moved.filter((m) => m.kind === 'own').map((m) => m.time)),
    candidate: c.name,
  };
  const ownGroups = moved
    .filter((m) => m.kind === 'own')
    .flatMap((m) => {
      const g = base.groupsOf(m.state);
      return [...g.owned, ...g.inverse];
    });
  let replayed: Timed[] = [];
  // why the window could not be followed: what a replay too long to run is reported as
  let crowded: Exclude<FollowVerdict, 'same' | 'topology'> = 'crowded-window';
  // First the delta alone, the window's backlog pods followed pod by pod; if one of them takes a delta pod's
  // node first, once more with those backlog pods replayed, pinned to their base nodes, at their queue places.
  for (let round = 0; round < 2; round++) {
    const pods = [...moved, ...replayed];
    const run = runDelta(ctx, view, base, pods, window, deadline);
    if (run.result.timedOut) return decided(TIMED_OUT);
    // a moved pod headed for a claim would meet the base's claims in the full simulation: that needs the full one
    const landed = landedOnNodes(
      run.result,
      pods.map((m) => m.pod),
    );
    // in the second round this is mostly a pinned backlog pod the delta displaced from its base node: the full
    // simulation would send it elsewhere, which pinning cannot express (docs/mechanisms/delta-simulation.md)
    if (!landed) return fallback(round === 0 ? 'needs-claim' : 'arrival-conflict');
    const inputs = new Map(run.input.existing.map((e) => [e.name, e]));
    const skip = new Set(pods.map((p) => p.pod.key));
    const { verdict, nodes } = follow({
      base,
      window,
      inputs,
      landed: timedLandings(pods, landed),
      moved: skip,
      ownGroups,
    });
    if (verdict === 'same') return certify(base, view, c, moved, skip, nodes, inputs, window.until);
    if (verdict === 'topology' || round === 1) return fallback(verdict);
    crowded = verdict;
    const reach = Math.max(...[...landed.keys()].map((n) => base.nodeIndex.get(n) ?? -1));
    const pins = replayable(base, window, skip, reach, moved);
    // a replayed gang member would share its queue place with another pod: the order between them is the name's
    if (!pins) return fallback('queue-tie');
    // a long replay is a crowded window: it has never certified (ramp-3400 at 3,400 pending replays 370 pods on
    // average and fails every time), and running it only delays the full simulation
    if (pins.length > MAX_REPLAYED) return fallback(crowded);
    replayed = pins;
  }
  return fallback('arrival-conflict');
}

/** Each moved pod with its queue time and the node the delta's run put it on. */
function timedLandings(
  moved: readonly Pick<Timed, 'pod' | 'time'>[],
  landed: ReadonlyMap<string, readonly PendingPod[]>,
): Landed[] {
  const nodeOf = new Map<string, string>();
  for (const [node, pods] of landed) for (const p of pods) nodeOf.set(p.key, node);
  return moved.map((m) => ({ pod: m.pod, time: m.time, node: nodeOf.get(m.pod.key) ?? '' }));
}

function runDelta(
  ctx: PassContext,
  view: PassView,
  base: BaseSolution,
  pods: readonly Pick<Timed, 'pod'>[],
  window: { readonly since: number; readonly candidate: string },
  deadline: Deadline | undefined,
) {
  // one stage for the whole delta: its construction is a small part of it
  return ctx.timed('simulation', () => {
    const i = view.input(
      pods.map((m) => m.pod),
      new Set([window.candidate, ...ctx.expired]),
    );
    const input = { ...i, existing: loadedAt(i.existing, base.arrivals, window.since, window.candidate) };
    return { input, result: solve(input, base.options, deadline) };
  });
}

/**
 * Backlog pods placed in the window on nodes up to `reach`, pinned to their base node. A gang member is replayed
 * on its own at the place of its gang's first member (when its gang is placed); undefined if another pod shares
 * exactly that place, since the queue would then order them by name.
 */
function replayable(
  base: BaseSolution,
  window: { readonly since: number; readonly until: number; readonly candidate: string },
  skip: ReadonlySet<string>,
  reach: number,
  moved: readonly Timed[],
): Timed[] | undefined {
  const out: Timed[] = [];
  const replay = (pod: PendingPod, time: number) =>
    out.push({ pod, state: new PodState(pod, base.options.toleratePreferNoSchedule), time, kind: 'backlog' });
  const gangOrders = new Set<string>();
  for (const a of base.arrivals) {
    if (a.at < window.since || a.node === window.candidate || skip.has(a.pod.key)) continue;
    if (a.at >= window.until) break;
    if ((base.nodeIndex.get(a.node) ?? Number.POSITIVE_INFINITY) > reach) continue;
    const hostname = base.stateNodes.get(a.node)?.labels[HOSTNAME] ?? a.node;
    const spec = {
      ...a.pod.pod.spec,
      nodeSelector: { ...a.pod.pod.spec.nodeSelector, [HOSTNAME]: hostname },
    };
    const pinned = { ...a.pod, pod: { ...a.pod.pod, spec } };
    const leader = a.pod.gang ? base.pendingGangs.get(a.pod.gang.name)?.members[0] : undefined;
    if (!leader) replay(pinned, a.at);
    else {
      replay({ ...pinned, gang: undefined, order: leader.order }, a.at);
      gangOrders.add(orderKey(leader));
    }
  }
  const singles = [...moved, ...out].map((m) => m.pod).filter((p) => !p.gang && !isGangReplay(p, base));
  if (singles.some((p) => gangOrders.has(orderKey(p)))) return undefined;
  return out;
}

const orderKey = (p: PendingPod) => `${p.order.cpu}\u0000${p.order.memory}\u0000${p.order.created}`;
/** A replayed gang member (its gang dropped, its place the gang's). */
const isGangReplay = (p: PendingPod, base: BaseSolution) => base.gangOf(p.key) !== undefined;

function certify(
  base: BaseSolution,
  view: PassView,
  c: Candidate,
  moved: readonly Timed[],
  replayed: ReadonlySet<string>,
  nodeOf: ReadonlyMap<string, string>,
  inputs: ReadonlyMap<string, { readonly labels: Readonly<Record<string, string>> }>,
  until: number,
): DeltaOutcome {
  const coupled = topologyCoupled({
    base,
    namespaces: view.namespaces,
    from: c.node.labels,
    bound: c.pods,
    moved: moved.map((m): Moved => ({
      state: m.state,
      time: m.time,
      kind: m.kind,
      node: nodeOf.get(m.pod.key) ?? '',
      to: inputs.get(nodeOf.get(m.pod.key) ?? '')?.labels ?? {},
    })),
    replayed,
    until,
  });
  if (coupled) return fallback('topology');
  const unscheduled = new Map<string, string>();
  for (const m of moved) {
    const host = base.stateNodes.get(nodeOf.get(m.pod.key) ?? '');
    // the same rule as the full simulation: disruption never relies on capacity that has not initialized
    if (m.kind === 'own' && host && (host.inFlight || (host.managed && !host.initialized)))
      unscheduled.set(m.pod.key, `would schedule against uninitialized ${host.name}`);
  }
  // every moved pod is on an existing node: the delta opened no claim, so nothing is a replacement
  return decided({ unscheduled, replacements: [], allClaims: [], timedOut: false });
}

/**
 * The candidate's pods and the backlog pods decided on the candidate before the last of them (a gang member
 * brings its whole gang: it moves with its gang or not at all), with the time each is decided.
 */
function movedPods(base: BaseSolution, c: Candidate, own: readonly PendingPod[]): Timed[] {
  const tolerate = base.options.toleratePreferNoSchedule;
  const mine = own.map((pod) => {
    const state = new PodState(pod, tolerate);
    return { pod, state, time: base.timeOf(state), kind: 'own' as const };
  });
  // a gang leaves the queue as one, when its first member is popped
  const gangTime = new Map<string, number>();
  for (const m of mine) {
    const g = m.pod.gang?.name;
    if (g !== undefined) gangTime.set(g, Math.min(gangTime.get(g) ?? m.time, m.time));
  }
  const timed: Timed[] = mine.map((m) => {
    const g = m.pod.gang?.name;
    return g === undefined ? m : { ...m, time: gangTime.get(g) ?? m.time };
  });
  const until = Math.max(...timed.map((m) => m.time));
  const taken = new Set<string>();
  const take = (pod: PendingPod, time: number) => {
    if (taken.has(pod.key)) return;
    taken.add(pod.key);
    timed.push({ pod, state: new PodState(pod, tolerate), time, kind: 'backlog' });
  };
  for (const a of base.onNode.get(c.name) ?? []) {
    if (a.at >= until) continue; // displaced only after every pod of the command is placed: no matter
    const gang = a.pod.gang ? base.pendingGangs.get(a.pod.gang.name) : undefined;
    if (gang) for (const member of gang.members) take(member, a.at);
    else take(a.pod, a.at);
  }
  return timed;
}
