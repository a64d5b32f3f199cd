// The pass write-back on DynamoDB Local (docs/mechanisms/negative-cache.md, "Write-back"): through the real
// consolidation pass and the real SDK client, a second pass over an unchanged fleet writes nothing, a pass with
// k changed candidates writes exactly those k entries, a lost lease writes nothing, and a write-back cut off
// between its batches leaves a store the next pass converges from.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passOptions } from '../../../shared/disruption/types.ts';
import { disruptionPass } from '../../../shared/loop/disruption-pass.ts';
import { StoreUnavailableError } from '../../../shared/ports/state-store/errors.ts';
import { ManualClock } from '../../fakes/manual-clock.ts';
import { RecordingMetrics } from '../../fakes/recording-metrics.ts';
import { noOpFleet } from '../../fixtures/fleet/no-op-fleet.ts';
import { startDynamoDbLocal } from '../../support/dynamodb/dynamodb-local.ts';
import { startFaultProxy, type FaultProxy } from '../../support/dynamodb/fault-proxy.ts';
import { startStateTable, type StateTable } from '../../support/dynamodb/state-table.ts';
import { countingStore, type CountingStore } from '../../support/dynamodb/write-counter.ts';
import { NOW, snapshotOf } from '../../unit/disruption/fixtures.ts';

let table: StateTable;
let proxy: FaultProxy;
const opened: CountingStore[] = [];
beforeAll(async () => {
  table = await startStateTable(() => startDynamoDbLocal());
  proxy = await startFaultProxy(table.server.endpoint);
});
afterAll(async () => {
  for (const s of opened) s.destroy();
  await proxy?.stop();
  await table?.close();
});

const NODES = 60;
const name = (i: number): string => `n${String(i).padStart(4, '0')}`;
let clusters = 0;

function setup(options: { endpoint?: string } = {}) {
  const clock = new ManualClock(NOW.getTime());
  const counting = countingStore(table, clock, { ...options, requestTimeoutMs: 10_000 });
  opened.push(counting);
  const cluster = `write-back-${++clusters}`;
  const pass = (changed: ReadonlySet<string> = new Set(), signal?: AbortSignal) =>
    disruptionPass(
      { store: counting.store, clock, metrics: new RecordingMetrics() },
      { cluster, snapshot: snapshotOf(noOpFleet(NODES, changed)), options: passOptions({}), signal },
    );
  return { clock, counting, cluster, pass };
}

describe('a pass writes back only what changed (DynamoDB Local, counted at the SDK client)', () => {
  it('a second pass over an unchanged fleet sends no write at all', async () => {
    const { clock, counting, pass } = setup();
    await pass();
    expect(counting.count().puts.filter((sk) => sk.startsWith('NEG#'))).toHaveLength(NODES);
    clock.advance(60_000);
    counting.reset();
    const r = await pass();
    expect(r.outcome).toBe('unchanged');
    expect(counting.count()).toEqual({ calls: {}, batchCalls: 0, puts: [], deletes: [] });
  });

  it('a pass with k changed candidates writes exactly their k entries (and the one consolidated view)', async () => {
    const { clock, counting, cluster, pass } = setup();
    await pass();
    clock.advance(60_000);
    const changed = new Set([3, 17, 29, 30, 44].map(name));
    counting.reset();
    const r = await pass(changed);
    expect(r.negativeTally?.byResult).toMatchObject({ changed: changed.size, hit: NODES - changed.size });
    // The cluster's view moved, so its one CONSOLIDATED item is replaced (docs/mechanisms/consolidated-state.md).
    expect(counting.count()).toEqual({
      calls: { BatchWriteItem: 2 },
      batchCalls: 2,
      puts: ['CONSOLIDATED', ...[...changed].map((c) => `NEG#${c}`)].sort(),
      deletes: [],
    });
    const stored = (await counting.store.loadPassState(cluster)).negativeCache;
    expect(stored.size).toBe(NODES);
  });

  it('a pass whose lease was lost before the write-back writes nothing', async () => {
    const { clock, counting, cluster, pass } = setup();
    await pass();
    const before = await counting.store.loadPassState(cluster);
    clock.advance(60_000);
    counting.reset();
    const lost = new AbortController();
    lost.abort();
    await pass(new Set([name(1), name(2)]), lost.signal);
    expect(counting.count().calls).toEqual({});
    expect((await counting.store.loadPassState(cluster)).negativeCache).toEqual(before.negativeCache);
  });
});

describe('a write-back cut off between its batches (DynamoDB Local behind a fault proxy)', () => {
  it('leaves a store the next pass converges from: it rewrites the missing entries, then writes nothing', async () => {
    const { clock, counting, cluster, pass } = setup({ endpoint: proxy.endpoint });
    // A non-retryable answer to one of the first pass's three BatchWriteItems: the others are applied.
    proxy.inject('BatchWriteItem', { kind: 'error', status: 400, type: 'ValidationException' });
    await expect(pass()).rejects.toBeInstanceOf(StoreUnavailableError);
    proxy.clearFaults();
    const partial = (await counting.store.loadPassState(cluster)).negativeCache;
    expect(partial.size).toBeGreaterThan(0);
    expect(partial.size).toBeLessThan(NODES);
    clock.advance(60_000);
    counting.reset();
    const heal = await pass();
    expect(heal.negativeTally?.byResult).toMatchObject({ hit: partial.size, absent: NODES - partial.size });
    const refill = counting.count().puts.filter((sk) => sk.startsWith('NEG#'));
    expect(refill).toHaveLength(NODES - partial.size);
    expect(refill.some((sk) => partial.has(sk.slice(4)))).toBe(false);
    const healed = (await counting.store.loadPassState(cluster)).negativeCache;
    expect([...healed.keys()].sort()).toEqual(Array.from({ length: NODES }, (_, i) => name(i)));
    clock.advance(60_000);
    counting.reset();
    expect((await pass()).outcome).toBe('unchanged');
    expect(counting.count().calls).toEqual({});
  });
});
