// Properties of the coverage cycle: every candidate is reached within ⌈n / perPass⌉ + 1 passes; resuming is a
// stable permutation; a position hint only (the multiset of candidates a pass sees never changes).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../seed.ts';
import {
  markEvaluated,
  reconcileCoverage,
  resumeCoverageCycle,
  upstreamOrder,
  type CoverageCandidate,
  type CoverageState,
} from '../../../shared/disruption/coverage-cycle.ts';
import { measureCoverage } from '../../bench/coverage-measure.ts';

const fleet = fc
  .array(fc.tuple(fc.constantFrom('p', 'q', 'r', 's'), fc.integer({ min: 0, max: 60 })), {
    minLength: 1,
    maxLength: 80,
  })
  .map((pairs) => {
    const seen = new Map<string, CoverageCandidate>();
    for (const [pool, i] of pairs) seen.set(`${pool}/${i}`, { nodePool: pool, name: `n${i}` });
    return [...seen.values()];
  });

/** A previous cycle's leftovers: some current names, some names of nodes that are gone. */
const priorState = (current: readonly CoverageCandidate[]) =>
  fc
    .tuple(
      fc.subarray([...current]),
      fc.array(fc.integer({ min: 100, max: 120 }), { maxLength: 5 }),
      fc.nat(50),
    )
    .map(([done, gone, cycle]) => {
      const out = new Map<string, { nodePool: string; cycle: number; evaluated: Set<string> }>();
      for (const c of [...done, ...gone.map((g) => ({ nodePool: 'p', name: `gone${g}` }))]) {
        const e = out.get(c.nodePool) ?? { nodePool: c.nodePool, cycle, evaluated: new Set<string>() };
        e.evaluated.add(c.name);
        out.set(c.nodePool, e);
      }
      return out as CoverageState;
    });

const id = (c: CoverageCandidate) => `${c.nodePool}/${c.name}`;

describe('coverage cycle properties', () => {
  it('reaches every candidate within ceil(n / perPass) + 1 passes when each pass evaluates perPass from the resumed order', () => {
    // The state at the start of the window is one the walk itself produced (warm-up passes with other budgets):
    // a mid-cycle set is then the head of the order, which the next cycle reaches first.
    fc.assert(
      fc.property(
        fleet.chain((current) =>
          fc.tuple(
            fc.constant(current),
            fc.array(fc.integer({ min: 1, max: current.length }), { maxLength: 6 }),
            fc.integer({ min: 1, max: current.length }),
          ),
        ),
        ([current, warmUp, perPass]) => {
          const ordered = upstreamOrder(current);
          const pass = (s: CoverageState, budget: number) => {
            const r = reconcileCoverage(s, current);
            const walk = resumeCoverageCycle(ordered, r).slice(0, budget);
            return { walk, state: markEvaluated(r, walk, current) };
          };
          let s: CoverageState = new Map();
          for (const budget of warmUp) s = pass(s, budget).state;
          const reached = new Set<string>();
          for (let i = 0; i < Math.ceil(current.length / perPass) + 1; i++) {
            const out = pass(s, perPass);
            for (const c of out.walk) reached.add(id(c));
            s = out.state;
          }
          expect(reached.size).toBe(current.length);
        },
      ),
      propertyRuns(),
    );
  });

  it('still reaches every candidate within the bound when candidates disappear mid-cycle', () => {
    fc.assert(
      fc.property(
        fleet.chain((current) =>
          fc.tuple(fc.constant(current), priorState(current), fc.integer({ min: 1, max: current.length })),
        ),
        ([current, prior, perPass]) => {
          // A prior cycle whose set also names vanished nodes: those are pruned and cannot hold the cycle open.
          const ordered = upstreamOrder(current);
          const start = reconcileCoverage(prior, current);
          const unreached = current.filter((c) => start.get(c.nodePool)?.evaluated.has(c.name) !== true);
          let s = start;
          const reached = new Set<string>();
          for (let i = 0; i < Math.ceil(unreached.length / perPass); i++) {
            const walk = resumeCoverageCycle(ordered, reconcileCoverage(s, current)).slice(0, perPass);
            for (const c of walk) reached.add(id(c));
            s = markEvaluated(reconcileCoverage(s, current), walk, current);
          }
          for (const c of unreached) expect(reached.has(id(c))).toBe(true);
        },
      ),
      propertyRuns(),
    );
  });

  it('with a time budget, uneven costs and unseen pools first (the real walk), every candidate is reached within ⌈walk / budget⌉ + 1 passes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('p', 'q', 'r', 's', 't'), fc.integer({ min: 1, max: 1000 })), {
          minLength: 1,
          maxLength: 150,
        }),
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        (pairs, fraction) => {
          const sorted = pairs.map(([pool, cost], i) => ({ name: `n${i}`, nodePool: pool, cost }));
          const m = measureCoverage({ sorted, costMs: (c) => c.cost, budgetFraction: fraction });
          expect(m.coverageCycle.passes).toBeDefined();
          expect(m.coverageCycle.passes).toBeLessThanOrEqual(m.bound);
        },
      ),
      propertyRuns(),
    );
  });

  it('the upstream order with the same budget can starve the tail (why the cycle exists)', () => {
    const current = Array.from({ length: 20 }, (_, i) => ({
      nodePool: 'p',
      name: `n${String(i).padStart(2, '0')}`,
    }));
    const reached = new Set<string>();
    for (let pass = 0; pass < 10; pass++)
      for (const c of upstreamOrder(current).slice(0, 2)) reached.add(c.name);
    expect(reached.size).toBe(2);
  });

  it('resuming is a stable permutation: same candidates, evaluated ones last, each group in its original order', () => {
    fc.assert(
      fc.property(
        fleet.chain((current) =>
          fc.tuple(fc.shuffledSubarray(current, { minLength: current.length }), priorState(current)),
        ),
        ([ordered, s]) => {
          const out = resumeCoverageCycle(ordered, s);
          expect([...out].map(id).sort()).toEqual([...ordered].map(id).sort());
          const evaluated = (c: CoverageCandidate) => s.get(c.nodePool)?.evaluated.has(c.name) === true;
          const firstReached = out.findIndex(evaluated);
          if (firstReached >= 0) expect(out.slice(firstReached).every(evaluated)).toBe(true);
          expect(out.filter((c) => !evaluated(c)).map(id)).toEqual(
            ordered.filter((c) => !evaluated(c)).map(id),
          );
          expect(out.filter(evaluated).map(id)).toEqual(ordered.filter(evaluated).map(id));
        },
      ),
      propertyRuns(),
    );
  });

  it('the evaluated sets only ever hold current candidates after reconciling and marking', () => {
    fc.assert(
      fc.property(
        fleet.chain((current) => fc.tuple(fc.constant(current), priorState(current), fc.subarray(current))),
        ([current, prior, walk]) => {
          const live = new Set(current.map(id));
          const s = markEvaluated(reconcileCoverage(prior, current), walk, current);
          for (const [pool, c] of s) for (const n of c.evaluated) expect(live.has(`${pool}/${n}`)).toBe(true);
        },
      ),
      propertyRuns(),
    );
  });
});
