// bench:bill's meter on DynamoDB Local: a pass's known writes are counted as the capacity units DynamoDB Local
// reports (N small items written → N WRUs), attributed to the function whose invocation made them; EMF metrics
// are counted per distinct name × dimensions and log bytes per written line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BillMeter } from '../../bench/bill/meter.ts';
import { ManualClock } from '../../fakes/manual-clock.ts';
import { startDynamoDbLocal } from '../../support/dynamodb/dynamodb-local.ts';
import { fleetShape, passSteps, seedPassState } from '../../support/dynamodb/pass-fixture.ts';
import { startStateTable, type StateTable } from '../../support/dynamodb/state-table.ts';

let table: StateTable;
beforeAll(async () => {
  table = await startStateTable(() => startDynamoDbLocal());
});
afterAll(async () => {
  await table?.close();
});

describe('BillMeter (DynamoDB Local)', () => {
  it('counts a pass write-back of 400 small items as 400 WRUs in 16 requests, for the function that made it', async () => {
    const clock = new ManualClock();
    const store = table.store(clock);
    const shape = fleetShape(200);
    await seedPassState(store, 'bill-1', clock, shape);
    const steps = passSteps(store, 'bill-1', clock, shape, 'evt-1');
    const meter = new BillMeter('bill-1');
    const restore = meter.meterDynamo();
    try {
      await steps.acquire(); // outside any invocation: the fleet's own work, not counted
      await meter.around('consolidate', async () => {
        await steps.load();
        await steps.persist();
      });
      await meter.around('census', () => steps.release());
    } finally {
      restore();
    }
    const c = meter.use('consolidate');
    // 200 negative-cache entries and 200 coverage members, 25 items a BatchWriteItem, plus the two load Queries.
    expect(c.dynamoRequests).toBe(2 + 16);
    expect(c.wru).toBe(400);
    expect(c.rru).toBeGreaterThan(0);
    expect(meter.use('census')).toMatchObject({ dynamoRequests: 1, wru: 1, rru: 0 });
    expect(meter.unreported).toBe(0);
    expect([...meter.uses.keys()].sort()).toEqual(['census', 'consolidate']);
    expect(c.invocations).toBe(1);
  });

  it('counts a failed conditional write as one WRU per item, since DynamoDB charges it and reports nothing', async () => {
    const clock = new ManualClock();
    const store = table.store(clock);
    const meter = new BillMeter('bill-2');
    const restore = meter.meterDynamo();
    const lease = { cluster: 'bill-2', name: 'provisioning', ttlMs: 60_000 } as const;
    try {
      await store.acquireLease({ ...lease, owner: 'first', runId: 'r1' });
      await meter.around('provision', () =>
        store.acquireLease({ ...lease, owner: 'second', runId: 'r2' }).catch(() => undefined),
      );
    } finally {
      restore();
    }
    expect(meter.use('provision')).toMatchObject({ dynamoRequests: 1, conditionalFailures: 1, wru: 1 });
  });

  it('counts each metric name × dimension values once and the bytes of the EMF documents and INFO lines', async () => {
    const meter = new BillMeter('bill-3');
    await meter.around('orchestrate', async () => {
      meter.metrics.count('commands_total', 1, { pool: 'a' });
      meter.metrics.count('commands_total', 2, { pool: 'b' });
      meter.metrics.gauge('in_flight', 3);
      meter.metrics.flush();
      meter.log({ fn: 'orchestrate', level: 'debug', message: 'not written at INFO', fields: {} });
      meter.log({ fn: 'orchestrate', level: 'info', message: 'written', fields: { n: 1 } });
    });
    await meter.around('lifecycle', async () => {
      meter.metrics.count('commands_total', 1, { pool: 'a' });
      meter.metrics.flush();
    });
    // commands_total{pool=a}, {pool=b} and in_flight for orchestrate; commands_total{pool=a} again for lifecycle,
    // whose service dimension differs: four metrics.
    expect(meter.metricKeys.size).toBe(4);
    const o = meter.use('orchestrate');
    expect(o.emfBytes).toBeGreaterThan(0);
    const line = JSON.stringify({
      level: 'INFO',
      message: 'written',
      sampling_rate: 0,
      service: 'orchestrate',
      timestamp: '2026-12-08T00:00:00.000Z',
      xray_trace_id: '1-67550000-0123456789abcdef01234567',
      cluster: 'bill-3',
      n: 1,
    });
    expect(o.logBytes).toBe(Buffer.byteLength(line) + 1);
  });
});
