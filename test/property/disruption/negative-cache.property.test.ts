// Properties of the negative cache: a hit means exactly "this candidate's no-op, same fingerprint, same epoch,
// unexpired"; with skipping on, the cache can delay a consolidation (by less than the TTL) but never cause one.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  clearNegativeCache,
  lookupNegative,
  negativeCache,
  rememberVerdict,
  shouldSkip,
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
            last.set(o.candidate, { fp: o.fp, verdict: o.verdict, at: now });
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
      { numRuns: 500 },
    );
  });

  it('with skipping on, every proposal is one the full simulation makes, and a consolidation is delayed by less than the TTL', () => {
    // Candidates with a fingerprinted state and a hidden price the fingerprint cannot see (spot prices).
    const timeline = fc.array(
      fc.record({
        state: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 3, maxLength: 3 }),
        hidden: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
        commandCompleted: fc.boolean(),
      }),
      { minLength: 1, maxLength: 30 },
    );
    const verdict = (state: number, hidden: boolean): SimulatedVerdict =>
      state === 2 || (state === 1 && hidden) ? 'replace' : 'no-op';
    fc.assert(
      fc.property(timeline, (passes) => {
        let cache = negativeCache();
        const actionableSince = new Map<number, number>();
        passes.forEach((p, i) => {
          const now = new Date(T0 + i * 60_000);
          if (p.commandCompleted) cache = clearNegativeCache(cache);
          p.state.forEach((state, c) => {
            const truth = verdict(state, p.hidden[c] ?? false);
            const fingerprint = `s${state}`;
            const lookup = lookupNegative(cache, `n${c}`, fingerprint, now);
            let proposed = false;
            if (!shouldSkip(lookup, { skipUnchangedNegatives: true })) {
              const simulated = verdict(state, p.hidden[c] ?? false);
              cache = rememberVerdict(cache, `n${c}`, fingerprint, simulated, now, TTL);
              proposed = simulated !== 'no-op';
            }
            // Never causes one: a proposal is always the full simulation's answer now.
            if (proposed) expect(truth).not.toBe('no-op');
            // Delays by less than the TTL: actionable continuously for a TTL ⇒ proposed.
            if (truth === 'no-op') actionableSince.delete(c);
            else if (!actionableSince.has(c)) actionableSince.set(c, now.getTime());
            if (!proposed && truth !== 'no-op')
              expect(now.getTime() - (actionableSince.get(c) as number)).toBeLessThan(TTL);
          });
          cache = sweepNegativeCache(cache, now).cache;
        });
      }),
      { numRuns: 300 },
    );
  });
});
