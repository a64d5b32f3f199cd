// Single-node consolidation: walk the candidates one at a time (pools interleaved, pools a timed-out walk never
// reached first) within three minutes. Karpenter stops at its first command; kraftsman may hold up to
// maxCommands proposals, spending each pool's budget as it holds them (later simulations see the held
// candidates gone), resumes behind the candidates this coverage cycle already judged, and consults the
// negative cache (skipping on a hit only when switched on). Seed, "Surviving the timeout" and after.
import { approveCommand, canPassThreshold, poolTotals } from './balanced.ts';
import { BudgetLedger } from './budgets.ts';
import { computeConsolidation, type Outcome } from './consolidation.ts';
import {
  EMPTY_COVERAGE,
  markEvaluated,
  reconcileCoverage,
  restartCoverageCycle,
  resumeCoverageCycle,
  upstreamOrder,
} from './coverage-cycle.ts';
import { candidateFingerprint, poolRevisions } from './fingerprint.ts';
import { consolidationFilter, sortCandidates, type Method, type MethodResult } from './method.ts';
import {
  EMPTY_TALLY,
  forgetNegative,
  lookupNegative,
  negativeCache,
  rememberVerdict,
  shouldSkip,
  tallyLookup,
} from './negative-cache.ts';
import type { PassContext } from './pass-context.ts';
import type { ReplacementHolds } from './replacement-backoff.ts';
import type { WalkSpeculation } from './speculation.ts';
import type { Candidate, Command, Skip } from './types.ts';

export const singleNode: Method = {
  name: 'single-node-consolidation',
  reason: 'Underutilized',
  // One node of a running gang alone would kill the gang's job: only multi-node may take its nodes, together.
  filter(c) {
    const verdict = consolidationFilter(c);
    return verdict === true && c.gang ? 'gang' : verdict;
  },
  compute(ctx, candidates, budgets, hints, speculation) {
    const upstream = ctx.options.upstream;
    const karpenterOrder = upstreamOrder(sortCandidates(candidates), hints.unseenPools ?? []);
    const coverage = upstream
      ? EMPTY_COVERAGE
      : reconcileCoverage(hints.coverage ?? EMPTY_COVERAGE, candidates);
    const ordered = upstream ? karpenterOrder : resumeCoverageCycle(karpenterOrder, coverage);
    const walk = new Walk(ctx, budgets, hints.negativeCache, hints.replacementHolds, speculation);
    const end = walk.run(ordered);
    return {
      commands: walk.held,
      skipped: walk.skipped,
      evaluated: walk.evaluated,
      timedOut: end === 'timed-out',
      constrainedByBudgets: walk.constrainedByBudgets,
      // Karpenter records the unreached pools only when the walk timed out or ran to its end, not when it
      // stopped at a command.
      unseenPools:
        end === 'held-enough'
          ? (hints.unseenPools ?? [])
          : [...new Set(ordered.map((c) => c.nodePool))].filter((p) => !walk.reachedPools.has(p)),
      // Only a timed-out walk resumes mid-list; any other end starts the next walk at the head.
      coverage: upstream
        ? undefined
        : end === 'timed-out'
          ? markEvaluated(coverage, walk.judged, candidates)
          : restartCoverageCycle(coverage),
      negativeCache: upstream ? undefined : walk.cache,
      negativeTally: upstream ? undefined : walk.tally,
      depth: depthOf(ordered, walk.reached),
    };
  },
};

type WalkEnd = 'timed-out' | 'held-enough' | 'end-of-list';

/** One walk's mutable bookkeeping, kept private to a single compute() call. */
class Walk {
  readonly held: Command[] = [];
  readonly heldCandidates: Candidate[] = [];
  readonly skipped: Skip[] = [];
  /** Candidates the walk got to, in order (depth metrics, unseen pools). */
  readonly reached = new Set<Candidate>();
  readonly reachedPools = new Set<string>();
  /** Candidates that reached a verdict (simulated, cached, scored or abandoned): the coverage cycle's members. */
  readonly judged: Candidate[] = [];
  evaluated = 0;
  constrainedByBudgets = false;
  cache;
  tally = EMPTY_TALLY;
  private ledger: BudgetLedger;
  private start = 0;
  private readonly revisions;
  private readonly totals;

  constructor(
    private readonly ctx: PassContext,
    budgets: ReadonlyMap<string, number>,
    cache: MethodResult['negativeCache'],
    private readonly holds?: ReplacementHolds,
    private readonly speculation?: WalkSpeculation,
  ) {
    this.ledger = BudgetLedger.from(budgets);
    this.cache = cache ?? negativeCache();
    this.revisions = ctx.options.upstream ? new Map<string, string>() : poolRevisions(ctx.snapshot);
    this.totals = poolTotals(ctx.snapshot);
  }

  run(ordered: readonly Candidate[]): WalkEnd {
    this.start = this.ctx.stopwatch.elapsedMs();
    this.speculation?.begin(ordered, (c) => this.wouldSimulate(c));
    for (const c of ordered) {
      if (this.held.length >= this.ctx.options.maxCommands) return 'held-enough';
      // Candidates never reached are not skips (docs/contract.md): the walk simply did not get to them.
      if (this.walkOver()) return 'timed-out';
      this.reached.add(c);
      this.reachedPools.add(c.nodePool);
      if (this.visit(c) === 'walk-over') return 'timed-out';
    }
    return this.held.length >= this.ctx.options.maxCommands ? 'held-enough' : 'end-of-list';
  }

  private walkOver(): boolean {
    return this.ctx.stopwatch.elapsedMs() - this.start > this.ctx.options.singleNodeTimeoutMs;
  }

  /**
   * The walk gate workers speculate behind (docs/mechanisms/parallel-discovery.md): false when visit() would pass
   * the candidate over unsimulated. Monotone: claims, held budgets and negative-cache hits only grow in a walk,
   * and the threshold is fixed.
   */
  private wouldSimulate(c: Candidate): boolean {
    if (this.heldCandidates.includes(c) || !this.ledger.canHold([c.nodePool])) return false;
    if (!canPassThreshold(c, this.totals)) return false;
    const { ctx } = this;
    if (ctx.options.upstream) return true;
    const fingerprint = candidateFingerprint(c, ctx.snapshot, this.revisions);
    return !shouldSkip(lookupNegative(this.cache, c.name, fingerprint, ctx.now), ctx.options);
  }

  /**
   * A worker's no-op, when it simulated this candidate with the same candidates held; otherwise undefined and the
   * walk simulates here, so every command (its Command, its claim) is this thread's own.
   */
  private speculated(c: Candidate): Outcome | undefined {
    const v = this.speculation?.outcome(c, this.heldCandidates);
    if (v?.kind !== 'no-op' || v.reason === 'timed-out' || v.candidate !== c.name) return undefined;
    const held = this.heldCandidates;
    if (v.held.length !== held.length || v.held.some((name, i) => name !== held[i]?.name)) return undefined;
    return { kind: 'no-op', reason: v.reason, detail: v.detail };
  }

  private skip(c: Candidate, reason: Skip['reason'], judged: boolean): void {
    this.skipped.push({ node: c.name, reason });
    if (judged) this.judged.push(c);
  }

  private visit(c: Candidate): 'walk-over' | void {
    const { ctx } = this;
    const upstream = ctx.options.upstream;
    if (this.heldCandidates.includes(c)) return this.skip(c, 'claimed-by-pending-command', false);
    if (!this.ledger.canHold([c.nodePool])) {
      this.constrainedByBudgets = true;
      return this.skip(c, 'budget-exhausted', false);
    }
    // The fork counts in the coverage cycle only candidates that reach a verdict: one that cannot pass the
    // threshold was never evaluated, so it stays ahead of the judged ones (docs/mechanisms/coverage-cycle.md).
    if (!canPassThreshold(c, this.totals)) return this.skip(c, 'below-threshold', false);
    const fingerprint = upstream ? undefined : candidateFingerprint(c, ctx.snapshot, this.revisions);
    const lookup = lookupNegative(this.cache, c.name, fingerprint, ctx.now);
    // An expired or changed entry is dropped on lookup, as the fork's ShouldSkip does.
    if (lookup.result === 'expired' || lookup.result === 'changed')
      this.cache = forgetNegative(this.cache, c.name);
    if (!upstream && shouldSkip(lookup, ctx.options)) {
      this.tally = tallyLookup(this.tally, c.name, lookup, 'skipped');
      return this.skip(c, 'cached-negative', true);
    }
    this.evaluated++;
    ctx.stopwatch.work?.('candidate', 1);
    // A worker's verdict kept its own candidate budget; waiting for it is not this candidate's time.
    const speculated = this.speculated(c);
    const began = ctx.stopwatch.elapsedMs();
    const { candidateTimeoutMs, singleNodeTimeoutMs } = ctx.options;
    // One pathological candidate must not eat the walk: the solve gives up at the candidate's own budget or
    // the walk's, whichever comes first (Karpenter's Solve watches its context; docs/mechanisms/candidate-budget.md).
    const deadline = {
      // Asked between pods: each ask is a simulation step's work (Stopwatch.work).
      passed: () => {
        ctx.stopwatch.work?.('simulation-step', 1);
        const t = ctx.stopwatch.elapsedMs();
        return t - began > candidateTimeoutMs || t - this.start > singleNodeTimeoutMs;
      },
    };
    const outcome =
      speculated ??
      computeConsolidation(ctx, 'single-node-consolidation', [c], this.heldCandidates, deadline);
    if (
      !speculated &&
      ((outcome.kind === 'no-op' && outcome.reason === 'timed-out') ||
        ctx.stopwatch.elapsedMs() - began > candidateTimeoutMs)
    ) {
      // Cut off by the walk's budget, the candidate reached no verdict: like the candidates after it, it is not
      // listed as a skip (docs/contract.md) and the coverage cycle keeps it ahead.
      if (this.walkOver()) return 'walk-over';
      // It had its own budget, so it goes behind the unjudged ones like any judged candidate.
      return this.skip(c, 'timed-out', true);
    }
    const verdict =
      outcome.kind === 'no-op' ? 'no-op' : outcome.command.replacements.length ? 'replace' : 'delete';
    if (!upstream) {
      this.tally = tallyLookup(this.tally, c.name, lookup, verdict);
      // A no-op reached with held proposals' candidates gone may depend on them: not remembered.
      if (verdict !== 'no-op' || this.heldCandidates.length === 0)
        this.cache = rememberVerdict(
          this.cache,
          c.name,
          fingerprint,
          verdict,
          ctx.now,
          ctx.options.negativeCacheTtlMs,
        );
    }
    if (outcome.kind === 'no-op') return this.skip(c, outcome.reason, true);
    // Its last replacement failed lately: a replace waits out the hold, a delete launches nothing and may go.
    if (outcome.command.replacements.length > 0 && this.holds?.held(c))
      return this.skip(c, 'replacement-backoff', true);
    if (!approveCommand(outcome.command, this.totals)) return this.skip(c, 'below-threshold', true);
    this.judged.push(c);
    this.ledger = this.ledger.hold([c.nodePool]);
    this.held.push(outcome.command);
    this.heldCandidates.push(c);
  }
}

function depthOf(
  ordered: readonly Candidate[],
  reached: ReadonlySet<Candidate>,
): Map<string, { reached: number; candidates: number }> {
  const depth = new Map<string, { reached: number; candidates: number }>();
  for (const c of ordered) {
    const d = depth.get(c.nodePool) ?? { reached: 0, candidates: 0 };
    depth.set(c.nodePool, { reached: d.reached + (reached.has(c) ? 1 : 0), candidates: d.candidates + 1 });
  }
  return depth;
}
