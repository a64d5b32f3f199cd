// The fork's walk memory across passes: the coverage cycle resumes a timed-out walk behind what it already
// reached (upstream restarts at the head), and the negative cache observes by default, skips unchanged no-ops
// only when switched on, fails closed without a fingerprint, and keeps a skipping pass from calling the fleet consolidated.
import { describe, expect, it } from 'vitest';
import { runPass, type PassResult } from '../../../shared/disruption/pass.ts';
import type { WalkHints } from '../../../shared/disruption/method.ts';
import { passOptions, type PassOptions } from '../../../shared/disruption/types.ts';
import { noOpFleet } from '../../support/disruption/versioned-fleet.ts';
import { node, NOW, nodePool, pod, snapshotOf } from './fixtures.ts';

type Obj = Record<string, unknown>;

// Nodes that each simulate to a no-op; `version` is their pods' resource version.
const stuck = (count: number, version = '1'): Obj[] =>
  noOpFleet(count, { versions: { node: '10', pod: version, claim: '20' } });

function pass(objs: Obj[], options: Partial<PassOptions>, hints?: WalkHints, ticks = false): PassResult {
  let t = 0;
  // Each read of the stopwatch advances it, so a small walk budget times out part-way through.
  const stopwatch = { elapsedMs: () => (ticks ? (t += 1) : 0) };
  return runPass({ snapshot: snapshotOf(objs), now: NOW, options: passOptions(options), stopwatch, hints });
}

// Candidates a walk never reached are not listed; every reached one of this fleet simulates to a no-op.
const reachedIn = (r: PassResult): string[] => r.skipped.map((s) => s.node);
const ALL = ['n0', 'n1', 'n2', 'n3', 'n4', 'n5'];

describe('the coverage cycle', () => {
  const fleet = stuck(6);
  const budget = { singleNodeTimeoutMs: 50 }; // stopwatch reads; the solve reads it between pods too

  it('resumes a timed-out walk behind the candidates it already reached', () => {
    const first = pass(fleet, budget, undefined, true);
    expect(first.timedOut).toBe(true);
    const reached = reachedIn(first);
    expect(reached.length).toBeGreaterThan(0);
    const unreached = ALL.filter((n) => !reached.includes(n));
    expect(unreached.length).toBeGreaterThan(0);
    const second = pass(fleet, budget, first.memory, true);
    const next = reachedIn(second);
    // the second walk starts with the unreached: it reaches all of them, or nothing else
    if (unreached.every((n) => next.includes(n))) expect(next.length).toBeGreaterThan(unreached.length - 1);
    else expect(next.filter((n) => !unreached.includes(n))).toEqual([]);
    expect(next.some((n) => unreached.includes(n))).toBe(true);
  });

  it('upstream restarts at the head every pass', () => {
    const first = pass(fleet, { ...budget, upstream: true }, undefined, true);
    const second = pass(fleet, { ...budget, upstream: true }, first.memory, true);
    expect(reachedIn(second)).toEqual(reachedIn(first));
  });

  it('reaches every candidate within a few passes', () => {
    let memory: WalkHints | undefined;
    const seen = new Set<string>();
    for (let i = 0; i < 6 && seen.size < 6; i++) {
      const r = pass(fleet, budget, memory, true);
      for (const n of reachedIn(r)) seen.add(n);
      memory = r.memory;
    }
    expect(seen.size).toBe(6);
  });
});

describe('the negative cache', () => {
  const fleet = stuck(2);
  const first = pass(fleet, {});

  it('remembers no-op verdicts of candidates it can fingerprint', () => {
    expect([...(first.memory.negativeCache?.entries.keys() ?? [])]).toEqual(['n0', 'n1']);
    expect(first.outcome).toBe('consolidated');
  });

  it('only observes by default: the candidates are simulated again and the hits counted', () => {
    const r = pass(fleet, {}, first.memory);
    expect(r.skipped.map((s) => s.reason)).toEqual(['no-cheaper-replacement', 'no-cheaper-replacement']);
    expect(r.negativeTally?.byResult.hit).toBe(2);
  });

  it('skips unchanged no-ops when switched on, and then cannot call the fleet consolidated', () => {
    const r = pass(fleet, { skipUnchangedNegatives: true }, first.memory);
    expect(r.skipped.map((s) => s.reason)).toEqual(['cached-negative', 'cached-negative']);
    expect(r.negativeTally?.skipped).toEqual(['n0', 'n1']);
    expect(r.outcome).toBe('no-proposals');
  });

  it('simulates again when a pod that would move changed', () => {
    const r = pass(stuck(2, '2'), { skipUnchangedNegatives: true }, first.memory);
    expect(r.skipped.map((s) => s.reason)).toEqual(['no-cheaper-replacement', 'no-cheaper-replacement']);
    expect(r.negativeTally?.byResult.changed).toBe(2);
  });

  it('fails closed for a claim derived from node labels (no version, no fingerprint)', () => {
    const derived = [
      nodePool('default'),
      node('d0', { type: 's-4' }),
      pod('d0-app', { node: 'd0', cpu: '3' }),
    ];
    const r1 = pass(derived, { skipUnchangedNegatives: true });
    const r2 = pass(derived, { skipUnchangedNegatives: true }, r1.memory);
    expect(r2.skipped).toEqual([
      { node: 'd0', reason: 'no-cheaper-replacement', method: 'single-node-consolidation' },
    ]);
    expect(r2.negativeTally?.byResult['no-fingerprint']).toBe(1);
  });

  it('is not used in upstream mode', () => {
    const r = pass(fleet, { upstream: true, skipUnchangedNegatives: true }, first.memory);
    expect(r.skipped.map((s) => s.reason)).toEqual(['no-cheaper-replacement', 'no-cheaper-replacement']);
  });
});

describe('the per-candidate budget (consolidation-candidate-timeout)', () => {
  const fleet = [nodePool('default'), node('n0', { type: 's-16' }), pod('n0-app', { node: 'n0', cpu: '3' })];

  it('abandons a candidate whose simulation overran its budget', () => {
    const r = pass(fleet, { candidateTimeoutMs: 5 }, undefined, true);
    expect(r.commands).toEqual([]);
    expect(r.skipped).toEqual([{ node: 'n0', reason: 'timed-out', method: 'single-node-consolidation' }]);
  });

  it('has no per-candidate budget upstream', () => {
    const r = pass(fleet, { candidateTimeoutMs: 5, upstream: true }, undefined, true);
    expect(r.commands).toHaveLength(1);
  });
});
