// Single-node consolidation: walk the candidates one at a time (pools interleaved, pools a timed-out walk never
// reached first) within three minutes. Karpenter stops at its first command; kraftsman may hold up to
// maxCommands proposals, spending each pool's budget as it holds them (later simulations see the held
// candidates gone), resumes behind the candidates this coverage cycle already reached, and consults the
// negative cache (skipping on a hit only when switched on). Seed, "Surviving the timeout" and after.
import { BudgetLedger } from './budgets.ts';
import { computeConsolidation } from './consolidation.ts';
import {
  EMPTY_COVERAGE,
  markEvaluated,
  reconcileCoverage,
  resumeCoverageCycle,
  upstreamOrder,
} from './coverage-cycle.ts';
import { candidateFingerprint, catalogRevision } from './fingerprint.ts';
import { consolidationFilter, sortCandidates, type Method } from './method.ts';
import {
  EMPTY_TALLY,
  lookupNegative,
  negativeCache,
  rememberVerdict,
  shouldSkip,
  tallyLookup,
} from './negative-cache.ts';
import type { Candidate, Command, Skip } from './types.ts';

export const singleNode: Method = {
  name: 'single-node-consolidation',
  reason: 'Underutilized',
  filter: consolidationFilter,
  compute(ctx, candidates, budgets, hints) {
    const { options, now, snapshot } = ctx;
    const upstream = options.upstream;
    const karpenterOrder = upstreamOrder(sortCandidates(candidates), hints.unseenPools ?? []);
    const coverage = upstream
      ? EMPTY_COVERAGE
      : reconcileCoverage(hints.coverage ?? EMPTY_COVERAGE, candidates);
    const ordered = upstream ? karpenterOrder : resumeCoverageCycle(karpenterOrder, coverage);
    const revision = upstream ? '' : catalogRevision(snapshot);
    let cache = hints.negativeCache ?? negativeCache();
    let tally = EMPTY_TALLY;
    let ledger = BudgetLedger.from(budgets);
    const held: Command[] = [];
    const heldCandidates: Candidate[] = [];
    const skipped: Skip[] = [];
    const reached: Candidate[] = [];
    const start = ctx.stopwatch.elapsedMs();
    let evaluated = 0;
    let timedOut = false;
    for (const [i, c] of ordered.entries()) {
      if (held.length >= options.maxCommands) break;
      if (ctx.stopwatch.elapsedMs() - start > options.singleNodeTimeoutMs) {
        timedOut = true;
        for (const rest of ordered.slice(i)) skipped.push({ node: rest.name, reason: 'timed-out' });
        break;
      }
      reached.push(c);
      if (heldCandidates.includes(c)) {
        skipped.push({ node: c.name, reason: 'claimed-by-pending-command' });
        continue;
      }
      if (!ledger.canHold([c.nodePool])) {
        skipped.push({ node: c.name, reason: 'budget-exhausted' });
        continue;
      }
      const fingerprint = upstream ? undefined : candidateFingerprint(c, snapshot, revision);
      const lookup = lookupNegative(cache, c.name, fingerprint, now);
      if (!upstream && shouldSkip(lookup, options)) {
        tally = tallyLookup(tally, c.name, lookup, 'skipped');
        skipped.push({ node: c.name, reason: 'cached-negative' });
        continue;
      }
      evaluated++;
      const began = ctx.stopwatch.elapsedMs();
      // One pathological candidate must not eat the walk: the solve gives up at the candidate's own budget or
      // the walk's, whichever comes first (Karpenter's Solve watches its context; docs/mechanisms/candidate-budget.md).
      const deadline = {
        passed: () => {
          const t = ctx.stopwatch.elapsedMs();
          return t - began > options.candidateTimeoutMs || t - start > options.singleNodeTimeoutMs;
        },
      };
      const outcome = computeConsolidation(ctx, 'single-node-consolidation', [c], heldCandidates, deadline);
      if (
        (outcome.kind === 'no-op' && outcome.reason === 'timed-out') ||
        ctx.stopwatch.elapsedMs() - began > options.candidateTimeoutMs
      ) {
        if (ctx.stopwatch.elapsedMs() - start > options.singleNodeTimeoutMs) {
          // Cut off by the walk's budget: this candidate was not evaluated, so the coverage cycle keeps it ahead.
          reached.pop();
          timedOut = true;
          for (const rest of ordered.slice(i)) skipped.push({ node: rest.name, reason: 'timed-out' });
          break;
        }
        skipped.push({ node: c.name, reason: 'timed-out' });
        continue;
      }
      const verdict =
        outcome.kind === 'no-op' ? 'no-op' : outcome.command.replacements.length ? 'replace' : 'delete';
      if (!upstream) {
        tally = tallyLookup(tally, c.name, lookup, verdict);
        cache = rememberVerdict(cache, c.name, fingerprint, verdict, now);
      }
      if (outcome.kind === 'no-op') {
        skipped.push({ node: c.name, reason: outcome.reason });
        continue;
      }
      ledger = ledger.hold([c.nodePool]);
      held.push(outcome.command);
      heldCandidates.push(c);
    }
    const reachedPools = new Set(reached.map((c) => c.nodePool));
    const reachedSet = new Set(reached);
    const depth = new Map<string, { reached: number; candidates: number }>();
    for (const c of ordered) {
      const d = depth.get(c.nodePool) ?? { reached: 0, candidates: 0 };
      depth.set(c.nodePool, {
        reached: d.reached + (reachedSet.has(c) ? 1 : 0),
        candidates: d.candidates + 1,
      });
    }
    return {
      commands: held,
      skipped,
      evaluated,
      timedOut,
      // Karpenter records the unreached pools only when the walk timed out or ran to its end, not when it
      // stopped at a command.
      unseenPools:
        held.length >= options.maxCommands
          ? (hints.unseenPools ?? [])
          : [...new Set(ordered.map((c) => c.nodePool))].filter((p) => !reachedPools.has(p)),
      coverage: upstream ? undefined : markEvaluated(coverage, reached, candidates),
      negativeCache: upstream ? undefined : cache,
      negativeTally: upstream ? undefined : tally,
      depth,
    };
  },
};
