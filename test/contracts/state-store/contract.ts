// The StateStore contract: one suite, run against the in-memory store, dynalite and DynamoDB Local
// (Hono's runTest habit). Each test uses a fresh cluster id, so stores can share one table per file.
import { beforeAll, afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { LeaseName } from '../../../shared/ports/state-store/records.ts';
import type { StateStore } from '../../../shared/ports/state-store/index.ts';
import {
  ConditionFailedError,
  InvalidStateInputError,
  LockHeldError,
  LockLostError,
  StaleWriteError,
} from '../../../shared/ports/state-store/errors.ts';
import { leaseStatus } from '../../../shared/ports/state-store/records.ts';
import { ManualClock } from '../../fakes/manual-clock.ts';
import { command, commandContract } from './commands.ts';
import { passStateContract } from './pass-state.ts';
import { deploymentContract } from './deployment.ts';
import { replacementBackoffContract } from './replacement-backoffs.ts';

export interface StoreHarness {
  /** A store over the shared backend, reading time from `clock`. */
  make(clock: ManualClock): StateStore;
  close(): Promise<void>;
}

export interface ContractContext {
  store: StateStore;
  clock: ManualClock;
  cluster: string;
  /** A second store over the same backend, as another Lambda container would have. */
  other: StateStore;
}

let clusters = 0;

export function stateStoreContract(name: string, open: () => Promise<StoreHarness>): void {
  describe(`StateStore contract (${name})`, () => {
    let harness: StoreHarness;
    const ctx = {} as ContractContext;
    beforeAll(async () => {
      harness = await open();
    });
    afterAll(async () => {
      await harness?.close();
    });
    beforeEach(() => {
      ctx.clock = new ManualClock();
      ctx.store = harness.make(ctx.clock);
      ctx.other = harness.make(ctx.clock);
      ctx.cluster = `c${process.pid}-${++clusters}-${Date.now().toString(36)}`;
    });

    leaseContract(ctx);
    commandContract(ctx);
    passStateContract(ctx);
    deploymentContract(ctx);
    replacementBackoffContract(ctx);
  });
}

function leaseContract(ctx: ContractContext): void {
  const req = (owner: string, extra: { ttlMs?: number; runId?: string; name?: LeaseName } = {}) => ({
    cluster: ctx.cluster,
    name: extra.name ?? 'admission',
    owner,
    ttlMs: extra.ttlMs ?? 10_000,
    ...(extra.runId ? { runId: extra.runId } : {}),
  });

  describe('leases', () => {
    it('grants a free lease with token 1 and refuses a second owner, naming the holder', async () => {
      const a = await ctx.store.acquireLease(req('a'));
      expect(a.token).toBe(1);
      expect(a.expiresAt.getTime()).toBe(ctx.clock.now().getTime() + 10_000);
      const err = await ctx.other.acquireLease(req('b')).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(LockHeldError);
      expect((err as LockHeldError).holder).toMatchObject({ owner: 'a', token: 1 });
      expect((err as LockHeldError).reason).toBe('held');
    });

    it('lets another owner take over after expiry with a higher token, and refuses the old holder', async () => {
      const a = await ctx.store.acquireLease(req('a'));
      ctx.clock.advance(10_001);
      const b = await ctx.other.acquireLease(req('b'));
      expect(b.token).toBe(a.token + 1);
      const hb = await ctx.store.heartbeatLease(a, 10_000).catch((e: unknown) => e);
      expect(hb).toBeInstanceOf(LockLostError);
      expect((hb as LockLostError).current).toMatchObject({ owner: 'b', token: b.token });
      await expect(ctx.store.releaseLease(a)).rejects.toBeInstanceOf(LockLostError);
      const view = await ctx.store.readLease(ctx.cluster, 'admission');
      expect(view && leaseStatus(view, ctx.clock.now())).toBe('held');
      expect(view?.owner).toBe('b');
    });

    it('keeps a heartbeating holder past its first expiry', async () => {
      const a = await ctx.store.acquireLease(req('a'));
      ctx.clock.advance(8_000);
      await ctx.store.heartbeatLease(a, 10_000);
      ctx.clock.advance(8_000);
      await expect(ctx.other.acquireLease(req('b'))).rejects.toBeInstanceOf(LockHeldError);
      expect((await ctx.store.heartbeatLease(a, 10_000)).token).toBe(a.token);
    });

    it('refuses a heartbeat once the lease expired, even without a takeover', async () => {
      const a = await ctx.store.acquireLease(req('a'));
      ctx.clock.advance(10_000);
      await expect(ctx.store.heartbeatLease(a, 10_000)).rejects.toBeInstanceOf(LockLostError);
    });

    it('frees a released lease for the next owner and derives the released status from the item', async () => {
      const a = await ctx.store.acquireLease(req('a'));
      await ctx.store.releaseLease(a);
      const view = await ctx.store.readLease(ctx.cluster, 'admission');
      expect(view && leaseStatus(view, ctx.clock.now())).toBe('released');
      const b = await ctx.other.acquireLease(req('b'));
      expect(b.token).toBe(2);
    });

    it('derives expired from the clock without any write', async () => {
      await ctx.store.acquireLease(req('a', { ttlMs: 1_000 }));
      const view = await ctx.store.readLease(ctx.cluster, 'admission');
      expect(view && leaseStatus(view, ctx.clock.now())).toBe('held');
      ctx.clock.advance(1_000);
      expect(view && leaseStatus(view, ctx.clock.now())).toBe('expired');
    });

    it('refuses a second firing of the same scheduled run even after the first released', async () => {
      const first = await ctx.store.acquireLease(req('a', { name: 'consolidation', runId: 'evt-1' }));
      await ctx.store.releaseLease(first);
      const err = await ctx.other
        .acquireLease(req('b', { name: 'consolidation', runId: 'evt-1' }))
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(LockHeldError);
      expect((err as LockHeldError).reason).toBe('same-run');
      const next = await ctx.other.acquireLease(req('b', { name: 'consolidation', runId: 'evt-2' }));
      expect(next.token).toBe(2);
    });

    it('calls a second firing of a run that still holds the lease an overlap, and one of a run that expired a repeat', async () => {
      const first = await ctx.store.acquireLease(
        req('a', { name: 'consolidation', runId: 'evt-1', ttlMs: 1_000 }),
      );
      const overlap = await ctx.other
        .acquireLease(req('b', { name: 'consolidation', runId: 'evt-1' }))
        .catch((e: unknown) => e);
      expect(overlap).toMatchObject({ name: 'LockHeldError', reason: 'held', holder: { owner: 'a' } });
      // The first firing crashed without releasing: once its lease ran out, the run still counts as done.
      ctx.clock.advance(1_000);
      const repeat = await ctx.other
        .acquireLease(req('b', { name: 'consolidation', runId: 'evt-1' }))
        .catch((e: unknown) => e);
      expect(repeat).toMatchObject({
        name: 'LockHeldError',
        reason: 'same-run',
        holder: { token: first.token },
      });
    });

    it('returns the same lease when its owner retries an acquire that already won', async () => {
      const a = await ctx.store.acquireLease(req('a', { runId: 'evt-9' }));
      const again = await ctx.store.acquireLease(req('a', { runId: 'evt-9' }));
      expect(again.token).toBe(a.token);
    });

    it('hands out strictly increasing tokens across takeovers', async () => {
      const tokens: number[] = [];
      for (let i = 0; i < 5; i++) {
        tokens.push((await ctx.store.acquireLease(req(`o${i}`, { ttlMs: 1_000 }))).token);
        ctx.clock.advance(1_000);
      }
      expect(tokens).toEqual([1, 2, 3, 4, 5]);
    });

    it('keeps leases of different names and clusters independent', async () => {
      await ctx.store.acquireLease(req('a'));
      await expect(ctx.other.acquireLease(req('b', { name: 'consolidation' }))).resolves.toMatchObject({
        token: 1,
      });
      await expect(
        ctx.other.acquireLease({ ...req('b'), cluster: `${ctx.cluster}-x` }),
      ).resolves.toMatchObject({ token: 1 });
    });

    it('names the method and field of bad lease input', async () => {
      await expect(ctx.store.acquireLease({ ...req('a'), cluster: 'bad#cluster' })).rejects.toThrow(
        /acquireLease\.cluster/,
      );
      await expect(ctx.store.acquireLease({ ...req('a'), ttlMs: 0 })).rejects.toBeInstanceOf(
        InvalidStateInputError,
      );
    });

    it('refuses a fenced launch record from a holder whose lease was taken over', async () => {
      const a = await ctx.store.acquireLease(req('a', { name: 'consolidation' }));
      ctx.clock.advance(10_001);
      const b = await ctx.other.acquireLease(req('b', { name: 'consolidation' }));
      const err = await ctx.store
        .recordLaunch(a, { claimName: 'claim-1', cloud: 'aws', nodePool: 'gpu' })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StaleWriteError);
      expect((err as StaleWriteError).current?.token).toBe(b.token);
      expect(await ctx.store.getLaunch(ctx.cluster, 'claim-1')).toBeUndefined();
    });
    it('refuses an old fence after its owner string re-acquired the lease past a takeover (the token fences)', async () => {
      // A container id reused after a takeover: owner matches, token does not. A fence that checked the owner
      // alone would let the first holder's late writes through under the lease its successor now holds.
      const first = await ctx.store.acquireLease(req('a', { name: 'consolidation' }));
      ctx.clock.advance(10_001);
      const between = await ctx.other.acquireLease(req('b', { name: 'consolidation' }));
      await ctx.other.releaseLease(between);
      const again = await ctx.store.acquireLease(req('a', { name: 'consolidation' }));
      expect(again.token).toBe(first.token + 2);
      const launch = await ctx.store
        .recordLaunch(first, { claimName: 'claim-old', cloud: 'aws', nodePool: 'gpu' })
        .catch((e: unknown) => e);
      expect(launch).toBeInstanceOf(StaleWriteError);
      expect((launch as StaleWriteError).current).toMatchObject({ owner: 'a', token: again.token });
      expect(await ctx.store.getLaunch(ctx.cluster, 'claim-old')).toBeUndefined();
      await expect(ctx.store.heartbeatLease(first, 10_000)).rejects.toBeInstanceOf(LockLostError);
      await expect(ctx.store.releaseLease(first)).rejects.toBeInstanceOf(LockLostError);
      expect(leaseStatus((await ctx.store.readLease(ctx.cluster, 'consolidation'))!, ctx.clock.now())).toBe(
        'held',
      );
      await expect(
        ctx.store.recordLaunch(again, { claimName: 'claim-new', cloud: 'aws', nodePool: 'gpu' }),
      ).resolves.toMatchObject({ created: true });
      // The admission lock fences commands the same way.
      const lockA = await ctx.store.acquireLease(req('a'));
      ctx.clock.advance(10_001);
      await ctx.other.releaseLease(await ctx.other.acquireLease(req('b')));
      const lockA2 = await ctx.store.acquireLease(req('a'));
      await expect(ctx.store.admitCommand(lockA, command('late', ['n1']))).rejects.toBeInstanceOf(
        StaleWriteError,
      );
      expect(await ctx.store.getCommand(ctx.cluster, 'late')).toBeUndefined();
      await expect(ctx.store.admitCommand(lockA2, command('now', ['n1']))).resolves.toMatchObject({
        id: 'now',
      });
    });
  });

  describe('launch records', () => {
    it('creates a launch record once per NodeClaim and returns the first to a second launcher', async () => {
      const lease = await ctx.store.acquireLease(req('a', { name: 'provisioning' }));
      const first = await ctx.store.recordLaunch(lease, {
        claimName: 'gpu-abc',
        cloud: 'gcp',
        nodePool: 'gpu',
      });
      expect(first.created).toBe(true);
      expect(first.record).toMatchObject({
        status: 'pending',
        fencingToken: lease.token,
        fence: 'provisioning',
      });
      const second = await ctx.other.recordLaunch(lease, {
        claimName: 'gpu-abc',
        cloud: 'gcp',
        nodePool: 'gpu',
      });
      expect(second.created).toBe(false);
      expect(second.record.createdAt.getTime()).toBe(first.record.createdAt.getTime());
    });

    it('completes a pending launch once; the same outcome again is accepted, a different one refused', async () => {
      const lease = await ctx.store.acquireLease(req('a'));
      await ctx.store.recordLaunch(lease, {
        claimName: 'gpu-1',
        cloud: 'aws',
        nodePool: 'gpu',
        commandId: 'cmd-1',
      });
      const done = await ctx.store.completeLaunch(ctx.cluster, 'gpu-1', {
        status: 'launched',
        providerId: 'aws:///us-east-1a/i-1',
      });
      expect(done).toMatchObject({
        status: 'launched',
        providerId: 'aws:///us-east-1a/i-1',
        commandId: 'cmd-1',
      });
      await expect(
        ctx.store.completeLaunch(ctx.cluster, 'gpu-1', {
          status: 'launched',
          providerId: 'aws:///us-east-1a/i-1',
        }),
      ).resolves.toMatchObject({ status: 'launched' });
      const err = await ctx.store
        .completeLaunch(ctx.cluster, 'gpu-1', { status: 'failed', error: 'boom' })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConditionFailedError);
      expect((err as ConditionFailedError<{ status: string }>).current?.status).toBe('launched');
      await expect(
        ctx.store.completeLaunch(ctx.cluster, 'nope', { status: 'failed', error: 'x' }),
      ).rejects.toBeInstanceOf(ConditionFailedError);
    });
  });
}
