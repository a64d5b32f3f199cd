// One disruption simulation (Karpenter's SimulateScheduling): the pending backlog plus the pods that must move
// (the candidates', those of held proposals, those of nodes already deleting) scheduled onto every other node
// and new claims. Every moving pod must land, and not on an uninitialized node. With replacement attribution
// (docs/mechanisms/attribution.md) only claims hosting a candidate's pod are the command's.
import { podKey, type Pod } from '../model/pod.ts';
import type { NewClaim } from '../scheduling/new-claim.ts';
import type { DestinationGuard } from '../scheduling/nodes.ts';
import { solve, type Deadline } from '../scheduling/scheduler.ts';
import type { ClusterSnapshot, StateNode } from '../state/snapshot.ts';
import type { PassContext } from './pass-context.ts';
import { doNotDisruptActive, isReschedulable } from './pod-rules.ts';
import type { Candidate } from './types.ts';

export interface Simulation {
  /** Moving pods that could not be placed (or only on an uninitialized node), with the scheduler's reason. */
  readonly unscheduled: ReadonlyMap<string, string>;
  /** The claims the command owns: attributed ones, or every claim the simulation opened (upstream). */
  readonly replacements: readonly NewClaim[];
  /** Every claim the simulation opened (backlog included). */
  readonly allClaims: readonly NewClaim[];
  /** The deadline passed inside the solve: the simulation is incomplete and decides nothing. */
  readonly timedOut: boolean;
}

/** IsCurrentlyReschedulable: pods that will not actually be evicted get no capacity. */
export function movesOnEviction(ctx: PassContext): (p: Pod) => boolean {
  const pdbs = ctx.pdbs();
  return (p) => isReschedulable(p) && !doNotDisruptActive(p, ctx.now) && !pdbs.fullyBlocked(p);
}

/** Pods of nodes being deleted anyway (marked, or expired this pass): they need homes in every simulation. */
export function deletingPods(ctx: PassContext, moving: (p: Pod) => boolean): Pod[] {
  // upstream reads cluster state per candidate, as Karpenter's SimulateScheduling does
  if (ctx.options.upstream)
    return ctx.snapshot.nodes
      .filter((n) => n.markedForDeletion || ctx.expired.has(n.name))
      .flatMap((n) => n.pods.filter(moving));
  const { marked, indexOf } = deletionIndex(ctx.snapshot);
  // in node order, as a scan of the snapshot would list them
  const at = new Set(marked);
  for (const name of ctx.expired) {
    const i = indexOf.get(name);
    if (i !== undefined) at.add(i);
  }
  const nodes = ctx.snapshot.nodes;
  return [...at].sort((x, y) => x - y).flatMap((i) => (nodes[i] as StateNode).pods.filter(moving));
}

// A snapshot's marked nodes never change (marking makes a new snapshot): found once, not by a scan per simulation.
const deletionMemo = new WeakMap<
  ClusterSnapshot,
  { readonly marked: readonly number[]; readonly indexOf: ReadonlyMap<string, number> }
>();
function deletionIndex(snapshot: ClusterSnapshot) {
  let d = deletionMemo.get(snapshot);
  if (!d) {
    const marked: number[] = [];
    snapshot.nodes.forEach((n, i) => n.markedForDeletion && marked.push(i));
    deletionMemo.set(snapshot, (d = { marked, indexOf: new Map(snapshot.nodes.map((n, i) => [n.name, i])) }));
  }
  return d;
}

// Every simulation of a pass looks placements up on the same snapshot: its name index is built once.
const byNameMemo = new WeakMap<ClusterSnapshot, ReadonlyMap<string, StateNode>>();
function nodesByName(snapshot: ClusterSnapshot): ReadonlyMap<string, StateNode> {
  let m = byNameMemo.get(snapshot);
  if (!m)
    byNameMemo.set(
      snapshot,
      (m = new Map([...snapshot.nodes, ...snapshot.inFlight].map((n) => [n.name, n]))),
    );
  return m;
}

/**
 * `guard`: a consolidation's simulation keeps the moving pods off nodes under consolidateAfter
 * (destination-guard.ts); drift's does not (Karpenter's drift simulates without IsConsolidationSimulation).
 */
export function simulateCandidates(
  ctx: PassContext,
  candidates: readonly Candidate[],
  held: readonly Candidate[] = [],
  deadline?: Deadline,
  guard?: DestinationGuard,
): Simulation {
  const view = ctx.view();
  const { snapshot } = ctx;
  const moving = movesOnEviction(ctx);
  const own = candidates.flatMap((c) => c.reschedulable.filter(moving));
  const others = held.flatMap((c) => c.reschedulable.filter(moving));
  // Expired nodes are being deleted by the expiration controller: their pods need homes too.
  const deleting = deletingPods(ctx, moving);
  const movingPods = ctx.timed('pod-gather', () =>
    [...own, ...others, ...deleting].map((p) => view.pendingPod(p)),
  );
  const pods = ctx.relevantBacklog(view, ctx.backlog(view), movingPods);
  pods.push(...movingPods);
  const excluded = new Set([...candidates.map((c) => c.name), ...held.map((c) => c.name), ...ctx.expired]);
  const input = ctx.timed('construction', () => view.input(pods, excluded, guard));
  const result = ctx.timed('simulation', () => solve(input, ctx.schedulingOptions(view), deadline));

  const unscheduled = new Map<string, string>();
  const deletingKeys = new Set(deleting.map(podKey));
  const byName = nodesByName(snapshot);
  for (const p of [...own, ...others, ...deleting]) {
    const key = podKey(p);
    const placement = result.placements.get(key);
    if (!placement) {
      unscheduled.set(key, result.errors.get(key) ?? 'not placed');
      continue;
    }
    // Disruption never relies on capacity that has not initialized (pods of deleting nodes excepted).
    const host = placement.kind === 'existing' ? byName.get(placement.node) : undefined;
    // Unmanaged nodes count as initialized (Karpenter's StateNode.Initialized without a NodeClaim).
    if (host && !deletingKeys.has(key) && (host.inFlight || (host.managed && !host.initialized))) {
      unscheduled.set(key, `would schedule against uninitialized ${host.name}`);
    }
  }
  // Disrupted pods are the candidates' and those of nodes already leaving (deleting, expired, named by an open
  // command): a claim opened for any of them is capacity this command needs, or a later command could spend
  // the slot an earlier one relies on (docs/mechanisms/attribution.md). Held proposals' pods are not: each
  // held proposal carries its own replacements, and admission re-validates it once it is an open command.
  const disrupted = new Set([...own, ...deleting].map(podKey));
  const replacements = ctx.options.attributeReplacements
    ? result.claims.filter((c) => c.pods.some((p) => disrupted.has(p.key)))
    : result.claims;
  return { unscheduled, replacements, allClaims: result.claims, timedOut: result.timedOut };
}
