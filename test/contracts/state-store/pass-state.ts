// Contract cases for pass state: the coverage cycle, the negative cache and its epoch, verdicts,
// nominations, unavailable offerings and census results, all with expiry decided by the reader's clock.
import { describe, expect, it } from 'vitest';
import { ConditionFailedError, InvalidStateInputError } from '../../../shared/ports/state-store/errors.ts';
import type { ContractContext } from './contract.ts';
import { CENSUS_RETENTION_MS } from '../../../shared/ports/state-store/records.ts';

export function passStateContract(ctx: ContractContext): void {
  const inMs = (ms: number) => new Date(ctx.clock.now().getTime() + ms);

  describe('pass state', () => {
    it('starts empty', async () => {
      const s = await ctx.store.loadPassState(ctx.cluster);
      expect(s.epoch).toBe(0);
      expect(s.unseenPools).toEqual({ version: 0, pools: [] });
      expect([
        s.coverage.size,
        s.negativeCache.size,
        s.verdicts.size,
        s.nominations.size,
        s.unavailableOfferings.length,
        s.openCommands.length,
      ]).toEqual([0, 0, 0, 0, 0, 0]);
    });

    it('keeps a coverage cycle per NodePool; a new cycle forgets what the last one evaluated', async () => {
      expect(await ctx.store.startCoverageCycle(ctx.cluster, 'gpu', 0)).toBe(1);
      await ctx.store.markEvaluated(ctx.cluster, 'gpu', 1, ['n1', 'n2']);
      await ctx.store.markEvaluated(ctx.cluster, 'cpu', 0, ['n9']);
      let s = await ctx.other.loadPassState(ctx.cluster);
      expect(s.coverage.get('gpu')).toEqual({ nodePool: 'gpu', cycle: 1, evaluated: new Set(['n1', 'n2']) });
      expect(s.coverage.has('cpu')).toBe(false);
      expect(await ctx.store.startCoverageCycle(ctx.cluster, 'gpu', 1)).toBe(2);
      await ctx.store.markEvaluated(ctx.cluster, 'gpu', 2, ['n3']);
      s = await ctx.other.loadPassState(ctx.cluster);
      expect(s.coverage.get('gpu')?.evaluated).toEqual(new Set(['n3']));
    });

    it('refuses to start a coverage cycle from a stale cycle number, naming the current one', async () => {
      await ctx.store.startCoverageCycle(ctx.cluster, 'gpu', 0);
      const err = await ctx.other.startCoverageCycle(ctx.cluster, 'gpu', 0).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConditionFailedError);
      expect((err as ConditionFailedError<number>).current).toBe(1);
      await expect(ctx.other.startCoverageCycle(ctx.cluster, 'gpu', 5)).rejects.toBeInstanceOf(
        ConditionFailedError,
      );
    });

    it('replaces the unseen pools whole under their version, keeping their order, and refuses a stale version', async () => {
      expect(await ctx.store.putUnseenPools(ctx.cluster, 0, ['gpu', 'cpu'])).toBe(1);
      expect((await ctx.other.loadPassState(ctx.cluster)).unseenPools).toEqual({
        version: 1,
        pools: ['gpu', 'cpu'],
      });
      const err = await ctx.other.putUnseenPools(ctx.cluster, 0, ['x']).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConditionFailedError);
      expect((err as ConditionFailedError<number>).current).toBe(1);
      await expect(ctx.other.putUnseenPools(ctx.cluster, 7, ['x'])).rejects.toBeInstanceOf(
        ConditionFailedError,
      );
      expect(await ctx.other.putUnseenPools(ctx.cluster, 1, [])).toBe(2);
      expect((await ctx.store.loadPassState(ctx.cluster)).unseenPools).toEqual({ version: 2, pools: [] });
    });

    it('returns live negative entries and drops expired ones by the reader clock', async () => {
      await ctx.store.putNegativeEntries(ctx.cluster, 0, [
        { candidate: 'n1', fingerprint: 'fp-1', expiresAt: inMs(300_000) },
        { candidate: 'n2', fingerprint: 'fp-2', expiresAt: inMs(60_000) },
      ]);
      let s = await ctx.other.loadPassState(ctx.cluster);
      expect(s.negativeCache.get('n1')).toEqual({
        candidate: 'n1',
        fingerprint: 'fp-1',
        expiresAt: inMs(300_000),
      });
      expect(s.negativeCache.size).toBe(2);
      ctx.clock.advance(60_000);
      s = await ctx.other.loadPassState(ctx.cluster);
      expect([...s.negativeCache.keys()]).toEqual(['n1']);
      // Still stored, so the pass can report the lookup expired and its sweep can delete it.
      expect(s.negativeLeftovers?.get('n2')).toEqual({
        candidate: 'n2',
        fingerprint: 'fp-2',
        expiresAt: inMs(0),
        epoch: 0,
      });
    });

    it('clears the whole negative cache with one epoch bump, also against entries written late under the old epoch', async () => {
      const entries = Array.from({ length: 60 }, (_, i) => ({
        candidate: `node-${i}`,
        fingerprint: `fp-${i}`,
        expiresAt: inMs(300_000),
      }));
      await ctx.store.putNegativeEntries(ctx.cluster, 0, entries);
      expect((await ctx.other.loadPassState(ctx.cluster)).negativeCache.size).toBe(60);
      expect(await ctx.other.clearNegativeCache(ctx.cluster)).toBe(1);
      await ctx.store.putNegativeEntries(ctx.cluster, 0, [
        { candidate: 'late', fingerprint: 'old', expiresAt: inMs(300_000) },
      ]);
      let s = await ctx.store.loadPassState(ctx.cluster);
      expect(s.epoch).toBe(1);
      expect(s.negativeCache.size).toBe(0);
      expect(s.negativeLeftovers?.get('late')?.epoch).toBe(0);
      expect(s.negativeLeftovers?.size).toBe(61);
      await ctx.store.putNegativeEntries(ctx.cluster, 1, [
        { candidate: 'node-1', fingerprint: 'new', expiresAt: inMs(300_000) },
      ]);
      s = await ctx.store.loadPassState(ctx.cluster);
      expect([...s.negativeCache.values()].map((e) => e.fingerprint)).toEqual(['new']);
    });

    it('overwrites an entry for the same candidate and deletes swept ones', async () => {
      await ctx.store.putNegativeEntries(ctx.cluster, 0, [
        { candidate: 'n1', fingerprint: 'a', expiresAt: inMs(1_000) },
        { candidate: 'n1', fingerprint: 'b', expiresAt: inMs(2_000) },
        { candidate: 'n2', fingerprint: 'c', expiresAt: inMs(2_000) },
      ]);
      expect((await ctx.store.loadPassState(ctx.cluster)).negativeCache.get('n1')?.fingerprint).toBe('b');
      await ctx.store.deleteNegativeEntries(ctx.cluster, ['n1']);
      expect([...(await ctx.store.loadPassState(ctx.cluster)).negativeCache.keys()]).toEqual(['n2']);
    });

    it('keeps verdicts, nominations and unavailable offerings until they expire', async () => {
      await ctx.store.putVerdicts(ctx.cluster, [
        {
          podKey: 'ns/p1',
          podUid: 'u1',
          reason: 'incompatible with every NodePool',
          expiresAt: inMs(120_000),
        },
        { podKey: 'ns/p2', podUid: 'u2', reason: 'taints', expiresAt: inMs(30_000) },
      ]);
      await ctx.store.putNominations(ctx.cluster, [
        { podKey: 'ns/p3', claimName: 'gpu-x', expiresAt: inMs(30_000) },
        { podKey: 'ns/p4', nodeName: 'node-4', expiresAt: inMs(120_000) },
      ]);
      await ctx.store.putUnavailableOfferings(ctx.cluster, [
        {
          cloud: 'aws',
          instanceType: 'p5.48xlarge',
          zone: 'us-east-1a',
          capacityType: 'spot',
          reason: 'InsufficientInstanceCapacity',
          expiresAt: inMs(180_000),
        },
        {
          cloud: 'gcp',
          instanceType: 'a3-highgpu-8g',
          zone: 'us-central1-a',
          capacityType: 'on-demand',
          reason: 'ZONE_RESOURCE_POOL_EXHAUSTED',
          expiresAt: inMs(30_000),
        },
      ]);
      let s = await ctx.other.loadPassState(ctx.cluster);
      expect(s.verdicts.get('ns/p1')).toMatchObject({
        podUid: 'u1',
        reason: 'incompatible with every NodePool',
      });
      expect(s.nominations.get('ns/p3')).toMatchObject({ claimName: 'gpu-x' });
      expect(s.unavailableOfferings).toHaveLength(2);
      ctx.clock.advance(30_000);
      s = await ctx.other.loadPassState(ctx.cluster);
      expect([...s.verdicts.keys()]).toEqual(['ns/p1']);
      expect([...s.nominations.keys()]).toEqual(['ns/p4']);
      expect(s.unavailableOfferings.map((o) => o.instanceType)).toEqual(['p5.48xlarge']);
      await ctx.store.deleteNominations(ctx.cluster, ['ns/p4']);
      expect((await ctx.other.loadPassState(ctx.cluster)).nominations.size).toBe(0);
    });

    it('keeps one census result per NodePool, the latest', async () => {
      const at = ctx.clock.now();
      await ctx.store.putCensus(ctx.cluster, [
        { nodePool: 'gpu', candidates: 10, counts: { delete: 2, replace: 1 }, at },
        { nodePool: 'cpu', candidates: 4, counts: {}, at },
      ]);
      await ctx.store.putCensus(ctx.cluster, [
        { nodePool: 'gpu', candidates: 11, counts: { delete: 3 }, at: inMs(600_000) },
      ]);
      expect(await ctx.other.listCensus(ctx.cluster)).toEqual([
        { nodePool: 'cpu', candidates: 4, counts: {}, at },
        { nodePool: 'gpu', candidates: 11, counts: { delete: 3 }, at: inMs(600_000) },
      ]);
    });

    it('lists a census row only until its retention passes: a deleted NodePool leaves no stale row', async () => {
      const at = ctx.clock.now();
      await ctx.store.putCensus(ctx.cluster, [
        { nodePool: 'gone', candidates: 3, counts: { delete: 1 }, at },
        { nodePool: 'live', candidates: 2, counts: {}, at },
      ]);
      ctx.clock.advance(CENSUS_RETENTION_MS - 600_000);
      const later = ctx.clock.now();
      // The next sweeps see only `live`: `gone` was deleted in between.
      await ctx.store.putCensus(ctx.cluster, [{ nodePool: 'live', candidates: 1, counts: {}, at: later }]);
      expect((await ctx.other.listCensus(ctx.cluster)).map((r) => r.nodePool)).toEqual(['gone', 'live']);
      ctx.clock.advance(600_000);
      expect(await ctx.other.listCensus(ctx.cluster)).toEqual([
        { nodePool: 'live', candidates: 1, counts: {}, at: later },
      ]);
    });

    it('stores a census shard once: a second delivery of the same shard neither replaces nor adds', async () => {
      const at = ctx.clock.now();
      const first = { runId: 'run-1', shard: 2, reached: 3, nodePools: { gpu: { delete: 1, none: 2 } }, at };
      expect(await ctx.store.putCensusShard(ctx.cluster, first)).toEqual({ created: true });
      const again = { ...first, reached: 9, nodePools: { gpu: { delete: 9 } } };
      expect(await ctx.other.putCensusShard(ctx.cluster, again)).toEqual({ created: false });
      await ctx.store.putCensusShard(ctx.cluster, { ...first, shard: 0, nodePools: { cpu: { none: 3 } } });
      await ctx.store.putCensusShard(ctx.cluster, { ...first, runId: 'run-2', shard: 0 });
      expect(await ctx.other.listCensusShards(ctx.cluster, 'run-1')).toEqual([
        { ...first, shard: 0, nodePools: { cpu: { none: 3 } } },
        first,
      ]);
      const err = await ctx.store
        .putCensusShard(ctx.cluster, { ...first, reached: -1 })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InvalidStateInputError);
      expect((err as Error).message).toMatch(/putCensusShard\.shard\.reached/);
    });

    it('names the method and field of bad pass-state input', async () => {
      const err = await ctx.store
        .putNegativeEntries(ctx.cluster, 0, [{ candidate: 'n1', fingerprint: '', expiresAt: inMs(1) }])
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InvalidStateInputError);
      expect((err as Error).message).toMatch(/putNegativeEntries\.entries\[0\]\.fingerprint/);
      await expect(
        ctx.store.putNominations(ctx.cluster, [{ podKey: 'ns/p', expiresAt: inMs(1) }]),
      ).rejects.toThrow(/needs nodeName or claimName/);
      await expect(ctx.store.loadPassState('has space')).rejects.toThrow(/loadPassState\.cluster/);
      await expect(ctx.store.putUnseenPools(ctx.cluster, 0, ['gpu', 'a#b'])).rejects.toThrow(
        /putUnseenPools\.pools\[1\]/,
      );
      await expect(ctx.store.putUnseenPools(ctx.cluster, -1, [])).rejects.toThrow(/putUnseenPools\.expected/);
      await expect(ctx.store.markEvaluated(ctx.cluster, 'gpu', 1, ['a#b'])).rejects.toThrow(
        /markEvaluated\.candidates\[0\]/,
      );
      // Cycles count up from 0 in every adapter (the port's pass-state-inputs.ts checks them for both).
      await expect(ctx.store.markEvaluated(ctx.cluster, 'gpu', -1, ['n1'])).rejects.toThrow(
        /markEvaluated\.cycle/,
      );
      await expect(ctx.store.startCoverageCycle(ctx.cluster, 'gpu', -1)).rejects.toThrow(
        /startCoverageCycle\.expected/,
      );
    });
  });
}
