// The census use case against the emulator and the memory store: counts stored per NodePool, the actionable
// gauge published, nothing acted on, and nodes of open commands counted as leaving.
import { afterEach, describe, expect, it } from 'vitest';
import { passOptions } from '../../../shared/disruption/types.ts';
import { census } from '../../../shared/loop/census.ts';
import { LOOP_METRICS } from '../../../shared/loop/disruption-metrics.ts';
import { node, nodePool, pod } from '../disruption/fixtures.ts';
import { startWorld, type World } from './harness.ts';

const options = passOptions({});
let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('census', () => {
  it('stores per-pool counts and publishes the actionable candidates without acting', async () => {
    world = await startWorld([
      nodePool('default'),
      node('big', { type: 's-16' }),
      pod('most', { node: 'big', cpu: '7' }),
      node('empty', { type: 's-2' }),
    ]);
    const sweep = await census(world.deps(), { cluster: 'c1', owner: 'census-1', options });
    // The empty node is emptiness's to take, reported apart from actionable consolidation.
    const counts = { delete: 0, replace: 1, none: 0, empty: 1, drifted: 0, unreached: 0 };
    expect(sweep.nodePools.default).toEqual(counts);
    expect(await world.store.listCensus('c1')).toEqual([
      {
        nodePool: 'default',
        candidates: 2,
        counts,
        at: world.clock.now(),
      },
    ]);
    expect(world.metrics.total(LOOP_METRICS.consolidationActionableCandidates, { decision: 'replace' })).toBe(
      1,
    );
    expect(world.metrics.total(LOOP_METRICS.consolidationActionableCandidates, { decision: 'delete' })).toBe(
      0,
    );
    expect((await world.cluster.readSnapshot()).objects.nodes).toHaveLength(2);
    expect((await world.cluster.readSnapshot()).objects.nodeClaims).toEqual([]);
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
    const sweep = await census(world.deps(), { cluster: 'c1', owner: 'census-2', options });
    expect(sweep.nodePools.default).toMatchObject({ delete: 0, replace: 0, empty: 0, none: 1 });
  });
});
