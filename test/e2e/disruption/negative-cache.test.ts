// The negative cache as the fork runs it, through the consolidate handler against the emulators and DynamoDB
// Local (docs/mechanisms/negative-cache.md): in observe-only mode (the default) every lookup is published by
// result — absent, hit, changed, expired — with the stored entries as a gauge; an entry that outlived its TTL
// between invocations is reported expired, and the end-of-pass sweep deletes stored entries that expired or
// belong to a cleared epoch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KRAFTSMAN_METRICS } from '../../../shared/disruption/metric-names.ts';
import { nodeOf, runConsolidate } from '../../support/e2e/disruption-handlers.ts';
import { nodePool, pod, startHarness, wireLaunchers, type E2eHarness } from '../../support/e2e/index.ts';
import { bringUp } from '../../support/e2e/steps.ts';

const M = KRAFTSMAN_METRICS;

describe('the negative cache through the consolidate handler', () => {
  let h: E2eHarness;
  let node = '';
  beforeAll(async () => {
    // One GPU node running one GPU pod on the cheapest type: single-node consolidation finds no cheaper
    // replacement, a conclusive no-op every pass.
    h = await startHarness({
      objects: [nodePool('aws-gpu', 'aws', { instanceTypes: ['g5.xlarge', 'g5.2xlarge'] })],
    });
    wireLaunchers(h);
    await bringUp(h, [pod('train', { gpus: 1, replicaSet: 'train' })]);
    node = nodeOf(h, 'train') ?? '';
    h.clock.advance(5 * 60_000); // consolidateAfter has passed
  });
  afterAll(async () => {
    await h?.close();
  });

  const lookups = (result: string) => h.metrics.total(M.negativeCacheLookupsTotal, { result });
  const entries = () => h.metrics.named(M.negativeCacheEntries).at(-1)?.value;
  const stored = async () => h.store().loadPassState(h.clusterName);
  let touches = 0;
  /**
   * A NodePool event that changes no spec (its generation stays): it re-arms the consolidated state, as any
   * NodePool event does in Karpenter, so the next pass walks, and it leaves every negative fingerprint as it was.
   */
  const touchPool = () =>
    h.kube.store.patch(
      h.kube.typeOf('NodePool'),
      undefined,
      'aws-gpu',
      'application/merge-patch+json',
      { metadata: { annotations: { touched: String(++touches) } } },
      undefined,
    );

  it('observe-only: publishes the first lookup as absent, the next as a hit, and the entries gauge', async () => {
    expect(node).not.toBe('');
    expect(await runConsolidate(h)).toMatchObject({ outcome: 'ran', pass: 'consolidated' });
    expect([lookups('absent'), lookups('hit')]).toEqual([1, 0]);
    expect(entries()).toBe(1);
    expect([...(await stored()).negativeCache.keys()]).toEqual([node]);

    h.clock.advance(60_000);
    touchPool();
    // Observe-only: the hit is counted, the candidate still simulated, so the pass may say consolidated.
    expect(await runConsolidate(h)).toMatchObject({ outcome: 'ran', pass: 'consolidated' });
    expect([lookups('absent'), lookups('hit')]).toEqual([1, 1]);
    expect(entries()).toBe(1);
  });

  it('publishes a lookup whose pod changed as changed', async () => {
    h.kube.store.patch(
      h.kube.typeOf('Pod'),
      'default',
      'train',
      'application/merge-patch+json',
      { metadata: { labels: { touched: 'yes' } } },
      undefined,
    );
    const before = lookups('changed');
    await runConsolidate(h);
    expect(lookups('changed')).toBe(before + 1);
    expect(entries()).toBe(1);
  });

  it('an entry that outlived its TTL between invocations is looked up as expired, not absent', async () => {
    h.clock.advance(5 * 60_000 + 1);
    const [expired, absent] = [lookups('expired'), lookups('absent')];
    await runConsolidate(h);
    expect(lookups('expired')).toBe(expired + 1);
    expect(lookups('absent')).toBe(absent);
  });

  it('the end-of-pass sweep deletes stored entries that expired or belong to a cleared epoch', async () => {
    const store = h.store();
    const { epoch } = await stored();
    const soon = new Date(h.clock.now().getTime() + 1_000);
    // A node long gone (never looked up again) and an entry written late under an epoch already cleared.
    await store.putNegativeEntries(h.clusterName, epoch, [
      { candidate: 'gone-node', fingerprint: 'fp-gone', expiresAt: soon },
    ]);
    await store.putNegativeEntries(h.clusterName, epoch - 1, [
      { candidate: 'late-node', fingerprint: 'fp-late', expiresAt: new Date(soon.getTime() + 600_000) },
    ]);
    h.clock.advance(2_000);
    touchPool();
    const before = await stored();
    expect([...(before.negativeLeftovers?.keys() ?? [])].sort()).toEqual(['gone-node', 'late-node']);

    await runConsolidate(h);
    const after = await stored();
    expect(after.negativeLeftovers?.size).toBe(0);
    expect([...after.negativeCache.keys()]).toEqual([node]);
    expect(entries()).toBe(1);
  });
});
