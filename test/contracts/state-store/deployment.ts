// The deployment id part of the StateStore contract: created once by the first reader, the same for every
// reader after, and one id when first readers race (docs/mechanisms/identity.md#instances).
import { describe, expect, it } from 'vitest';
import type { ContractContext } from './contract.ts';

export function deploymentContract(ctx: ContractContext): void {
  describe('deployment id', () => {
    it('stores the first candidate and returns it to every later reader, whatever they propose', async () => {
      expect(await ctx.store.deploymentId(ctx.cluster, 'dep-first')).toBe('dep-first');
      expect(await ctx.other.deploymentId(ctx.cluster, 'dep-second')).toBe('dep-first');
      expect(await ctx.store.deploymentId(ctx.cluster, 'dep-third')).toBe('dep-first');
    });

    it('keeps one id per cluster: another cluster in the same table gets its own', async () => {
      await ctx.store.deploymentId(ctx.cluster, 'dep-a');
      expect(await ctx.store.deploymentId(`${ctx.cluster}-other`, 'dep-b')).toBe('dep-b');
    });

    it('ends two racing first readers with one id', async () => {
      const [a, b] = await Promise.all([
        ctx.store.deploymentId(ctx.cluster, 'dep-racer-a'),
        ctx.other.deploymentId(ctx.cluster, 'dep-racer-b'),
      ]);
      expect(a).toBe(b);
      expect(['dep-racer-a', 'dep-racer-b']).toContain(a);
      expect(await ctx.store.deploymentId(ctx.cluster, 'dep-late')).toBe(a);
    });
  });
}
