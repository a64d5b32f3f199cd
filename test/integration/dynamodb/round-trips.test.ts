// Round trips per pass on DynamoDB Local (issue 4, item 5): loading a pass's state costs the same number of
// requests at 100 and at 1,000 nodes, and writing it back costs one request per 25 changed items.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDynamoDbLocal } from '../../support/dynamodb/dynamodb-local.ts';
import { ManualClock } from '../../fakes/manual-clock.ts';
import { fleetShape, passSteps, seedPassState } from '../../support/dynamodb/pass-fixture.ts';
import { startStateTable } from '../../support/dynamodb/state-table.ts';
import type { StateTable } from '../../support/dynamodb/state-table.ts';

let table: StateTable;
beforeAll(async () => {
  table = await startStateTable(() => startDynamoDbLocal());
});
afterAll(async () => {
  await table?.close();
});

describe('round trips per consolidation pass (DynamoDB Local)', () => {
  it('loads the whole pass state in two parallel Queries at 100 and at 1,000 nodes', async () => {
    const counts: Record<number, Record<string, number>> = {};
    for (const nodes of [100, 1_000]) {
      const clock = new ManualClock();
      const store = table.store(clock);
      const cluster = `rt-${nodes}`;
      await seedPassState(store, cluster, clock, fleetShape(nodes));
      store.roundTrips.reset();
      const state = await store.loadPassState(cluster);
      counts[nodes] = store.roundTrips.byOperation();
      expect(state.negativeCache.size).toBe(nodes);
      expect([...state.coverage.values()].reduce((n, c) => n + c.evaluated.size, 0)).toBe(nodes);
      expect(state.openCommands).toHaveLength(5);
    }
    expect(counts[100]).toEqual({ Query: 2 });
    expect(counts[1_000]).toEqual(counts[100]);
  });

  it('takes and releases the pass lease in one request each and batches the write-back 25 items per request', async () => {
    const clock = new ManualClock();
    const store = table.store(clock);
    const shape = fleetShape(200);
    await seedPassState(store, 'rt-steps', clock, shape);
    const steps = passSteps(store, 'rt-steps', clock, shape, 'evt-1');
    const trips: Record<string, number> = {};
    for (const [name, step] of Object.entries(steps)) {
      store.roundTrips.reset();
      await step();
      trips[name] = store.roundTrips.total;
    }
    // 200 negative entries → 8 requests; 200 coverage members over 8 pools of 25 → 8 requests.
    expect(trips).toEqual({ acquire: 1, load: 2, persist: 16, release: 1 });
  });

  it('reads a pass state larger than one 1 MB page in full, one more Query per page', async () => {
    const clock = new ManualClock();
    const store = table.store(clock);
    const later = new Date(clock.now().getTime() + 300_000);
    // 300 entries × ~4 KB (the longest fingerprint allowed) ≈ 1.2 MB: two pages of the pass partition.
    const entries = Array.from({ length: 300 }, (_, i) => ({
      candidate: `node-${i}`,
      fingerprint: `${i}:`.padEnd(4_096, 'f'),
      expiresAt: later,
    }));
    await store.putNegativeEntries('rt-pages', 0, entries);
    store.roundTrips.reset();
    const state = await store.loadPassState('rt-pages');
    expect(state.negativeCache.size).toBe(300);
    expect(state.negativeCache.get('node-299')?.fingerprint).toBe(entries[299]?.fingerprint);
    expect(store.roundTrips.byOperation()).toEqual({ Query: 3 });
  });
});
