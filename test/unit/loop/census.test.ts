// The census use case against the emulator and the memory store: counts stored per NodePool, the actionable
// gauge published, nothing acted on, nodes of open commands counted as leaving, the lease held against an
// overlapping start (owner per attempt), and a budget cut visible as the number left unsimulated.
import { afterEach, describe, expect, it } from 'vitest';
import { KRAFTSMAN_METRICS } from '../../../shared/disruption/metric-names.ts';
import { passOptions } from '../../../shared/disruption/types.ts';
import { census, type CensusOutcome } from '../../../shared/loop/census.ts';
import { LOOP_METRICS } from '../../../shared/loop/disruption-metrics.ts';
import type { Clock } from '../../../shared/ports/clock.ts';
import { node, nodePool, pod } from '../disruption/fixtures.ts';
import { startWorld, type World } from './harness.ts';

const options = passOptions({});
const request = (owner: string, extra: { budgetMs?: number; runId?: string } = {}) => ({
  cluster: 'c1',
  owner,
  options,
  leaseTtlMs: 7 * 60_000,
  ...extra,
});
const ran = (r: CensusOutcome) => {
  if (r.outcome !== 'ran') throw new Error(`census lease held by ${r.holder}`);
  return r;
};
let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** A clock that moves one millisecond each time it is read: a sweep's budget runs out after a known number of reads. */
const ticking = (base: Clock): Clock => {
  let ticks = 0;
  return { now: () => new Date(base.now().getTime() + ++ticks) };
};

describe('census', () => {
  it('stores per-pool counts and publishes the actionable candidates without acting', async () => {
    world = await startWorld([
      nodePool('default'),
      node('big', { type: 's-16' }),
      pod('most', { node: 'big', cpu: '7' }),
      node('empty', { type: 's-2' }),
    ]);
    const r = ran(await census(world.deps(), request('census-1')));
    // The empty node is emptiness's to take: a delete, and emptiness's share of it.
    const counts = { delete: 1, replace: 1, none: 0, empty: 1, drifted: 0, unreached: 0 };
    expect(r.sweep.nodePools.default).toEqual(counts);
    expect(r.unreached).toBe(0);
    expect(await world.store.listCensus('c1')).toEqual([
      { nodePool: 'default', candidates: 2, counts, at: world.clock.now() },
    ]);
    const m = world.metrics;
    const actionable = LOOP_METRICS.consolidationActionableCandidates;
    expect(m.total(actionable, { nodepool: 'default', decision: 'replace' })).toBe(1);
    expect(m.total(actionable, { nodepool: 'default', decision: 'delete' })).toBe(1);
    expect(m.total(KRAFTSMAN_METRICS.censusNodes, { nodepool: 'default', decision: 'empty' })).toBe(1);
    expect(m.total(KRAFTSMAN_METRICS.censusCandidates, { nodepool: 'default' })).toBe(2);
    expect(m.total(KRAFTSMAN_METRICS.censusTruncated)).toBe(0);
    expect(m.total(LOOP_METRICS.censusUnreached)).toBe(0);
    expect(m.records.filter((x) => x.name === LOOP_METRICS.censusDurationSeconds)).toHaveLength(1);
    expect((await world.cluster.readSnapshot()).objects.nodes).toHaveLength(2);
    expect((await world.cluster.readSnapshot()).objects.nodeClaims).toEqual([]);
    // The lease was released: the next firing sweeps again.
    expect((await census(world.deps(), request('census-1b'))).outcome).toBe('ran');
  });

  it('does not count a node an open command already names as actionable', async () => {
    world = await startWorld([nodePool('default'), node('empty', { type: 's-8' })]);
    const lock = await world.store.acquireLease({
      cluster: 'c1',
      name: 'admission',
      owner: 'a',
      ttlMs: 60_000,
    });
    await world.store.admitCommand(lock, {
      id: 'open-1',
      method: 'emptiness',
      decision: 'delete',
      candidates: ['empty'],
      replacements: [],
    });
    const r = ran(await census(world.deps(), request('census-2')));
    expect(r.sweep.nodePools.default).toMatchObject({ delete: 0, replace: 0, empty: 0, none: 1 });
  });

  it('is held while another attempt sweeps, and refuses a second delivery of the same firing', async () => {
    world = await startWorld([nodePool('default'), node('empty', { type: 's-2' })]);
    const other = await world.store.acquireLease({
      cluster: 'c1',
      name: 'census',
      owner: 'r1.n1',
      ttlMs: 60_000,
    });
    const held = await census(world.deps(), request('r1.n2'));
    expect(held).toEqual({ outcome: 'held', holder: 'r1.n1', reason: 'held' });
    expect(await world.store.listCensus('c1')).toEqual([]);
    await world.store.releaseLease(other);
    ran(await census(world.deps(), request('r2.n1', { runId: 'firing-7' })));
    const again = await census(world.deps(), request('r2.n2', { runId: 'firing-7' }));
    expect(again).toMatchObject({ outcome: 'held', reason: 'same-run' });
  });

  it('makes a budget cut visible: truncated, and how many candidates were left unsimulated', async () => {
    const busy = ['a', 'b', 'c', 'd', 'e', 'f'].flatMap((n) => [
      node(n, { type: 's-16' }),
      pod(`${n}-app`, { node: n, cpu: '3' }),
    ]);
    world = await startWorld([nodePool('default'), ...busy]);
    const deps = { ...world.deps(), clock: ticking(world.clock) };
    const r = ran(await census(deps, request('census-4', { budgetMs: 4 })));
    expect(r.sweep.truncated).toBe(true);
    expect(r.sweep.reached).toBeGreaterThan(0);
    expect(r.unreached).toBe(6 - r.sweep.reached);
    expect(r.unreached).toBeGreaterThan(0);
    const m = world.metrics;
    expect(m.total(LOOP_METRICS.censusUnreached)).toBe(r.unreached);
    expect(m.total(LOOP_METRICS.censusTruncatedTotal)).toBe(1);
    expect(m.total(KRAFTSMAN_METRICS.censusTruncated)).toBe(1);
    expect(m.total(KRAFTSMAN_METRICS.censusNodes, { decision: 'unreached' })).toBe(r.unreached);
    expect(m.total(KRAFTSMAN_METRICS.censusCandidates, { nodepool: 'default' })).toBe(r.sweep.reached);
    // The stored result carries the cut too, so a reader of the table sees the counts are partial.
    const [stored] = await world.store.listCensus('c1');
    expect(stored?.counts.unreached).toBe(r.unreached);
    expect(stored?.candidates).toBe(6);
  });
});
