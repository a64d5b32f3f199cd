// The coverage cycle: resume order, marking, cycle completion, pruning, the gauge, the store delta; upstream order.
import { describe, expect, it } from 'vitest';
import {
  coverageDelta,
  coverageFraction,
  EMPTY_COVERAGE,
  FIRST_CYCLE,
  markEvaluated,
  reconcileCoverage,
  resumeCoverageCycle,
  unseenPoolsAfterWalk,
  upstreamOrder,
  type CoverageCandidate,
  type CoverageState,
} from '../../../shared/disruption/coverage-cycle.ts';
import { MemoryStateStore } from '../../../shared/adapters/memory/state-store.ts';
import { formatCoverageMeasure, measureCoverage, syntheticCandidates } from '../../bench/coverage-measure.ts';

const cands = (pool: string, ...names: string[]): CoverageCandidate[] =>
  names.map((name) => ({ name, nodePool: pool }));
const names = (cs: readonly CoverageCandidate[]) => cs.map((c) => c.name);
const state = (...pools: [string, number, string[]][]): CoverageState =>
  new Map(pools.map(([p, cycle, ev]) => [p, { nodePool: p, cycle, evaluated: new Set(ev) }]));

describe('the seed example: a walk that times out after four of seven candidates', () => {
  const all = cands('p', 'A', 'B', 'C', 'D', 'E', 'F', 'G');

  it('resumes at E on the next pass, completes the cycle after G, then starts at A again', () => {
    let s = reconcileCoverage(EMPTY_COVERAGE, all);
    const pass1 = resumeCoverageCycle(all, s);
    expect(names(pass1)).toEqual(['A', 'B', 'C', 'D', 'E', 'F', 'G']);
    s = markEvaluated(s, pass1.slice(0, 4), all);

    s = reconcileCoverage(s, all);
    const pass2 = resumeCoverageCycle(all, s);
    expect(names(pass2)).toEqual(['E', 'F', 'G', 'A', 'B', 'C', 'D']);
    s = markEvaluated(s, pass2.slice(0, 3), all);
    expect(s.get('p')).toEqual({ nodePool: 'p', cycle: 2, evaluated: new Set() });

    s = reconcileCoverage(s, all);
    expect(names(resumeCoverageCycle(all, s))).toEqual(['A', 'B', 'C', 'D', 'E', 'F', 'G']);
  });

  it('counts evaluations after the completion point towards the new cycle', () => {
    const s0 = state(['p', 4, ['A', 'B', 'C', 'D']]);
    const s1 = markEvaluated(s0, cands('p', 'E', 'F', 'G', 'A', 'B'), all);
    expect(s1.get('p')).toEqual({ nodePool: 'p', cycle: 5, evaluated: new Set(['A', 'B']) });
    expect(names(resumeCoverageCycle(all, s1))).toEqual(['C', 'D', 'E', 'F', 'G', 'A', 'B']);
  });
});

describe('resuming keeps both groups in their original order', () => {
  it.each([
    [
      ['A', 'B', 'C', 'D'],
      ['B', 'D'],
      ['A', 'C', 'B', 'D'],
    ],
    [['A', 'B', 'C', 'D'], [], ['A', 'B', 'C', 'D']],
    [['A', 'B', 'C', 'D'], ['A'], ['B', 'C', 'D', 'A']],
    [
      ['D', 'C', 'B', 'A'],
      ['C', 'A'],
      ['D', 'B', 'C', 'A'],
    ],
  ])('order %j with %j evaluated → %j', (order, evaluated, expected) => {
    const ordered = cands('p', ...order);
    expect(names(resumeCoverageCycle(ordered, state(['p', 0, evaluated])))).toEqual(expected);
  });

  it('never drops or duplicates a candidate, and does not mutate its input', () => {
    const ordered = [...cands('p', 'A', 'B'), ...cands('q', 'A', 'C')];
    const out = resumeCoverageCycle(ordered, state(['p', 0, ['A']]));
    expect(out.map((c) => `${c.nodePool}/${c.name}`)).toEqual(['p/B', 'q/A', 'q/C', 'p/A']);
    expect(ordered.map((c) => c.name)).toEqual(['A', 'B', 'A', 'C']);
  });
});

describe('reconciling with the current candidates', () => {
  it('drops candidates that disappeared and pools without candidates', () => {
    const s = reconcileCoverage(state(['p', 2, ['A', 'gone']], ['old', 7, ['X']]), cands('p', 'A', 'B'));
    expect([...s.keys()]).toEqual(['p']);
    expect(s.get('p')).toEqual({ nodePool: 'p', cycle: 2, evaluated: new Set(['A']) });
  });

  it('starts a new cycle when the remaining candidates were all evaluated (the unreached ones disappeared)', () => {
    const s = reconcileCoverage(state(['p', 2, ['A', 'B']]), cands('p', 'A', 'B'));
    expect(s.get('p')).toEqual({ nodePool: 'p', cycle: 3, evaluated: new Set() });
  });

  it('treats a new candidate as unreached, so the cycle stays open for it', () => {
    const current = cands('p', 'A', 'B', 'N');
    const s = reconcileCoverage(state(['p', 1, ['A', 'B']]), current);
    expect(names(resumeCoverageCycle(current, s))).toEqual(['N', 'A', 'B']);
  });

  it('does not start cycles for an empty walk', () => {
    expect(reconcileCoverage(state(['p', 1, ['A']]), []).size).toBe(0);
  });
});

describe('one cycle across every pool of the walk', () => {
  it('does not reset a small pool while a big pool still has unreached candidates', () => {
    const current = [...cands('small', 'x'), ...cands('big', 'a', 'b', 'c')];
    const s = markEvaluated(EMPTY_COVERAGE, cands('small', 'x'), current);
    expect(s.get('small')?.evaluated).toEqual(new Set(['x']));
    expect(names(resumeCoverageCycle(current, s))).toEqual(['a', 'b', 'c', 'x']);
  });

  it('advances every pool together once all are covered', () => {
    const current = [...cands('p', 'a'), ...cands('q', 'b')];
    const s = markEvaluated(state(['p', 3, []], ['q', 9, []]), current, current);
    expect(s.get('p')?.cycle).toBe(4);
    expect(s.get('q')?.cycle).toBe(10);
  });

  it('never mutates the state it was given, and counts a duplicated candidate once', () => {
    const before = state(['p', 0, ['a']]);
    const current = [...cands('p', 'a', 'b'), ...cands('p', 'b')];
    const after = markEvaluated(before, cands('p', 'b'), current);
    expect(before.get('p')).toEqual({ nodePool: 'p', cycle: 0, evaluated: new Set(['a']) });
    expect(after.get('p')).toEqual({ nodePool: 'p', cycle: 1, evaluated: new Set() });
  });

  it('ignores names that are not current candidates', () => {
    const s = markEvaluated(EMPTY_COVERAGE, cands('p', 'ghost'), cands('p', 'A'));
    expect(s.size).toBe(0);
  });
});

describe('the walk-cycle coverage gauge', () => {
  const current = [...cands('p', 'A', 'B', 'C', 'D'), ...cands('q', 'E')];
  const s = state(['p', 0, ['A', 'B', 'C']], ['q', 0, []]);
  it('is the fraction of current candidates evaluated this cycle, overall and per pool', () => {
    expect(coverageFraction(s, current)).toBeCloseTo(3 / 5);
    expect(coverageFraction(s, current, 'p')).toBeCloseTo(3 / 4);
    expect(coverageFraction(s, current, 'q')).toBe(0);
    expect(coverageFraction(s, [])).toBe(1);
  });
});

describe('what the pass persists', () => {
  it('adds newly evaluated names under the current cycle', () => {
    const before = state(['p', 2, ['A']]);
    const after = state(['p', 2, ['A', 'C', 'B']]);
    expect(coverageDelta(before, after)).toEqual([
      { nodePool: 'p', startCycles: [], cycle: 2, evaluated: ['B', 'C'] },
    ]);
  });

  it('starts each new cycle expecting the previous number, then records the new cycle’s names', () => {
    const before = state(['p', 2, ['A']], ['q', 0, []]);
    const after = state(['p', 4, ['B']], ['q', 0, []]);
    expect(coverageDelta(before, after)).toEqual([
      { nodePool: 'p', startCycles: [2, 3], cycle: 4, evaluated: ['B'] },
    ]);
  });

  it('starts the first cycle of a pool the store never saw (the store only loads members of a started cycle)', () => {
    expect(coverageDelta(EMPTY_COVERAGE, state(['p', 1, ['A']]))).toEqual([
      { nodePool: 'p', startCycles: [0], cycle: 1, evaluated: ['A'] },
    ]);
    expect(coverageDelta(EMPTY_COVERAGE, state(['p', 1, []]))).toEqual([]);
    expect(reconcileCoverage(EMPTY_COVERAGE, cands('p', 'A')).get('p')?.cycle).toBe(FIRST_CYCLE);
  });
});

describe('the bench:pass coverage measure (measure 4)', () => {
  it('reaches every candidate within the bound with the cycle, while the upstream order never gets past the head', () => {
    const fleet = syntheticCandidates(300, 7);
    const cost = new Map(fleet.map((c) => [c.name, c.costMs]));
    const m = measureCoverage({ sorted: fleet, costMs: (c) => cost.get(c.name) ?? 0, maxPasses: 40 });
    expect(m.budgetMs).toBeCloseTo(m.fullWalkMs / 10);
    expect(m.coverageCycle.passes).toBeLessThanOrEqual(m.bound);
    expect(m.upstream.passes).toBeUndefined();
    expect(m.upstream.reached).toBeLessThan(0.2);
    expect(formatCoverageMeasure(m)).toMatch(/coverage-cycle\s+\d+/);
  });

  it('refuses a budget fraction outside (0, 1]', () => {
    expect(() => measureCoverage({ sorted: [], costMs: () => 1, budgetFraction: 0 })).toThrow(
      /budgetFraction/,
    );
  });
});

describe("Karpenter's order", () => {
  const sorted = [...cands('a', 'a1', 'a2', 'a3'), ...cands('b', 'b1'), ...cands('c', 'c1', 'c2')];

  it('interleaves pools by position, pools by name', () => {
    expect(names(upstreamOrder(sorted))).toEqual(['a1', 'b1', 'c1', 'a2', 'c2', 'a3']);
  });

  it('puts pools a timed-out walk never reached first', () => {
    expect(names(upstreamOrder(sorted, ['c', 'missing']))).toEqual(['c1', 'a1', 'b1', 'c2', 'a2', 'a3']);
  });

  it('restarts at the head every pass: the same candidates come first whatever was evaluated', () => {
    expect(names(upstreamOrder(sorted)).slice(0, 2)).toEqual(['a1', 'b1']);
  });

  it('reports the pools the walk never reached', () => {
    const ordered = upstreamOrder(sorted);
    expect(unseenPoolsAfterWalk(ordered, 2)).toEqual(['c']);
    expect(unseenPoolsAfterWalk(ordered, 0)).toEqual(['a', 'b', 'c']);
    expect(unseenPoolsAfterWalk(ordered, ordered.length)).toEqual([]);
  });
});

describe('through the StateStore port (memory adapter)', () => {
  it('persists a pass’s progress and a completed cycle so the next pass loads the same state', async () => {
    const store = new MemoryStateStore({ now: () => new Date('2026-11-30T00:00:00Z') });
    const all = cands('p', 'A', 'B', 'C');
    const save = async (before: CoverageState, after: CoverageState) => {
      for (const w of coverageDelta(before, after)) {
        for (const expected of w.startCycles) await store.startCoverageCycle('c1', w.nodePool, expected);
        if (w.evaluated.length > 0) await store.markEvaluated('c1', w.nodePool, w.cycle, w.evaluated);
      }
    };
    // coverageDelta compares with the state exactly as loaded; the walk works on the reconciled one.
    const loaded = async () => (await store.loadPassState('c1')).coverage;

    const raw0 = await loaded();
    const s1 = markEvaluated(reconcileCoverage(raw0, all), cands('p', 'A', 'B'), all);
    await save(raw0, s1);
    expect((await loaded()).get('p')).toEqual({ nodePool: 'p', cycle: 1, evaluated: new Set(['A', 'B']) });

    const raw1 = await loaded();
    const s3 = markEvaluated(reconcileCoverage(raw1, all), cands('p', 'C', 'A'), all);
    await save(raw1, s3);
    expect((await loaded()).get('p')).toEqual({ nodePool: 'p', cycle: 2, evaluated: new Set(['A']) });
  });
});
