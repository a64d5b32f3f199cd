// Fenced writes against a late retry (DynamoDB Local behind a fault proxy): a stale admitter's write whose
// first attempt failed is retried after its lease ran out and a newer holder admitted; the retry must not
// land. The interleaving is driven from the stale store's backoff sleep, so it is exact, not timed.
// The fenced transaction itself: it numbers admissions and keeps the lease item whole, and a refused one is
// stale for an old token under the same owner string, at the lease's expiry, and for a lease never acquired.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConditionFailedError, StaleWriteError } from '../../../shared/ports/state-store/errors.ts';
import type { CommandInput } from '../../../shared/ports/state-store/records.ts';
import { startDynamoDbLocal } from '../../support/dynamodb/dynamodb-local.ts';
import { startFaultProxy, type FaultProxy } from '../../support/dynamodb/fault-proxy.ts';
import { ManualClock } from '../../fakes/manual-clock.ts';
import { startStateTable, type StateTable } from '../../support/dynamodb/state-table.ts';

let table: StateTable;
let proxy: FaultProxy;
beforeAll(async () => {
  table = await startStateTable(() => startDynamoDbLocal());
  proxy = await startFaultProxy(table.server.endpoint);
});
afterEach(() => proxy.clearFaults());
afterAll(async () => {
  await proxy?.stop();
  await table?.close();
});

let clusters = 0;
const cmd = (id: string, candidates: string[]): CommandInput => ({
  id,
  method: 'single-node-consolidation',
  decision: 'delete',
  candidates,
  replacements: [],
});
const SERVER_ERROR = { kind: 'error', status: 500, type: 'InternalServerError' } as const;

/** Two admitters: `stale` goes through the proxy and runs `during` in place of its first backoff sleep. */
function admitters(during: () => Promise<void>) {
  const clock = new ManualClock();
  let ran = false;
  const stale = table.store(clock, {
    endpoint: proxy.endpoint,
    random: () => 1,
    sleep: async () => {
      if (ran) return;
      ran = true;
      await during();
    },
  });
  return { clock, stale, fresh: table.store(clock) };
}

describe('a stale admitter retrying a fenced write after a newer holder took the lock', () => {
  it('cannot land its command behind the newer holder’s', async () => {
    const cluster = `fencing-${++clusters}`;
    const ttlMs = 15_000;
    let newer: { token: number } | undefined;
    const { clock, stale, fresh } = admitters(async () => {
      // The stale holder's write failed; while it backs off, its lease runs out and B admits.
      clock.advance(ttlMs + 5_000);
      const lockB = await fresh.acquireLease({ cluster, name: 'admission', owner: 'admit-b', ttlMs });
      newer = lockB;
      await fresh.admitCommand(lockB, cmd('b-cmd', ['n2']));
    });
    const lockA = await stale.acquireLease({ cluster, name: 'admission', owner: 'admit-a', ttlMs });
    // Whichever write carries the command (a transaction, or the item put after the fence) fails once.
    proxy.inject('TransactWriteItems', SERVER_ERROR);
    proxy.inject('PutItem', SERVER_ERROR);
    const late = await stale.admitCommand(lockA, cmd('a-cmd', ['n1'])).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(StaleWriteError);
    expect((late as StaleWriteError).current).toMatchObject({ owner: 'admit-b', token: newer?.token });
    expect(await fresh.getCommand(cluster, 'a-cmd')).toBeUndefined();
    expect((await fresh.listCommandsByStatus(cluster, 'launching')).map((c) => [c.id, c.seq])).toEqual([
      ['b-cmd', 1],
    ]);
  });

  it('cannot confirm its command once a newer holder took the lock', async () => {
    const cluster = `fencing-${++clusters}`;
    const ttlMs = 15_000;
    const { clock, stale, fresh } = admitters(async () => {
      clock.advance(ttlMs + 5_000);
      await fresh.acquireLease({ cluster, name: 'admission', owner: 'admit-b', ttlMs });
    });
    const lockA = await stale.acquireLease({ cluster, name: 'admission', owner: 'admit-a', ttlMs });
    await stale.admitCommand(lockA, cmd('a-cmd', ['n1']));
    proxy.inject('TransactWriteItems', SERVER_ERROR);
    proxy.inject('UpdateItem', SERVER_ERROR);
    await expect(stale.confirmCommand(lockA, 'a-cmd')).rejects.toBeInstanceOf(StaleWriteError);
    expect((await fresh.getCommand(cluster, 'a-cmd'))?.confirmedAt).toBeUndefined();
  });
});

describe('fenced confirmation', () => {
  it('confirms once for its admitter, also when the first answer is lost', async () => {
    const clock = new ManualClock();
    const store = table.store(clock, { endpoint: proxy.endpoint, requestTimeoutMs: 500 });
    const cluster = `fencing-${++clusters}`;
    const lock = await store.acquireLease({ cluster, name: 'admission', owner: 'admit-a', ttlMs: 60_000 });
    proxy.inject('TransactWriteItems', { kind: 'withhold-response' });
    const admitted = await store.admitCommand(lock, cmd('c1', ['n1']));
    expect(admitted.seq).toBe(1);
    proxy.inject('TransactWriteItems', { kind: 'withhold-response' });
    clock.advance(1_000);
    const confirmed = await store.confirmCommand(lock, 'c1');
    expect(confirmed.confirmedAt).toEqual(clock.now());
    expect(await store.confirmCommand(lock, 'c1')).toEqual(confirmed);
    expect(proxy.log.filter((l) => l.fault === 'withhold-response')).toHaveLength(2);
  });

  it('refuses a holder that did not admit the command', async () => {
    const clock = new ManualClock();
    const store = table.store(clock);
    const cluster = `fencing-${++clusters}`;
    const a = await store.acquireLease({ cluster, name: 'admission', owner: 'admit-a', ttlMs: 1_000 });
    await store.admitCommand(a, cmd('c1', ['n1']));
    clock.advance(1_000);
    const b = await store.acquireLease({ cluster, name: 'admission', owner: 'admit-b', ttlMs: 1_000 });
    await expect(store.confirmCommand(b, 'c1')).rejects.toBeInstanceOf(ConditionFailedError);
  });
});

describe('the fenced transaction (DynamoDB Local)', () => {
  const fresh = async (ttlMs = 60_000) => {
    const clock = new ManualClock();
    const store = table.store(clock);
    const cluster = `fencing-${++clusters}`;
    const lock = await store.acquireLease({ cluster, name: 'admission', owner: 'admit-a', ttlMs });
    return { clock, store, cluster, lock };
  };

  it('numbers admissions 1, 2, … and leaves the lease its holder’s', async () => {
    const { store, cluster, lock } = await fresh();
    expect((await store.admitCommand(lock, cmd('c1', ['n1']))).seq).toBe(1);
    expect((await store.admitCommand(lock, cmd('c2', ['n2']))).seq).toBe(2);
    await store.confirmCommand(lock, 'c1');
    expect(await store.readLease(cluster, 'admission')).toMatchObject({
      owner: 'admit-a',
      token: lock.token,
      released: false,
    });
    await expect(store.heartbeatLease(lock, 60_000)).resolves.toMatchObject({ token: lock.token });
  });

  it('refuses an old fence once the same owner string holds the lock again (the token fences)', async () => {
    const { clock, store, cluster, lock } = await fresh(1_000);
    await store.admitCommand(lock, cmd('c1', ['n1']));
    clock.advance(1_000);
    await store.releaseLease(
      await store.acquireLease({ cluster, name: 'admission', owner: 'admit-b', ttlMs: 1_000 }),
    );
    const again = await store.acquireLease({ cluster, name: 'admission', owner: 'admit-a', ttlMs: 1_000 });
    const late = await store.confirmCommand(lock, 'c1').catch((e: unknown) => e);
    expect(late).toBeInstanceOf(StaleWriteError);
    expect((late as StaleWriteError).current).toMatchObject({ owner: 'admit-a', token: again.token });
    expect((await store.getCommand(cluster, 'c1'))?.confirmedAt).toBeUndefined();
  });

  it('refuses its holder’s write from the instant the lease expires, with no takeover yet', async () => {
    const { clock, store, cluster, lock } = await fresh(1_000);
    await store.admitCommand(lock, cmd('c1', ['n1']));
    clock.advance(1_000);
    await expect(store.confirmCommand(lock, 'c1')).rejects.toBeInstanceOf(StaleWriteError);
    expect((await store.getCommand(cluster, 'c1'))?.confirmedAt).toBeUndefined();
  });

  it('refuses a fence for a lease that was never acquired', async () => {
    const { store, cluster } = await fresh();
    const never = { cluster, name: 'consolidation' as const, owner: 'admit-a', token: 1 };
    const err = await store.confirmCommand(never, 'c1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StaleWriteError);
    expect((err as StaleWriteError).current).toBeUndefined();
  });
});
