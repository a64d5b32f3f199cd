// Measures 1 and 2 of bench:pass: a whole single-node walk (every candidate simulated on its own, no time budget,
// no stop at the first command) and a whole census, on one snapshot in one mode. Per-candidate times, stage split,
// outcomes, and how many candidates the delta simulation decided without the full one.
import { performance } from 'node:perf_hooks';
import { buildCandidates } from '../../shared/disruption/candidates.ts';
import { runCensus } from '../../shared/disruption/census.ts';
import { computeConsolidation } from '../../shared/disruption/consolidation.ts';
import { upstreamOrder } from '../../shared/disruption/coverage-cycle.ts';
import { consolidationFilter, sortCandidates } from '../../shared/disruption/method.ts';
import { passContext, type Stage } from '../../shared/disruption/pass-context.ts';
import type { Candidate, PassOptions } from '../../shared/disruption/types.ts';
import type { ClusterSnapshot } from '../../shared/state/snapshot.ts';

export const NOW = new Date('2026-11-30T00:00:00Z');
const stopwatch = { elapsedMs: () => performance.now() };

export interface Walk {
  readonly candidates: number;
  readonly totalMs: number;
  /** CPU time of the walk (user + system): the one-core figure, steadier than wall time on a shared machine. */
  readonly cpuMs: number;
  readonly perCandidate: number[];
  readonly outcomes: Record<string, number>;
  readonly stages: Record<Stage, number>;
  /** Candidates whose verdict came from the delta simulation (kraftsman), and why the others fell back. */
  readonly delta: { readonly decided: number; readonly fallbacks: Record<string, number> };
  /**
   * Per candidate, beside perCandidate: the backlog pods its full simulation placed elsewhere than the base, where
   * the delta decided it (undefined: the full simulation ran, or no backlog).
   */
  readonly replaced: readonly (number | undefined)[];
}

/** The single-node walk's candidates in Karpenter's order; `limit` > 0 takes an evenly spaced subset (quick checks). */
export function walkCandidates(s: ClusterSnapshot, options: PassOptions, limit = 0): Candidate[] {
  const ctx = passContext(s, NOW, options);
  const set = buildCandidates({ snapshot: s, pdbs: ctx.pdbs(), now: NOW });
  const ordered = upstreamOrder(
    sortCandidates(set.candidates.filter((c) => consolidationFilter(c) === true)),
  );
  if (limit <= 0 || limit >= ordered.length) return ordered;
  const step = ordered.length / limit;
  return Array.from({ length: limit }, (_, i) => ordered[Math.floor(i * step)] as Candidate);
}

/** Every candidate simulated in turn, as a walk with no budget that never stops at a command. */
export function walk(s: ClusterSnapshot, options: PassOptions, limit = 0): Walk {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const ctx = passContext(s, NOW, options, stopwatch);
  const candidates = walkCandidates(s, options, limit);
  const perCandidate: number[] = [];
  const replaced: (number | undefined)[] = [];
  const outcomes: Record<string, number> = {};
  for (const c of candidates) {
    const decided = ctx.deltaReplaced.length;
    const t = performance.now();
    const o = computeConsolidation(ctx, 'single-node-consolidation', [c]);
    perCandidate.push(performance.now() - t);
    replaced.push(ctx.deltaReplaced.length > decided ? ctx.deltaReplaced[decided] : undefined);
    const k = o.kind === 'no-op' ? o.reason : o.command.replacements.length ? 'replace' : 'delete';
    outcomes[k] = (outcomes[k] ?? 0) + 1;
  }
  const cpu = process.cpuUsage(cpu0);
  return {
    candidates: candidates.length,
    totalMs: performance.now() - t0,
    cpuMs: (cpu.user + cpu.system) / 1000,
    perCandidate,
    outcomes,
    stages: { ...ctx.timings },
    delta: deltaSplit(ctx.deltaOutcomes),
    replaced,
  };
}

export interface Census {
  readonly candidates: number;
  /** Candidates judged: all of them, since the bench's census has no budget (a cut-off one is no whole census). */
  readonly reached: number;
  readonly truncated: boolean;
  readonly totalMs: number;
  readonly decisions: Record<string, number>;
}

/** A whole census: no time budget (the product's five minutes would cut upstream mode off at 3,400 pending). */
export function census(s: ClusterSnapshot, options: PassOptions): Census {
  const t0 = performance.now();
  const r = runCensus(s, NOW, options, stopwatch, { timeoutMs: Number.POSITIVE_INFINITY });
  const decisions: Record<string, number> = {};
  for (const e of r.candidates) decisions[e.decision] = (decisions[e.decision] ?? 0) + 1;
  return {
    candidates: r.candidates.length,
    reached: r.reached,
    truncated: r.truncated,
    totalMs: performance.now() - t0,
    decisions,
  };
}

export const median = (xs: readonly number[]) =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
export const p99 = (xs: readonly number[]) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.99) - 1)] ?? 0;

function deltaSplit(outcomes: Readonly<Record<string, number>>): Walk['delta'] {
  const { decided = 0, ...fallbacks } = outcomes;
  return { decided, fallbacks };
}

/** Candidates the delta decided, by how many backlog pods their full simulation re-placed: count and median cost. */
export function byCascade(
  w: Walk,
): { readonly range: string; readonly candidates: number; readonly medianMs: number }[] {
  const rows = w.replaced.flatMap((r, i) =>
    r === undefined ? [] : [{ r, ms: w.perCandidate[i] as number }],
  );
  return (
    [
      [0, 0],
      [1, 100],
      [101, 250],
      [251, 500],
      [501, Number.POSITIVE_INFINITY],
    ] as const
  ).flatMap(([lo, hi]) => {
    const b = rows.filter((x) => x.r >= lo && x.r <= hi);
    const range = lo === hi ? `${lo}` : hi === Number.POSITIVE_INFINITY ? `${lo}+` : `${lo}-${hi}`;
    return b.length ? [{ range, candidates: b.length, medianMs: median(b.map((x) => x.ms)) }] : [];
  });
}
