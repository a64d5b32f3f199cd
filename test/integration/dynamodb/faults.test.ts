// Faults on DynamoDB Local (issue 4): a holder that stops heartbeating, writes retried after a timeout,
// throttling retried with backoff, and other failures surfacing with their cause. Time is a ManualClock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LockHeldError,
  LockLostError,
  StaleWriteError,
  StoreUnavailableError,
} from '../../../shared/ports/state-store/errors.ts';
import { startDynamoDbLocal } from '../../support/dynamodb/dynamodb-local.ts';
import { startFaultProxy } from '../../support/dynamodb/fault-proxy.ts';
import type { FaultProxy } from '../../support/dynamodb/fault-proxy.ts';
import { ManualClock } from '../../fakes/manual-clock.ts';
import { startStateTable } from '../../support/dynamodb/state-table.ts';
import type { StateTable } from '../../support/dynamodb/state-table.ts';

let table: StateTable;
let proxy: FaultProxy;
beforeAll(async () => {
  table = await startStateTable(() => startDynamoDbLocal());
  proxy = await startFaultProxy(table.server.endpoint);
});
afterAll(async () => {
  await proxy?.stop();
  await table?.close();
});

let clusters = 0;
const freshCluster = () => `faults-${++clusters}`;
const delays: number[] = [];
/**
 * A store behind the fault proxy whose backoff is recorded instead of slept. Tests of withheld responses use a
 * short request timeout; the others a long one, so that a slow answer on a busy machine is not a timeout.
 */
const faultyStore = (clock: ManualClock, requestTimeoutMs = 10_000) => {
  delays.length = 0;
  return table.store(clock, {
    endpoint: proxy.endpoint,
    requestTimeoutMs,
    sleep: async (ms) => {
      delays.push(ms);
    },
    random: () => 1,
  });
};

describe('a holder that stops heartbeating (DynamoDB Local)', () => {
  it('loses the lock after its lease, and its late writes are refused while the new holder keeps it', async () => {
    const clock = new ManualClock();
    const [a, b] = [table.store(clock), table.store(clock)];
    const cluster = freshCluster();
    const lockA = await a.acquireLease({ cluster, name: 'admission', owner: 'admit-a', ttlMs: 15_000 });
    for (let i = 0; i < 3; i++) {
      clock.advance(10_000);
      await a.heartbeatLease(lockA, 15_000);
    }
    await a.admitCommand(lockA, {
      id: 'early',
      method: 'drift',
      decision: 'replace',
      candidates: ['n1'],
      replacements: ['r1'],
    });
    // A stops heartbeating: until its lease runs out nobody else gets in.
    clock.advance(14_999);
    await expect(
      b.acquireLease({ cluster, name: 'admission', owner: 'admit-b', ttlMs: 15_000 }),
    ).rejects.toBeInstanceOf(LockHeldError);
    clock.advance(1);
    const lockB = await b.acquireLease({ cluster, name: 'admission', owner: 'admit-b', ttlMs: 15_000 });
    expect(lockB.token).toBe(lockA.token + 1);

    const late = await a
      .admitCommand(lockA, {
        id: 'late',
        method: 'drift',
        decision: 'delete',
        candidates: ['n2'],
        replacements: [],
      })
      .catch((e: unknown) => e);
    expect(late).toBeInstanceOf(StaleWriteError);
    expect((late as StaleWriteError).current).toMatchObject({ owner: 'admit-b', token: lockB.token });
    await expect(
      a.recordLaunch(lockA, { claimName: 'r9', cloud: 'aws', nodePool: 'gpu', commandId: 'late' }),
    ).rejects.toBeInstanceOf(StaleWriteError);
    await expect(a.heartbeatLease(lockA, 15_000)).rejects.toBeInstanceOf(LockLostError);
    await expect(a.releaseLease(lockA)).rejects.toBeInstanceOf(LockLostError);

    const next = await b.admitCommand(lockB, {
      id: 'next',
      method: 'drift',
      decision: 'delete',
      candidates: ['n2'],
      replacements: [],
    });
    expect(next.seq).toBe(2);
    expect((await b.listCommandsByStatus(cluster, 'launching')).map((c) => c.id)).toEqual(['early', 'next']);
    expect(await b.getLaunch(cluster, 'r9')).toBeUndefined();
  });
});

describe('writes retried after a timeout (DynamoDB Local behind a fault proxy)', () => {
  it('admits a command once when the fenced transaction loses its response twice', async () => {
    const clock = new ManualClock();
    const store = faultyStore(clock, 500);
    const cluster = freshCluster();
    const lock = await store.acquireLease({ cluster, name: 'admission', owner: 'admit-1', ttlMs: 60_000 });
    // The fence and the command item are one transaction on DynamoDB Local (fencing.test.ts covers late retries).
    proxy.inject('TransactWriteItems', { kind: 'withhold-response' }, 2);
    const first = await store.admitCommand(lock, {
      id: 'cmd-1',
      method: 'emptiness',
      decision: 'delete',
      candidates: ['n1'],
      replacements: [],
    });
    const second = await store.admitCommand(lock, {
      id: 'cmd-2',
      method: 'emptiness',
      decision: 'delete',
      candidates: ['n2'],
      replacements: [],
    });
    expect([first.seq, second.seq]).toEqual([1, 2]);
    expect((await store.listCommandsByStatus(cluster, 'launching')).map((c) => [c.id, c.seq])).toEqual([
      ['cmd-1', 1],
      ['cmd-2', 2],
    ]);
    expect(proxy.log.filter((l) => l.fault === 'withhold-response')).toHaveLength(2);
  });

  it('acquires, clears, writes unseen pools, transitions and records a launch exactly once when each first response is lost', async () => {
    const clock = new ManualClock();
    const store = faultyStore(clock, 500);
    const cluster = freshCluster();
    proxy.inject('UpdateItem', { kind: 'withhold-response' });
    const lock = await store.acquireLease({ cluster, name: 'admission', owner: 'admit-1', ttlMs: 60_000 });
    expect(lock.token).toBe(1);

    proxy.inject('UpdateItem', { kind: 'withhold-response' });
    expect(await store.clearNegativeCache(cluster)).toBe(1);
    expect((await store.loadPassState(cluster)).epoch).toBe(1);

    proxy.inject('UpdateItem', { kind: 'withhold-response' });
    expect(await store.putUnseenPools(cluster, 0, ['gpu'])).toBe(1);
    expect((await store.loadPassState(cluster)).unseenPools).toEqual({ version: 1, pools: ['gpu'] });

    await store.admitCommand(lock, {
      id: 'c',
      method: 'drift',
      decision: 'replace',
      candidates: ['n1'],
      replacements: ['r1'],
    });
    proxy.inject('UpdateItem', { kind: 'withhold-response' });
    expect((await store.transitionCommand(cluster, 'c', 'launching', 'draining')).status).toBe('draining');

    proxy.inject('PutItem', { kind: 'withhold-response' });
    const launch = await store.recordLaunch(lock, {
      claimName: 'r1',
      cloud: 'gcp',
      nodePool: 'gpu',
      commandId: 'c',
    });
    expect(launch.created).toBe(true);
    expect(
      (await store.recordLaunch(lock, { claimName: 'r1', cloud: 'gcp', nodePool: 'gpu', commandId: 'c' }))
        .created,
    ).toBe(false);

    // Admitting the command cleared the negative cache again: entries go under the epoch a pass reads now.
    const { epoch } = await store.loadPassState(cluster);
    expect(epoch).toBe(2);
    proxy.inject('BatchWriteItem', { kind: 'withhold-response' });
    await store.putNegativeEntries(cluster, epoch, [
      { candidate: 'n7', fingerprint: 'f', expiresAt: new Date(clock.now().getTime() + 60_000) },
    ]);
    expect([...(await store.loadPassState(cluster)).negativeCache.keys()]).toEqual(['n7']);
    expect(delays.length).toBeGreaterThanOrEqual(5);
  });
});

describe('throttling and other failures (DynamoDB Local behind a fault proxy)', () => {
  it.each(['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded'])(
    'retries %s with growing backoff',
    async (type) => {
      const clock = new ManualClock();
      const store = faultyStore(clock);
      proxy.inject('UpdateItem', { kind: 'error', status: 400, type }, 3);
      store.roundTrips.reset();
      const lease = await store.acquireLease({
        cluster: freshCluster(),
        name: 'census',
        owner: 'c',
        ttlMs: 1_000,
      });
      expect(lease.token).toBe(1);
      expect(store.roundTrips.byOperation()).toEqual({ UpdateItem: 4 });
      expect(delays).toEqual([50, 100, 200]);
    },
  );

  it('gives up on persistent throttling with the SDK error as cause', async () => {
    const store = faultyStore(new ManualClock());
    proxy.inject('Query', { kind: 'error', status: 400, type: 'ProvisionedThroughputExceededException' }, 16);
    const err = await store.loadPassState(freshCluster()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreUnavailableError);
    expect((err as Error).message).toMatch(/after 8 attempts/);
    expect(((err as Error).cause as Error).name).toBe('ProvisionedThroughputExceededException');
  });

  it('surfaces any other failure at once, with its cause', async () => {
    const store = faultyStore(new ManualClock());
    proxy.inject('GetItem', {
      kind: 'error',
      status: 400,
      type: 'ResourceNotFoundException',
      message: 'Requested resource not found',
    });
    store.roundTrips.reset();
    const err = await store.readLease(freshCluster(), 'admission').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreUnavailableError);
    expect(((err as Error).cause as Error).name).toBe('ResourceNotFoundException');
    expect(store.roundTrips.total).toBe(1);
  });
});
