// The delta simulation (beyond the fork; docs/mechanisms/delta-simulation.md): a candidate's full simulation
// followed from the pass's base solution, only what the candidate changes placed again; it answers only where that
// is provably the full simulation's answer (every moved pod on an existing node), else falls back to it.
import { NODES, ONE_NODE, type ResourceList } from '../model/resources.ts';
import { Journal } from '../scheduling/journal.ts';
import type { NewClaim } from '../scheduling/new-claim.ts';
import { PodState, type PendingPod } from '../scheduling/pod-state.ts';
import { byCpuAndMemoryDescending } from '../scheduling/queue.ts';
import type { Deadline, SchedulingInput } from '../scheduling/scheduler.ts';
import { Topology } from '../scheduling/topology.ts';
import { gangName } from '../state/pods.ts';
import type { PassView } from '../state/scheduling-view.ts';
import { baseSolution, type BaseSolution } from './base-solution.ts';
import { follow } from './delta-follow.ts';
import { destinationGuard } from './destination-guard.ts';
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
  'gang-claim',
  'claim-order',
  'claim-shared',
  'crowded-window',
  'topology',
  'gang-displaced',
  'gang-cloud',
  'volume-alternatives',
  'limits',
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
  // a placement narrows the node with the volume alternative it took, which the base's replay does not carry
  if (own.some(hasAlternatives) || backlogHasAlternatives(ctx, view)) return fallback('volume-alternatives');
  return simulateDelta(ctx, view, base, c, own, deadline);
}

const hasAlternatives = (p: PendingPod): boolean => p.volumeAlternatives !== undefined;
const alternativesMemo = new WeakMap<PassView, boolean>();
function backlogHasAlternatives(ctx: PassContext, view: PassView): boolean {
  let known = alternativesMemo.get(view);
  if (known === undefined) alternativesMemo.set(view, (known = ctx.backlog(view).some(hasAlternatives)));
  return known;
}

interface Timed {
  readonly pod: PendingPod;
  readonly state: PodState;
  readonly time: number;
  readonly kind: 'own' | 'backlog';
}

// The full simulation of the candidate, followed from the base instead of run (docs/mechanisms/delta-simulation.md):
// its nodes and its topology before the first placement, then every pod up to the candidate's last in queue order.
function simulateDelta(
  ctx: PassContext,
  view: PassView,
  base: BaseSolution,
  c: Candidate,
  own: readonly PendingPod[],
  deadline: Deadline | undefined,
): DeltaOutcome {
  const moved = movedPods(base, c, own);
  const until = Math.max(...moved.filter((m) => m.kind === 'own').map((m) => m.time));
  // the full simulation is a consolidation's: its destinations are guarded (destination-guard.ts)
  const input = ctx.timed('simulation', () =>
    view.input([...ctx.backlog(view), ...own], new Set([c.name, ...ctx.expired]), destinationGuard(ctx)),
  );
  // freed of the candidate, its pool's limits leave more than the base's: exact only if they never bound there
  if (!sameLimits(base, input)) return fallback('limits');
  const { verdict, nodes, claims, replaced } = ctx.timed('simulation', () => {
    const journal = new Journal();
    const live = liveTopology(input, base, moved, journal);
    // a gang's members leave the queue together, in the queue's order
    const delta = [...moved].sort((x, y) => x.time - y.time || byCpuAndMemoryDescending(x.state, y.state));
    return follow({
      base,
      until,
      candidate: { name: c.name, labels: c.node.labels },
      inputs: new Map(input.existing.map((e) => [e.name, e])),
      live,
      delta,
      moved: new Set(moved.map((m) => m.pod.key)),
      deadline,
      journal,
    });
  });
  // cut off by the candidate's budget: no verdict, like a full simulation its deadline stopped
  if (verdict === 'timed-out') return decided(TIMED_OUT);
  if (verdict !== 'same') return fallback(verdict);
  ctx.deltaReplaced.push(replaced);
  return certify(base, moved, nodes, claims);
}

/**
 * Whether the full simulation's NodePool limits decide every claim as the base's did: they are the base's, or the
 * pools they free (the candidate's, as SimulateScheduling leaves it out) never bound in the base — with every type
 * of the pool within the least the base had left and a node to spare, they never filtered a type or refused a
 * claim, and with more left they do not in the full simulation either.
 */
function sameLimits(base: BaseSolution, input: SchedulingInput): boolean {
  if (input.remaining === base.input.remaining) return true;
  for (const [pool, full] of input.remaining) {
    const was = base.input.remaining.get(pool);
    if (was && sameList(was, full)) continue;
    const after = base.remainingAfter.get(pool);
    const template = base.input.templates.find((t) => t.nodePool === pool);
    if (!after || !template) return false;
    if ((after[NODES] ?? Number.POSITIVE_INFINITY) < ONE_NODE) return false;
    for (const it of template.instanceTypes)
      for (const k in after) if (k !== NODES && (it.capacity[k] ?? 0) > (after[k] as number)) return false;
  }
  return true;
}

function sameList(a: ResourceList, b: ResourceList): boolean {
  for (const k in a) if (a[k] !== b[k]) return false;
  for (const k in b) if (!(k in a)) return false;
  return true;
}

/** The full simulation's topology before its first placement: every pending pod's groups, the candidate's too. */
function liveTopology(
  input: SchedulingInput,
  base: BaseSolution,
  moved: readonly Timed[],
  journal: Journal,
): Topology {
  const own = moved.filter((m) => m.kind === 'own').map((m) => m.state);
  // the backlog's groups come from the pass's template, read per pod only where the follow asks
  const same = base.input.namespaces === input.namespaces && base.input.bound === input.bound;
  const pending = same
    ? own
    : [...base.arrivals.map((a) => a.state), ...base.offNodes.map((o) => o.state), ...own];
  return new Topology(
    input.universe,
    input.namespaces,
    input.bound,
    pending,
    topologyOptions(base),
    journal,
    input.topologyShare,
    same ? backlogTopology(base) : undefined,
  );
}

const topologyOptions = (base: BaseSolution) => ({
  reachableDomainsOnly: base.options.reachableDomainsOnly,
  allowUndefined: base.options.allowUndefined,
});

const templates = new WeakMap<BaseSolution, Topology>();

/** The backlog's topology before any placement, built once per base (docs/mechanisms/delta-simulation.md). */
function backlogTopology(base: BaseSolution): Topology {
  let t = templates.get(base);
  if (!t) {
    const states = [...base.arrivals.map((a) => a.state), ...base.offNodes.map((o) => o.state)];
    t = new Topology(
      base.input.universe,
      base.input.namespaces,
      base.input.bound,
      states,
      topologyOptions(base),
      new Journal(),
      base.input.topologyShare,
    );
    templates.set(base, t);
  }
  return t;
}

function certify(
  base: BaseSolution,
  moved: readonly Timed[],
  nodeOf: ReadonlyMap<string, string>,
  claimOf: ReadonlyMap<string, NewClaim>,
): DeltaOutcome {
  const unscheduled = new Map<string, string>();
  for (const m of moved) {
    const host = base.stateNodes.get(nodeOf.get(m.pod.key) ?? '');
    // the same rule as the full simulation: disruption never relies on capacity that has not initialized
    if (m.kind === 'own' && host && (host.inFlight || (host.managed && !host.initialized)))
      unscheduled.set(m.pod.key, `would schedule against uninitialized ${host.name}`);
  }
  // attribution (docs/mechanisms/attribution.md): the claims hosting a candidate's pod, as the full simulation
  // leaves them — no pod after the delta's last can join them (delta-claims.ts)
  const own = new Set(moved.filter((m) => m.kind === 'own').map((m) => m.pod.key));
  const replacements: NewClaim[] = [];
  for (const [key, c] of claimOf) if (own.has(key) && !replacements.includes(c)) replacements.push(c);
  return decided({ unscheduled, replacements, allClaims: replacements, timedOut: false });
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
    timed.push({ pod, state: base.stateOf(pod.key) ?? new PodState(pod, tolerate), time, kind: 'backlog' });
  };
  for (const a of base.onNode.get(c.name) ?? []) {
    if (a.at >= until) continue; // displaced only after every pod of the command is placed: no matter
    const gang = a.pod.gang ? base.pendingGangs.get(a.pod.gang.name) : undefined;
    if (gang) for (const member of gang.members) take(member, a.at);
    else take(a.pod, a.at);
  }
  return timed;
}
