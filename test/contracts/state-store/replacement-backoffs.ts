// The replacement-backoff part of the StateStore contract (docs/mechanisms/replacement-backoff.md): a put
// replaces a candidate's entry and every container reads it back; an entry past its expiresAt is hidden; a
// release removes an entry only while it still has the fingerprint released; bad input names its argument.
import { describe, expect, it } from 'vitest';
import { InvalidStateInputError } from '../../../shared/ports/state-store/errors.ts';
import { recordFailure, type BackoffEntry } from '../../../shared/disruption/replacement-backoff.ts';
import type { ContractContext } from './contract.ts';

const BASE = 5 * 60_000;

export function replacementBackoffContract(ctx: ContractContext): void {
  describe('replacement backoffs', () => {
    const entry = (candidate: string, fingerprint: string, previous?: BackoffEntry): BackoffEntry =>
      recordFailure(previous, { candidate, nodePool: 'gpu', fingerprint }, ctx.clock.now(), BASE);

    it('stores entries per candidate, replaces on put, and reads them back from another container', async () => {
      const a1 = entry('node-a', 'rb1:a');
      await ctx.store.putReplacementBackoffs(ctx.cluster, [a1, entry('node-b', 'rb1:b')]);
      const a2 = entry('node-a', 'rb1:a', a1);
      await ctx.store.putReplacementBackoffs(ctx.cluster, [a2]);
      const read = await ctx.other.listReplacementBackoffs(ctx.cluster);
      expect(read.map((e) => [e.candidate, e.failures])).toEqual([
        ['node-a', 2],
        ['node-b', 1],
      ]);
      expect(read[0]).toEqual(a2);
      expect(await ctx.store.listReplacementBackoffs(`${ctx.cluster}-other`)).toEqual([]);
    });

    it('hides an entry once it is past its expiresAt (quiet for twice the longest hold)', async () => {
      const e = entry('node-a', 'rb1:a');
      await ctx.store.putReplacementBackoffs(ctx.cluster, [e]);
      ctx.clock.advance(e.expiresAt.getTime() - ctx.clock.now().getTime() - 1);
      expect(await ctx.store.listReplacementBackoffs(ctx.cluster)).toHaveLength(1);
      ctx.clock.advance(1);
      expect(await ctx.store.listReplacementBackoffs(ctx.cluster)).toEqual([]);
    });

    it('releases an entry only while it holds the fingerprint released', async () => {
      await ctx.store.putReplacementBackoffs(ctx.cluster, [
        entry('node-a', 'rb1:new'),
        entry('node-b', 'rb1:b'),
      ]);
      await ctx.store.deleteReplacementBackoffs(ctx.cluster, [
        { candidate: 'node-a', fingerprint: 'rb1:old' }, // a failure recorded since: kept
        { candidate: 'node-b', fingerprint: 'rb1:b' },
        { candidate: 'node-c', fingerprint: 'rb1:c' }, // none: nothing happens
      ]);
      expect((await ctx.other.listReplacementBackoffs(ctx.cluster)).map((e) => e.candidate)).toEqual([
        'node-a',
      ]);
      // Recorded again after a release, the entry is live again.
      await ctx.store.putReplacementBackoffs(ctx.cluster, [entry('node-b', 'rb1:b')]);
      expect(await ctx.store.listReplacementBackoffs(ctx.cluster)).toHaveLength(2);
    });

    it('refuses bad input naming the method and the argument, writing nothing', async () => {
      const bad = { ...entry('node#a', 'rb1:a') };
      await expect(ctx.store.putReplacementBackoffs(ctx.cluster, [bad])).rejects.toThrow(
        InvalidStateInputError,
      );
      await expect(ctx.store.putReplacementBackoffs(ctx.cluster, [bad])).rejects.toThrow(
        /putReplacementBackoffs\.entries/,
      );
      await expect(
        ctx.store.deleteReplacementBackoffs(ctx.cluster, [{ candidate: 'a', fingerprint: '' }]),
      ).rejects.toThrow(/deleteReplacementBackoffs\.releases/);
      expect(await ctx.store.listReplacementBackoffs(ctx.cluster)).toEqual([]);
    });
  });
}
