// The DynamoDB adapter's lease rules that only it has (dynalite, with a fault proxy where a write must fail):
// the clock-skew bound is checked, an owner's own lease past its expiry is not handed back as live, a second
// firing of a released run is told apart from an overlap whatever the clocks, every refusal carries DynamoDB's
// answer as its cause, and the two-write admission fence lets a retry through only for the holder and token that
// wrote it (docs/architecture.md, the lease).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LockHeldError, LockLostError, StaleWriteError } from '../../../shared/ports/state-store/errors.ts';
import type { CommandInput, Fence } from '../../../shared/ports/state-store/records.ts';
import { startDynalite } from '../../support/dynamodb/dynalite.ts';
import { startFaultProxy, type FaultProxy } from '../../support/dynamodb/fault-proxy.ts';
import { startStateTable, type StateTable } from '../../support/dynamodb/state-table.ts';
import { ManualClock } from '../../fakes/manual-clock.ts';

const SKEW = 5_000;
const TTL = 1_000;
const UNAVAILABLE = { kind: 'error', status: 500, type: 'InternalServerError' } as const;
const ONE_TRY = { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 };

let table: StateTable;
let proxy: FaultProxy;
beforeAll(async () => {
  table = await startStateTable(startDynalite, 'lease-rules');
  proxy = await startFaultProxy(table.server.endpoint);
});
afterEach(() => proxy.clearFaults());
afterAll(async () => {
  await proxy?.stop();
  await table?.close();
});

let clusters = 0;
const lease = (owner: string, extra: { runId?: string } = {}) => ({
  cluster: `rules${clusters}`,
  name: 'consolidation' as const,
  owner,
  ttlMs: TTL,
  ...extra,
});
const fenceOf = (l: Fence): Fence => ({ cluster: l.cluster, name: l.name, owner: l.owner, token: l.token });
const cmd = (id: string): CommandInput => ({
  id,
  method: 'single-node-consolidation',
  decision: 'delete',
  candidates: [`node-${id}`],
  replacements: [],
});
const refusal = (e: unknown) => (e as Error & { cause?: Error }).cause?.name;

describe('the DynamoDB lease adapter', () => {
  it('refuses a clock-skew bound that is negative or not whole, naming it', () => {
    const clock = new ManualClock();
    expect(() => table.store(clock, { maxClockSkewMs: -1 })).toThrow(
      new RangeError('lease maxClockSkewMs must be a non-negative integer, got -1'),
    );
    expect(() => table.store(clock, { maxClockSkewMs: 1.5 })).toThrow(/got 1\.5/);
    expect(() => table.store(clock, { maxClockSkewMs: 0 })).not.toThrow();
  });

  it('does not hand an owner back its own lease once that lease expired, though the skew keeps it from others', async () => {
    clusters += 1;
    const clock = new ManualClock();
    const store = table.store(clock, { maxClockSkewMs: SKEW });
    const mine = await store.acquireLease(lease('a'));
    clock.advance(TTL); // expired by this clock: its writes are refused from here on (expiresAt > now fails)
    const again = await store.acquireLease(lease('a')).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(LockHeldError);
    expect(again).toMatchObject({ reason: 'held', holder: { owner: 'a', token: mine.token } });
    await expect(store.heartbeatLease(fenceOf(mine), TTL)).rejects.toBeInstanceOf(LockLostError);
    clock.advance(SKEW); // the bound past expiry: free to anyone, the same owner string with the next token
    expect((await store.acquireLease(lease('a'))).token).toBe(mine.token + 1);
  });

  it('tells a second firing of a released run from an overlap, whatever the skew bound', async () => {
    clusters += 1;
    const clock = new ManualClock();
    const store = table.store(clock, { maxClockSkewMs: SKEW });
    await store.releaseLease(fenceOf(await store.acquireLease(lease('a', { runId: 'evt-1' }))));
    const err = await store.acquireLease(lease('b', { runId: 'evt-1' })).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'LockHeldError', reason: 'same-run' });
  });

  it('gives every refusal DynamoDB’s answer as its cause', async () => {
    clusters += 1;
    const clock = new ManualClock();
    const [a, b] = [table.store(clock), table.store(clock)];
    const first = await a.acquireLease(lease('a'));
    const held = await b.acquireLease(lease('b')).catch((e: unknown) => e);
    expect(held).toBeInstanceOf(LockHeldError);
    expect(refusal(held)).toBe('ConditionalCheckFailedException');
    clock.advance(TTL);
    await b.acquireLease(lease('b'));
    const beat = await a.heartbeatLease(fenceOf(first), TTL).catch((e: unknown) => e);
    const release = await a.releaseLease(fenceOf(first)).catch((e: unknown) => e);
    const launch = await a
      .recordLaunch(fenceOf(first), { claimName: 'claim-1', cloud: 'aws', nodePool: 'gpu' })
      .catch((e: unknown) => e);
    expect([beat, release, launch].map((e) => (e as Error).name)).toEqual([
      'LockLostError',
      'LockLostError',
      'StaleWriteError',
    ]);
    expect([beat, release, launch].map(refusal)).toEqual(Array(3).fill('ConditionalCheckFailedException'));
  });
});

describe('the two-write admission fence (dynalite has no transactions)', () => {
  /** A holder whose store goes through the proxy, one try per call; the item put after the fence fails once. */
  const halfAdmitted = async (clock: ManualClock, id: string) => {
    clusters += 1;
    const store = table.store(clock, { endpoint: proxy.endpoint, retry: ONE_TRY });
    const lock = await store.acquireLease({ ...lease('admit-a'), name: 'admission' });
    proxy.inject('PutItem', UNAVAILABLE);
    await expect(store.admitCommand(lock, cmd(id))).rejects.toThrow();
    return { store, lock };
  };

  it('lets the holder’s retry of a half-done admission through, with the sequence number the fence took', async () => {
    const clock = new ManualClock();
    const { store, lock } = await halfAdmitted(clock, 'x');
    const admitted = await store.admitCommand(lock, cmd('x'));
    expect(admitted).toMatchObject({ id: 'x', seq: 1, fencingToken: lock.token });
    expect((await store.admitCommand(lock, cmd('y'))).seq).toBe(2);
  });

  it('refuses that retry from the old fence once the same owner string holds the lock again (the token fences)', async () => {
    const clock = new ManualClock();
    const { store, lock } = await halfAdmitted(clock, 'x');
    clock.advance(TTL);
    const other = table.store(clock);
    await other.releaseLease(await other.acquireLease({ ...lease('admit-b'), name: 'admission' }));
    const again = await store.acquireLease({ ...lease('admit-a'), name: 'admission' });
    expect(again.token).toBe(lock.token + 2);
    const late = await store.admitCommand(lock, cmd('x')).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(StaleWriteError);
    expect(refusal(late)).toBe('ConditionalCheckFailedException');
    expect(await store.getCommand(lock.cluster, 'x')).toBeUndefined();
  });
});
