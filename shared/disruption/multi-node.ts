// Multi-node consolidation: binary search for the largest prefix (≥ 2, ≤ 100, never cutting a running gang) of
// the sorted, budget-allowed candidates that can be removed together with at most one cheaper replacement; within
// one minute, returning the best batch found so far when time runs out (multinodeconsolidation.go
// firstNConsolidationOption).
import { approveCommand, poolTotals } from './balanced.ts';
import { BudgetLedger } from './budgets.ts';
import { computeConsolidation, type Outcome } from './consolidation.ts';
import { consolidationFilter, sortCandidates, type Method } from './method.ts';
import { filterByPrice, narrow, toReplacement } from './replacement.ts';
import type { Candidate, Command, Skip } from './types.ts';

export const MAX_BATCH = 100;

export const multiNode: Method = {
  name: 'multi-node-consolidation',
  reason: 'Underutilized',
  filter: consolidationFilter,
  compute(ctx, candidates, budgets, hints) {
    const { allowed, skipped } = allowedInOrder(candidates, budgets);
    // The prefix lengths searched: 2…100, but never one that cuts a running gang's nodes apart (a prefix that
    // takes some and leaves others would kill the gang's job; docs/mechanisms/gangs.md, "Disruption").
    const sizes = prefixSizes(allowed);
    if (sizes.length === 0) return { commands: [], skipped, evaluated: 0, timedOut: false };
    const start = ctx.stopwatch.elapsedMs();
    let lo = 0;
    let hi = sizes.length - 1;
    let best: Command | undefined;
    let evaluated = 0;
    let timedOut = false;
    let totals: ReturnType<typeof poolTotals> | undefined;
    while (lo <= hi) {
      if (ctx.stopwatch.elapsedMs() - start > ctx.options.multiNodeTimeoutMs) {
        timedOut = true;
        break;
      }
      const mid = (lo + hi) >> 1;
      const batch = allowed.slice(0, sizes[mid]);
      evaluated = Math.max(evaluated, batch.length);
      // The minute bounds the simulation itself, not just the search between simulations.
      // Asked between pods: each ask is a simulation step's work (Stopwatch.work).
      const deadline = {
        passed: () => {
          ctx.stopwatch.work?.('simulation-step', 1);
          return ctx.stopwatch.elapsedMs() - start > ctx.options.multiNodeTimeoutMs;
        },
      };
      ctx.stopwatch.work?.('candidate', batch.length);
      const outcome = computeConsolidation(ctx, 'multi-node-consolidation', batch, [], deadline);
      if (outcome.kind === 'no-op' && outcome.reason === 'timed-out') {
        timedOut = true;
        break;
      }
      // A batch holding a candidate whose replacement failed lately may delete, never replace.
      const replaceHeld = (cmd: Command) =>
        cmd.replacements.length > 0 && batch.some((c) => hints.replacementHolds?.held(c) === true);
      const proposed = valid(outcome, batch);
      const found = proposed && !replaceHeld(proposed) ? proposed : undefined;
      // Balanced pools score the move; a rejected batch is as invalid as one without a cheaper replacement.
      const cmd = found && approveCommand(found, (totals ??= poolTotals(ctx.snapshot))) ? found : undefined;
      if (cmd) {
        best = cmd;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return { commands: best ? [best] : [], skipped, evaluated, timedOut };
  },
};

/**
 * Pre-filter in order whatever the budgets could never allow, preserving the order the search relies on. A running
 * gang's nodes enter together at the place of the first of them, so prefixes split it only at its edges; a gang
 * whose nodes are not all candidates here, or whose whole set the budgets cannot hold, is skipped (`gang`).
 */
function allowedInOrder(
  candidates: readonly Candidate[],
  budgets: ReadonlyMap<string, number>,
): { allowed: Candidate[]; skipped: Skip[] } {
  const byName = new Map(candidates.map((c) => [c.name, c]));
  let ledger = BudgetLedger.from(budgets);
  const allowed: Candidate[] = [];
  const skipped: Skip[] = [];
  const seen = new Set<string>();
  for (const c of sortCandidates(candidates)) {
    if (seen.has(c.name)) continue;
    const names = c.gang?.nodes ?? [c.name];
    for (const n of names) seen.add(n);
    const group = names.flatMap((n) => byName.get(n) ?? []);
    const next = group.length === names.length ? ledger.tryHold(group.map((g) => g.nodePool)) : undefined;
    if (!next) {
      if (c.gang) for (const g of group) skipped.push({ node: g.name, reason: 'gang' });
      continue;
    }
    ledger = next;
    allowed.push(c, ...group.filter((g) => g !== c));
  }
  return { allowed, skipped };
}

/** Prefix lengths from 2 to MAX_BATCH that leave every running gang wholly in or wholly out. */
function prefixSizes(allowed: readonly Candidate[]): number[] {
  const sizes: number[] = [];
  const taken = new Set<string>();
  const open = new Set<string>(); // gang nodes still due after a gang's first node
  for (const [i, c] of allowed.entries()) {
    if (i >= MAX_BATCH) break;
    taken.add(c.name);
    open.delete(c.name);
    for (const n of c.gang?.nodes ?? []) if (!taken.has(n)) open.add(n);
    if (i >= 1 && open.size === 0) sizes.push(i + 1);
  }
  return sizes;
}

/** A delete, or a replace that still has a type cheaper than every same-typed candidate (filterOutSameInstanceType). */
function valid(outcome: Outcome, batch: readonly Candidate[]): Command | undefined {
  if (outcome.kind === 'no-op') return undefined;
  const claim = outcome.claim;
  if (!claim) return outcome.command;
  // Replacing N nodes with one of a type we already run is only worth it below that node's price;
  // otherwise deleting the others alone is the same move with less churn.
  const existing = new Map<string, number>();
  for (const c of batch) {
    const name = c.instanceType?.name;
    if (name !== undefined)
      existing.set(name, Math.min(existing.get(name) ?? Number.POSITIVE_INFINITY, c.price));
  }
  let maxPrice = Number.POSITIVE_INFINITY;
  for (const it of claim.instanceTypes) {
    const p = existing.get(it.name);
    if (p !== undefined && p < maxPrice) maxPrice = p;
  }
  const kept = filterByPrice(claim.instanceTypes, claim.requirements, maxPrice);
  if (!kept || kept.length === 0) return undefined;
  narrow(claim, kept);
  return { ...outcome.command, replacements: [toReplacement(claim)] };
}
