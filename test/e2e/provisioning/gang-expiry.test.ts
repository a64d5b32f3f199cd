// Gang-aware expiration through the lifecycle handler (docs/mechanisms/gangs.md#expiration): a running Volcano gang
// whose claims expire is terminated in one lifecycle run, every companion with a GangExpired event naming the gang.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  nodePool,
  pod,
  podGroup,
  startHarness,
  wireLaunchers,
  type E2eHarness,
} from '../../support/e2e/index.ts';
import { lifecycleOnce, provisionOnce } from '../../support/e2e/steps.ts';

const MEMBERS = 3;
const HOUR = 3_600_000;
// the pool's claims live 24h; the test shortens one claim's to 12h and moves the clock 13h

describe('a running gang whose node expires, through the lifecycle handler', () => {
  let h: E2eHarness;
  beforeEach(async () => {
    h = await startHarness({
      objects: [nodePool('aws-gpu', 'aws', { instanceTypes: ['g5.xlarge'], expireAfter: '24h' })],
    });
    wireLaunchers(h);
  });
  afterEach(async () => {
    await h?.close();
  });

  it('terminates all of the gang’s nodes in the same run, reason expired, naming the gang', async () => {
    h.seed([
      podGroup('train', MEMBERS),
      ...Array.from({ length: MEMBERS }, (_, i) => pod(`train-${i}`, { gpus: 1, gang: 'train' })),
    ]);
    expect((await provisionOnce(h)).result).toMatchObject({ claimsCreated: MEMBERS });
    await expect.poll(() => h.list('Node').length).toBe(MEMBERS);
    await lifecycleOnce(h);
    await lifecycleOnce(h);
    expect([...h.bind().bound]).toHaveLength(MEMBERS);
    // one claim's lifetime is shorter (a NodePool edited between launches, say): only it expires on its own clock
    const [first] = h
      .list('NodeClaim')
      .map((c) => String(c.metadata.name))
      .sort();
    h.kube.store.patch(
      h.kube.typeOf('NodeClaim'),
      undefined,
      String(first),
      'application/merge-patch+json',
      { spec: { expireAfter: '12h' } },
      undefined,
    );
    h.clock.advance(13 * HOUR);
    const { result } = await lifecycleOnce(h);
    expect(result).toMatchObject({ terminated: MEMBERS, failed: 0 });
    const events = h.list('Event').filter((e) => (e as { reason?: string }).reason === 'GangExpired');
    expect(events).toHaveLength(MEMBERS - 1);
    for (const e of events)
      expect((e as { message?: string }).message).toMatch(/^gang default\/train loses its member/);
  });
});
