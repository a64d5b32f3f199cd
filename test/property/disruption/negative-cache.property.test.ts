// Properties of the negative cache: a hit means exactly "this candidate's no-op, same fingerprint, same epoch,
// unexpired since it was first computed". That skipping can delay a consolidation but never cause one is
// checked against real simulations in pass-negative-cache.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../seed.ts';
import {
  clearNegativeCache,
  lookupNegative,
  negativeCache,
  rememberVerdict,
  sweepNegativeCache,
  type NegativeCache,
  type SimulatedVerdict,
} from '../../../shared/disruption/negative-cache.ts';

const T0 = Date.UTC(2026, 10, 30);
const TTL = 300_000;
const CANDIDATES = ['a', 'b', 'c'];
const FPS = ['f1', 'f2', 'f3'];

type Op =
  | { kind: 'remember'; candidate: string; fp: string | undefined; verdict: SimulatedVerdict }
  | { kind: 'lookup'; candidate: string; fp: string | undefined }
  | { kind: 'clear' }
  | { kind: 'sweep' }
  | { kind: 'tick'; ms: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('remember' as const),
    candidate: fc.constantFrom(...CANDIDATES),
    fp: fc.option(fc.constantFrom(...FPS), { nil: undefined }),
    verdict: fc.constantFrom<SimulatedVerdict>('no-op', 'delete', 'replace'),
  }),
  fc.record({
    kind: fc.constant('lookup' as const),
    candidate: fc.constantFrom(...CANDIDATES),
    fp: fc.option(fc.constantFrom(...FPS), { nil: undefined }),
  }),
  fc.constant({ kind: 'clear' as const }),
  fc.constant({ kind: 'sweep' as const }),
  fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 200_000 }) }),
);

describe('negative cache properties', () => {
  it('hits only for the last no-op of that candidate, with that exact fingerprint, since the last clear, within the TTL', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        let cache: NegativeCache = negativeCache();
        let now = T0;
        // Reference model: the last verdict recorded per candidate since the last clear.
        let last = new Map<string, { fp: string | undefined; verdict: SimulatedVerdict; at: number }>();
        for (const o of ops) {
          if (o.kind === 'remember') {
            cache = rememberVerdict(cache, o.candidate, o.fp, o.verdict, new Date(now), TTL);
            // re-storing the same unexpired no-op keeps its first time: the TTL counts from the first verdict
            const prev = last.get(o.candidate);
            const same =
              prev !== undefined &&
              o.verdict === 'no-op' &&
              prev.verdict === 'no-op' &&
              o.fp !== undefined &&
              prev.fp === o.fp &&
              now < prev.at + TTL;
            last.set(o.candidate, { fp: o.fp, verdict: o.verdict, at: same ? prev.at : now });
          } else if (o.kind === 'clear') {
            cache = clearNegativeCache(cache);
            last = new Map();
          } else if (o.kind === 'sweep') {
            cache = sweepNegativeCache(cache, new Date(now)).cache;
          } else if (o.kind === 'tick') {
            now += o.ms;
          } else {
            const got = lookupNegative(cache, o.candidate, o.fp, new Date(now)).result === 'hit';
            const m = last.get(o.candidate);
            const expected =
              m !== undefined &&
              m.verdict === 'no-op' &&
              m.fp !== undefined &&
              m.fp === o.fp &&
              now < m.at + TTL;
            expect(got).toBe(expected);
          }
        }
      }),
      propertyRuns(),
    );
  });
});
