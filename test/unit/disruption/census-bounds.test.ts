// The census is bounded and tells apart what it found: a time budget (five minutes by default) whose
// truncation shows in the result and its metrics, and drift and emptiness counted apart from consolidation.
import { describe, expect, it } from 'vitest';
import { censusMetrics, runCensus, CENSUS_TIMEOUT_MS } from '../../../shared/disruption/census.ts';
import { passOptions } from '../../../shared/disruption/types.ts';
import { node, NOW, nodePool, pod, snapshotOf } from './fixtures.ts';

type Obj = Record<string, unknown>;
const busy = (name: string, pool = 'default'): Obj[] => [
  node(name, { type: 's-16', pool }),
  pod(`${name}-app`, { node: name, cpu: '3' }),
];

describe('the census budget', () => {
  const fleet = [nodePool('default'), ...['a', 'b', 'c', 'd', 'e', 'f'].flatMap((n) => busy(n))];

  it('defaults to five minutes', () => {
    expect(CENSUS_TIMEOUT_MS).toBe(5 * 60_000);
    const r = runCensus(snapshotOf(fleet), NOW, passOptions({}));
    expect(r.truncated).toBe(false);
    expect(r.reached).toBe(6);
    expect(r.nodePools.default?.unreached).toBe(0);
  });

  it('stops simulating when the budget runs out and says so in the result and its metrics', () => {
    // A clock that ticks once per read. How often a candidate's simulation reads it is the simulation's business
    // (the delta and the full one differ), so the budget is half the ticks an unbounded census of this fleet takes:
    // it runs out part-way through the sweep, whatever a candidate costs.
    const ticking = () => {
      let t = 0;
      return { elapsedMs: () => (t += 1), ticks: () => t };
    };
    const whole = ticking();
    runCensus(snapshotOf(fleet), NOW, passOptions({}), whole);
    const r = runCensus(snapshotOf(fleet), NOW, passOptions({}), ticking(), {
      timeoutMs: Math.floor(whole.ticks() / 2),
    });
    expect(r.truncated).toBe(true);
    expect(r.reached).toBeGreaterThan(0);
    expect(r.reached).toBeLessThan(6);
    // candidates it did not reach are not given a verdict; they are counted as unreached
    expect(r.candidates).toHaveLength(r.reached);
    expect(r.nodePools.default?.unreached).toBe(6 - r.reached);
    const metrics = censusMetrics(r);
    expect(metrics).toContainEqual({ name: 'kraftsman_disruption_census_truncated', value: 1, labels: {} });
    expect(metrics).toContainEqual({
      name: 'kraftsman_disruption_census_nodes',
      value: 6 - r.reached,
      labels: { nodepool: 'default', decision: 'unreached' },
    });
  });
});

describe('what the census counts', () => {
  const driftedPool = nodePool('drifted', {});
  (driftedPool.metadata as Obj).annotations = {
    'karpenter.sh/nodepool-hash': 'new',
    'karpenter.sh/nodepool-hash-version': 'v3',
  };
  const drifted = node('old', { type: 's-4', pool: 'drifted' });
  (drifted.metadata as Obj).annotations = {
    'karpenter.sh/nodepool-hash': 'old',
    'karpenter.sh/nodepool-hash-version': 'v3',
  };
  const fleet = [
    nodePool('default'),
    driftedPool,
    node('empty', { type: 's-2' }),
    ...busy('big'),
    drifted,
    pod('old-app', { node: 'old', cpu: '3' }),
  ];
  const r = runCensus(snapshotOf(fleet), NOW, passOptions({}));

  it('counts drift and emptiness as shares of the decisions they make', () => {
    expect(r.candidates.map((c) => [c.node, c.decision, c.method])).toEqual([
      ['big', 'replace', 'single-node-consolidation'],
      ['empty', 'delete', 'emptiness'],
      ['old', 'delete', 'drift'], // its pod fits on big
    ]);
    expect(r.nodePools.default).toEqual({
      delete: 1,
      replace: 1,
      none: 0,
      empty: 1,
      drifted: 0,
      unreached: 0,
    });
    expect(r.nodePools.drifted).toEqual({
      delete: 1,
      replace: 0,
      none: 0,
      empty: 0,
      drifted: 1,
      unreached: 0,
    });
  });
});
