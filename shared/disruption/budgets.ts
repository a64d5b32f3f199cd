// Disruption budgets (Karpenter v1.14.1): how many nodes of each NodePool a disruption reason may take now
// (`budgetMapping`), and the `BudgetLedger` a batched pass spends as it holds proposals
// (docs/mechanisms/batched-admission.md). Pure: the instant is a parameter. API: budgetActive, allowedDisruptions, budgetDetails, budgetMapping, BudgetLedger.
import { canFire, lastFiring, parseCron, type CronSchedule } from '../model/cron.ts';
import { parseDuration } from '../model/duration.ts';
import type { Budget, DisruptionReason, NodePool } from '../model/nodepool.ts';
import { claimCondition } from '../model/nodeclaim.ts';
import type { StateNode } from '../state/snapshot.ts';

/** What Karpenter returns when no active budget applies to a reason (math.MaxInt32). */
export const UNBOUNDED = 2_147_483_647;

export class BudgetError extends Error {
  override readonly name: string = 'BudgetError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
/** A hold asked for more nodes of a pool than its ledger has left. */
export class BudgetOverspendError extends BudgetError {
  override readonly name = 'BudgetOverspendError';
  constructor(
    readonly nodePool: string,
    readonly requested: number,
    readonly remaining: number,
  ) {
    super(
      `holding ${requested} node(s) of NodePool ${nodePool} would overspend its disruption budget (${remaining} left)`,
    );
  }
}

/**
 * Budget.IsActive: a budget without a schedule is always active; with one, it is active when a cron firing
 * (UTC) lies in (now − duration, now]. Karpenter asks robfig/cron for the next firing strictly after
 * now − duration and checks it is not after now, so the window of a firing f is [f, f + duration).
 * Throws BudgetError for a schedule or duration that does not parse (the caller fails closed).
 */
export function budgetActive(budget: Budget, now: Date): boolean {
  if (budget.schedule === undefined && budget.duration === undefined) return true;
  if (budget.schedule === undefined || budget.duration === undefined) {
    throw new BudgetError(
      `budget needs both schedule and duration (schedule=${budget.schedule ?? '-'}, duration=${budget.duration ?? '-'})`,
    );
  }
  const durationMs = parseDuration(budget.duration);
  if (durationMs === undefined)
    throw new BudgetError(`budget duration "${budget.duration}" is not a duration`);
  let schedule: CronSchedule;
  try {
    schedule = parseCron(budget.schedule);
  } catch (cause) {
    throw new BudgetError(`budget schedule "${budget.schedule}" is not a cron schedule`, { cause });
  }
  // Karpenter: robfig/cron's Next gives the zero time for a schedule that never fires (`0 0 31 2 *`), and
  // IsActive's `!nextHit.After(now)` then holds — such a budget is always active.
  if (!canFire(schedule)) return true;
  // Minute-aligned firings ≤ now are ≤ floor(now); lastFiring looks back far enough to cover now − duration.
  const last = lastFiring(schedule, now, durationMs);
  return last !== undefined && last.getTime() > now.getTime() - durationMs;
}

/**
 * Budget.GetAllowedDisruptions: UNBOUNDED while inactive; a count as written; a percentage of the pool's
 * node count rounded UP (intstr.GetScaledValueFromIntOrPercent with roundUp=true — "5% of 10 nodes allows 1",
 * like PDB maxUnavailable).
 */
export function budgetAllowance(budget: Budget, nodeCount: number, now: Date): number {
  if (!budgetActive(budget, now)) return UNBOUNDED;
  const nodes = budget.nodes; // the schema defaults an absent nodes to the CRD's 10%
  const percent = /^(\d+)%$/.exec(nodes);
  if (percent) return Math.ceil((Number(percent[1]) * nodeCount) / 100);
  if (/^\d+$/.test(nodes)) return Number(nodes);
  throw new BudgetError(`budget nodes "${nodes}" is neither a count nor a percentage`);
}

/**
 * NodePool.MustGetAllowedDisruptions: the minimum over the budgets that apply to `reason` (reasons unset =
 * every reason; Karpenter tests `Reasons == nil`, so an explicit empty list applies to none). Any
 * misconfigured budget — even one for another reason — fails the whole pool closed to 0.
 */
export function allowedDisruptions(
  pool: NodePool,
  nodeCount: number,
  reason: DisruptionReason,
  now: Date,
): number {
  let allowed = UNBOUNDED;
  for (const budget of pool.spec.disruption.budgets) {
    let value: number;
    try {
      value = budgetAllowance(budget, nodeCount, now);
    } catch (e: unknown) {
      if (e instanceof BudgetError) return 0;
      throw e;
    }
    if (budget.reasons === undefined || budget.reasons.includes(reason)) allowed = Math.min(allowed, value);
  }
  return allowed;
}

export interface PoolBudget {
  /** Managed, initialized nodes of the pool that are not InstanceTerminating: the base of a percentage. */
  readonly nodes: number;
  /** What the budgets allow (before subtracting): karpenter_nodepools_allowed_disruptions. */
  readonly allowed: number;
  /** NotReady or deleting nodes: karpenter_nodepools_nodes_consuming_budgets. */
  readonly consuming: number;
  /** max(allowed − consuming, 0): what the methods may still disrupt. */
  readonly remaining: number;
}

export interface BudgetOptions {
  /** Nodes already named by an open disruption command (Karpenter's MarkedForDeletion covers them too). */
  readonly disrupting?: ReadonlySet<string>;
}

/**
 * BuildDisruptionBudgetMapping (pkg/controllers/disruption/helpers.go): count only managed, initialized
 * nodes whose claim is not InstanceTerminating (uninitialized replacements would inflate a percentage);
 * nodes that are NotReady or marked for deletion consume budget.
 */
export function budgetDetails(
  pools: Iterable<NodePool>,
  nodes: readonly StateNode[],
  reason: DisruptionReason,
  now: Date,
  options: BudgetOptions = {},
): Map<string, PoolBudget> {
  const counts = new Map<string, { nodes: number; consuming: number }>();
  for (const n of nodes) {
    if (!n.managed || !n.initialized || n.nodePool === undefined) continue;
    if (n.claim && claimCondition(n.claim, 'InstanceTerminating') === true) continue;
    const c = counts.get(n.nodePool) ?? { nodes: 0, consuming: 0 };
    c.nodes += 1;
    if (!n.ready || n.markedForDeletion || options.disrupting?.has(n.name) === true) c.consuming += 1;
    counts.set(n.nodePool, c);
  }
  const out = new Map<string, PoolBudget>();
  for (const pool of pools) {
    const c = counts.get(pool.metadata.name) ?? { nodes: 0, consuming: 0 };
    const allowed = allowedDisruptions(pool, c.nodes, reason, now);
    out.set(pool.metadata.name, {
      nodes: c.nodes,
      allowed,
      consuming: c.consuming,
      remaining: Math.max(allowed - c.consuming, 0),
    });
  }
  return out;
}

/** NodePool name → nodes the reason may still disrupt now. A fresh map the caller owns. */
export function budgetMapping(
  pools: Iterable<NodePool>,
  nodes: readonly StateNode[],
  reason: DisruptionReason,
  now: Date,
  options: BudgetOptions = {},
): Map<string, number> {
  return new Map(
    [...budgetDetails(pools, nodes, reason, now, options)].map(([name, b]) => [name, b.remaining]),
  );
}

/**
 * What is left of each pool's budget while a pass holds proposals. Immutable: `hold` returns a new ledger,
 * so a method never mutates the mapping its caller passed in (docs/conventions.md). A pool missing from the mapping
 * has nothing left (a Go map lookup of a missing pool reads 0).
 */
export class BudgetLedger {
  private constructor(private readonly left: ReadonlyMap<string, number>) {}

  static from(mapping: ReadonlyMap<string, number>): BudgetLedger {
    for (const [pool, n] of mapping) {
      if (!Number.isInteger(n) || n < 0)
        throw new BudgetError(`budget of NodePool ${pool} must be a non-negative integer, got ${n}`);
    }
    return new BudgetLedger(new Map(mapping));
  }

  remaining(pool: string): number {
    return this.left.get(pool) ?? 0;
  }

  /** True when every pool named (once per candidate node) still has room for all of its nodes. */
  canHold(candidatePools: readonly string[]): boolean {
    return this.shortfall(candidatePools) === undefined;
  }

  /** The ledger after holding one node per entry of `candidatePools`; BudgetOverspendError if any pool is short. */
  hold(candidatePools: readonly string[]): BudgetLedger {
    const short = this.shortfall(candidatePools);
    if (short) throw new BudgetOverspendError(short.pool, short.requested, this.remaining(short.pool));
    const next = new Map(this.left);
    for (const [pool, n] of tally(candidatePools)) next.set(pool, this.remaining(pool) - n);
    return new BudgetLedger(next);
  }

  /** Like `hold`, but undefined instead of throwing. */
  tryHold(candidatePools: readonly string[]): BudgetLedger | undefined {
    return this.canHold(candidatePools) ? this.hold(candidatePools) : undefined;
  }

  /** A copy of what is left per pool. */
  toMap(): Map<string, number> {
    return new Map(this.left);
  }

  private shortfall(candidatePools: readonly string[]): { pool: string; requested: number } | undefined {
    for (const [pool, requested] of tally(candidatePools))
      if (requested > this.remaining(pool)) return { pool, requested };
    return undefined;
  }
}

function tally(pools: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const p of pools) out.set(p, (out.get(p) ?? 0) + 1);
  return out;
}
