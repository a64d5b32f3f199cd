// withLease when the store fails or disagrees (dynalite behind a fault proxy): a failed heartbeat is retried
// until the last good expiry, a refused one is a loss whatever the holder's clock says, a lost lease is not
// heartbeated again, and a release that fails for another reason than a takeover fails the run.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { withLease } from '../../../shared/loop/with-lease.ts';
import { startDynalite } from '../../support/dynamodb/dynalite.ts';
import { startFaultProxy, type FaultProxy } from '../../support/dynamodb/fault-proxy.ts';
import { startStateTable, type StateTable } from '../../support/dynamodb/state-table.ts';
import { ManualClock } from '../../fakes/manual-clock.ts';
import { ManualTimer } from '../../fakes/manual-timer.ts';
import { MemoryLogger } from '../../fakes/memory-logger.ts';

const UNAVAILABLE = { kind: 'error', status: 500, type: 'InternalServerError' } as const;
const ONE_TRY = { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 };

describe('withLease against a failing store', () => {
  let table: StateTable;
  let proxy: FaultProxy;
  let cluster = 0;
  beforeAll(async () => {
    table = await startStateTable(startDynalite, 'with-lease-faults');
    proxy = await startFaultProxy(table.server.endpoint);
  });
  afterEach(() => proxy.clearFaults());
  afterAll(async () => {
    await proxy?.stop();
    await table?.close();
  });

  /** A holder whose store goes through the proxy (one try per call), and a rival on the server directly. */
  const world = () => {
    const clock = new ManualClock();
    const timer = new ManualTimer();
    const logger = new MemoryLogger();
    cluster += 1;
    const store = table.store(clock, { endpoint: proxy.endpoint, retry: ONE_TRY });
    return { clock, timer, logger, store, cluster: `f${cluster}` };
  };
  const spec = (w: ReturnType<typeof world>, owner: string) => ({
    cluster: w.cluster,
    name: 'provisioning' as const,
    owner,
    ttlMs: 1_000,
    heartbeatMs: 300,
  });
  /** Starts a run whose work waits until `finish()`, and resolves once its first heartbeat sleep began. */
  const hold = async (w: ReturnType<typeof world>) => {
    let finish!: () => void;
    let signal: AbortSignal | undefined;
    const run = withLease(w, spec(w, 'a'), (lease) => {
      signal = lease.signal;
      return new Promise<void>((r) => (finish = r));
    });
    await expect.poll(() => w.timer.started).toBe(1);
    return { run, finish, aborted: () => signal?.aborted };
  };

  it('retries a heartbeat the store failed while the lease is still good, and keeps the lease', async () => {
    const w = world();
    const h = await hold(w);
    proxy.inject('UpdateItem', UNAVAILABLE);
    w.clock.advance(300);
    w.timer.fire(); // fails at 300 ms: the lease runs to 1,000 ms, so the next beat may still save it
    await expect.poll(() => w.timer.started).toBe(2);
    expect(h.aborted()).toBe(false);
    const [warning] = w.logger.entries;
    expect(warning).toMatchObject({
      level: 'warn',
      message: 'lease heartbeat failed; retrying on the next beat',
      fields: { lease: 'provisioning', token: 1 },
    });
    expect(String(warning?.fields.error)).toMatch(/^\w+Error: ./);
    w.clock.advance(300);
    w.timer.fire(); // succeeds at 600 ms: the lease now runs to 1,600 ms
    await expect.poll(() => w.timer.started).toBe(3);
    w.clock.advance(800);
    const rival = table.store(w.clock);
    await expect(
      rival.acquireLease({ cluster: w.cluster, name: 'provisioning', owner: 'b', ttlMs: 1_000 }),
    ).rejects.toMatchObject({ name: 'LockHeldError' });
    h.finish();
    expect(await h.run).toMatchObject({ outcome: 'ran', lost: false });
  });

  it('counts the lease lost when heartbeats fail until its last good expiry, and beats no more', async () => {
    const w = world();
    const h = await hold(w);
    proxy.inject('UpdateItem', UNAVAILABLE, 2);
    w.clock.advance(300);
    w.timer.fire();
    await expect.poll(() => w.timer.started).toBe(2);
    w.clock.advance(700); // exactly the expiry: the store already treats the lease as free (expiresAt <= now)
    w.timer.fire();
    await expect.poll(() => h.aborted()).toBe(true);
    expect(w.logger.messages('warn')).toEqual([
      'lease heartbeat failed; retrying on the next beat',
      'lease lost',
    ]);
    expect(w.timer.started).toBe(2);
    h.finish();
    expect(await h.run).toMatchObject({ outcome: 'ran', lost: true });
  });

  it('counts the lease lost when the store refuses a heartbeat, even before the holder’s clock says so', async () => {
    const w = world();
    const h = await hold(w);
    // A rival whose clock runs 2 s ahead finds the lease expired and takes it (token 2).
    const ahead = new ManualClock(w.clock.now().getTime() + 2_000);
    const rival = table.store(ahead);
    await rival.acquireLease({ cluster: w.cluster, name: 'provisioning', owner: 'b', ttlMs: 1_000 });
    w.clock.advance(300); // by the holder's own clock its lease runs for 700 ms more
    w.timer.fire();
    await expect.poll(() => h.aborted()).toBe(true);
    expect(w.logger.messages('warn')).toEqual(['lease lost']);
    h.finish();
    expect(await h.run).toMatchObject({ outcome: 'ran', lost: true });
  });

  it('fails the run when the release fails for another reason than a takeover', async () => {
    const w = world();
    const h = await hold(w);
    proxy.inject('UpdateItem', UNAVAILABLE);
    h.finish();
    await expect(h.run).rejects.toThrow(/InternalServerError|unavailable/i);
    // Not released: the lease stays held by its owner until it expires.
    expect(await w.store.readLease(w.cluster, 'provisioning')).toMatchObject({ owner: 'a', released: false });
  });
});
