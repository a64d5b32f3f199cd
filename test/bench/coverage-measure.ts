// Measure 4 of bench:pass (docs/benchmarks.md): with the walk budget at a tenth of one full walk, how many passes
// until every candidate has been evaluated at least once — Karpenter's order (restart at the head, unseen pools
// first) vs the coverage cycle. A replay over measured per-candidate costs; `npx tsx test/bench/coverage-measure.ts` runs a synthetic demo.
import {
  markEvaluated,
  reconcileCoverage,
  resumeCoverageCycle,
  unseenPoolsAfterWalk,
  upstreamOrder,
  type CoverageCandidate,
  type CoverageState,
} from '../../shared/disruption/coverage-cycle.ts';

export interface CoverageMeasureInput<C extends CoverageCandidate> {
  /** The candidates in Karpenter's consolidation sort (before the per-pool interleave). */
  readonly sorted: readonly C[];
  /** What evaluating a candidate cost in the full walk (measure 1), in milliseconds. */
  readonly costMs: (c: C) => number;
  /** The walk budget as a fraction of the full walk's total cost (docs/benchmarks.md: a tenth). */
  readonly budgetFraction?: number;
  /** Give up after this many passes (the upstream order may never reach the tail). */
  readonly maxPasses?: number;
}

export interface CoverageRun {
  readonly mode: 'upstream' | 'coverage-cycle';
  /** Passes until every candidate was evaluated at least once; undefined if not within maxPasses. */
  readonly passes: number | undefined;
  /** Fraction of candidates evaluated at least once when the run stopped. */
  readonly reached: number;
  /** Candidates evaluated in each pass. */
  readonly perPass: readonly number[];
}

export interface CoverageMeasure {
  readonly candidates: number;
  readonly fullWalkMs: number;
  readonly budgetMs: number;
  /** The goal: ⌈full walk / budget⌉ + 1 passes. */
  readonly bound: number;
  readonly upstream: CoverageRun;
  readonly coverageCycle: CoverageRun;
}

/**
 * Replays passes in which every candidate is a no-op (the fleet the walk finds nothing in, where the timeout
 * bites): a pass evaluates candidates in its order while the time spent before each is within the budget
 * (Karpenter checks the timeout before each candidate, so the last one may overrun).
 */
export function measureCoverage<C extends CoverageCandidate>(
  input: CoverageMeasureInput<C>,
): CoverageMeasure {
  const { sorted, costMs } = input;
  const fraction = input.budgetFraction ?? 0.1;
  if (!(fraction > 0 && fraction <= 1))
    throw new RangeError(`budgetFraction must be in (0, 1], got ${fraction}`);
  const fullWalkMs = sorted.reduce((s, c) => s + costMs(c), 0);
  const budgetMs = fullWalkMs * fraction;
  const bound = budgetMs > 0 ? Math.ceil(fullWalkMs / budgetMs) + 1 : 1;
  const maxPasses = input.maxPasses ?? Math.max(10 * bound, 50);
  return {
    candidates: sorted.length,
    fullWalkMs,
    budgetMs,
    bound,
    upstream: run('upstream', sorted, costMs, budgetMs, maxPasses),
    coverageCycle: run('coverage-cycle', sorted, costMs, budgetMs, maxPasses),
  };
}

function run<C extends CoverageCandidate>(
  mode: CoverageRun['mode'],
  sorted: readonly C[],
  costMs: (c: C) => number,
  budgetMs: number,
  maxPasses: number,
): CoverageRun {
  const key = (c: C) => `${c.nodePool}/${c.name}`;
  const seen = new Set<string>();
  const perPass: number[] = [];
  let unseenPools: string[] = [];
  let state: CoverageState = new Map();
  for (let pass = 1; pass <= maxPasses; pass++) {
    const upstream = upstreamOrder(sorted, unseenPools);
    if (mode === 'coverage-cycle') state = reconcileCoverage(state, sorted);
    const ordered = mode === 'coverage-cycle' ? resumeCoverageCycle(upstream, state) : upstream;
    let spent = 0;
    let reached = 0;
    while (reached < ordered.length && spent <= budgetMs) {
      spent += costMs(ordered[reached] as C);
      reached++;
    }
    const walk = ordered.slice(0, reached);
    for (const c of walk) seen.add(key(c));
    perPass.push(reached);
    // Karpenter remembers the pools a walk never reached (timeout) and puts them first next pass.
    unseenPools = unseenPoolsAfterWalk(ordered, reached);
    if (mode === 'coverage-cycle') state = markEvaluated(state, walk, sorted);
    if (seen.size === sorted.length) return { mode, passes: pass, reached: 1, perPass };
  }
  return { mode, passes: undefined, reached: sorted.length === 0 ? 1 : seen.size / sorted.length, perPass };
}

/** One table row per mode, for bench:pass's report. */
export function formatCoverageMeasure(m: CoverageMeasure): string {
  const row = (r: CoverageRun) =>
    `  ${r.mode.padEnd(15)} ${String(r.passes ?? `never (${(r.reached * 100).toFixed(1)}% after ${r.perPass.length})`).padStart(24)}`;
  return [
    `coverage: ${m.candidates} candidates, full walk ${m.fullWalkMs.toFixed(0)} ms, budget ${m.budgetMs.toFixed(0)} ms, goal ≤ ${m.bound} passes`,
    `  ${'order'.padEnd(15)} ${'passes to reach all'.padStart(24)}`,
    row(m.upstream),
    row(m.coverageCycle),
  ].join('\n');
}

/** A seeded synthetic fleet: 8 pools of uneven size, costs 20–400 ms with a heavy tail. */
export function syntheticCandidates(
  n: number,
  seed = 1,
): { name: string; nodePool: string; costMs: number }[] {
  let s = seed >>> 0;
  const rand = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296;
  const pools = [
    'training-aws',
    'training-gcp',
    'inference-aws',
    'inference-gcp',
    'cpu-aws',
    'cpu-gcp',
    'team-a',
    'team-b',
  ];
  const weights = [0.3, 0.2, 0.15, 0.12, 0.1, 0.07, 0.04, 0.02];
  return Array.from({ length: n }, (_, i) => {
    let r = rand();
    let p = 0;
    while (p < weights.length - 1 && r > (weights[p] as number)) r -= weights[p++] as number;
    return {
      name: `node-${String(i).padStart(4, '0')}`,
      nodePool: pools[p] as string,
      costMs: 20 + 380 * rand() ** 3,
    };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const fleet = syntheticCandidates(1000);
  const costs = new Map(fleet.map((c) => [c.name, c.costMs]));
  console.log(
    formatCoverageMeasure(measureCoverage({ sorted: fleet, costMs: (c) => costs.get(c.name) ?? 0 })),
  );
}
