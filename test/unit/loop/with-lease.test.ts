// withLease against the DynamoDB adapter on dynalite: one holder at a time, heartbeats keep a long run's
// lease, a takeover aborts the old holder's signal, and the lease is released however the work ends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaseOwner, withLease, type HeldLease } from '../../../shared/loop/with-lease.ts';
import { startDynalite } from '../../support/dynamodb/dynalite.ts';
import { ManualClock } from '../../fakes/manual-clock.ts';
import { startStateTable, type StateTable } from '../../support/dynamodb/state-table.ts';
import { ManualTimer } from '../../fakes/manual-timer.ts';
import { MemoryLogger } from '../../fakes/memory-logger.ts';

describe('withLease', () => {
  let table: StateTable;
  let cluster = 0;
  beforeAll(async () => {
    table = await startStateTable(startDynalite, 'with-lease-test');
  });
  afterAll(async () => {
    await table.close();
  });

  const world = () => {
    const clock = new ManualClock();
    const timer = new ManualTimer();
    const logger = new MemoryLogger();
    cluster += 1;
    return { clock, timer, logger, store: table.store(clock), cluster: `c${cluster}` };
  };
  const spec = (w: ReturnType<typeof world>, owner: string, runId?: string) => ({
    cluster: w.cluster,
    name: 'provisioning' as const,
    owner,
    ttlMs: 1_000,
    heartbeatMs: 300,
    ...(runId ? { runId } : {}),
  });

  it('runs the work and releases the lease afterwards', async () => {
    const w = world();
    const run = await withLease(w, spec(w, 'a'), async (lease) => lease.fence.token);
    expect(run).toMatchObject({ outcome: 'ran', value: 1, lost: false });
    expect((await w.store.readLease(w.cluster, 'provisioning'))?.released).toBe(true);
  });

  it('an overlapping start finds the lease held and does not run', async () => {
    const w = world();
    let release!: () => void;
    const first = withLease(w, spec(w, 'a'), () => new Promise<void>((r) => (release = r)));
    await expect.poll(() => w.store.readLease(w.cluster, 'provisioning')).toBeDefined();
    let ran = false;
    const second = await withLease(w, spec(w, 'b'), async () => void (ran = true));
    expect(second).toMatchObject({ outcome: 'held', reason: 'held', holder: { owner: 'a' } });
    expect(ran).toBe(false);
    release();
    expect((await first).outcome).toBe('ran');
  });

  it('heartbeats keep the lease past its first expiry', async () => {
    const w = world();
    let release!: () => void;
    const first = withLease(w, spec(w, 'a'), () => new Promise<void>((r) => (release = r)));
    await expect.poll(() => w.timer.started).toBe(1);
    w.clock.advance(800);
    w.timer.fire();
    await expect.poll(() => w.timer.started).toBe(2);
    w.clock.advance(800); // 1.6 s after acquiring, with a 1 s TTL
    expect(await withLease(w, spec(w, 'b'), async () => 'ran')).toMatchObject({ outcome: 'held' });
    release();
    expect(await first).toMatchObject({ outcome: 'ran', lost: false });
  });

  it('a takeover after expiry aborts the old holder and its release changes nothing', async () => {
    const w = world();
    let seen: HeldLease | undefined;
    let release!: () => void;
    const first = withLease(w, spec(w, 'a'), (lease) => {
      seen = lease;
      return new Promise<void>((r) => (release = r));
    });
    await expect.poll(() => w.timer.started).toBe(1);
    w.clock.advance(1_500);
    const second = await withLease(w, spec(w, 'b'), async (lease) => {
      w.timer.fire(); // the old holder's heartbeat meets the new holder
      await expect.poll(() => seen?.signal.aborted).toBe(true);
      return lease.fence.token;
    });
    expect(second).toMatchObject({ outcome: 'ran', value: 2 });
    release();
    expect(await first).toMatchObject({ outcome: 'ran', lost: true });
    // Lost once, said once: the refused release is no news.
    expect(w.logger.messages('warn')).toEqual(['lease lost']);
  });

  it('heartbeats every third of the TTL when no period is given', async () => {
    const w = world();
    let release!: () => void;
    const { heartbeatMs: _, ...defaults } = { ...spec(w, 'a'), ttlMs: 900 };
    const first = withLease(w, defaults, () => new Promise<void>((r) => (release = r)));
    await expect.poll(() => w.timer.started).toBe(1);
    expect(w.timer.asked).toEqual([300]);
    release();
    expect(await first).toMatchObject({ outcome: 'ran', lost: false });
  });

  it('logs a lease that ran out under work no heartbeat interrupted, when its release is refused', async () => {
    const w = world();
    const run = await withLease(w, spec(w, 'a'), async () => {
      w.clock.advance(1_500); // the work outlives the lease before the first beat, and another run takes it
      expect(await withLease(w, spec(w, 'b'), async () => 'b ran')).toMatchObject({ value: 'b ran' });
    });
    // The work finished before any beat noticed; the lease was no longer ours to release.
    expect(run).toMatchObject({ outcome: 'ran', lost: false });
    expect(w.logger.entries.filter((e) => e.level === 'warn')).toEqual([
      { level: 'warn', message: 'lease expired before release', fields: { lease: 'provisioning', token: 1 } },
    ]);
    expect(await w.store.readLease(w.cluster, 'provisioning')).toMatchObject({ owner: 'b', token: 2 });
  });

  it('fails, without running the work, when the acquire fails for another reason than a holder', async () => {
    const w = world();
    let ran = false;
    const bad = { ...spec(w, 'a'), cluster: 'bad#cluster' };
    await expect(withLease(w, bad, async () => void (ran = true))).rejects.toThrow(/acquireLease\.cluster/);
    expect(ran).toBe(false);
  });

  it('releases the lease when the work throws, and rethrows', async () => {
    const w = world();
    await expect(
      withLease(w, spec(w, 'a'), async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await withLease(w, spec(w, 'b'), async () => 'next')).toMatchObject({ outcome: 'ran' });
  });

  it('refuses a second delivery of the same scheduled run', async () => {
    const w = world();
    await withLease(w, spec(w, 'a', 'evt-1'), async () => undefined);
    const again = await withLease(w, spec(w, 'b', 'evt-1'), async () => undefined);
    expect(again).toMatchObject({ outcome: 'held', reason: 'same-run' });
  });

  it('makes lease owners the store accepts, different per attempt', () => {
    expect(leaseOwner('req #1', 'n1')).toBe('req__1.n1');
    expect(leaseOwner('req', 'n1')).not.toBe(leaseOwner('req', 'n2'));
  });

  it('cuts a long request id so that the owner stays within the store’s 253 characters', async () => {
    const w = world();
    const owner = leaseOwner('r'.repeat(300), 'nonce');
    expect(owner).toBe('r'.repeat(253));
    expect(await withLease(w, spec(w, owner), async (l) => l.fence.owner)).toMatchObject({ value: owner });
  });
});
