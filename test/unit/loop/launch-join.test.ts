// The launch's join token (docs/mechanisms/bootstrap.md#kubeadm): only Kubeadm classes get one; a named Secret is
// read; otherwise one is issued per 30-minute window, the same for a retry in the window, living 30 to 60 minutes.
import { describe, expect, it } from 'vitest';
import { JOIN_TOKEN_WINDOW_MS, joinTokenFor } from '../../../shared/loop/launch-join.ts';
import { FakeCluster } from '../../fakes/cluster.ts';
import { ManualClock } from '../../fakes/manual-clock.ts';
import { ec2Class, gceClass } from '../provisioning/bootstrap/fixtures.ts';

describe('joinTokenFor', () => {
  it('issues none for families that do not join with kubeadm', async () => {
    const cluster = new FakeCluster();
    const deps = { cluster, clock: new ManualClock() };
    expect(await joinTokenFor(deps, [ec2Class({ amiFamily: 'AL2023' })], 'c/u')).toBeUndefined();
    expect(await joinTokenFor(deps, [ec2Class({ amiFamily: 'Bottlerocket' })], 'c/u')).toBeUndefined();
    expect(cluster.joinTokens.size).toBe(0);
  });

  it('issues one per launch and window: a retry in the window gets it again, a later launch a new one', async () => {
    const cluster = new FakeCluster();
    const clock = new ManualClock(Date.parse('2026-11-30T00:10:00Z'));
    const deps = { cluster, clock };
    const nc = [ec2Class({ amiFamily: 'Kubeadm' })];
    const first = await joinTokenFor(deps, nc, 'gpu-abc12/uid-1');
    clock.advance(15 * 60_000);
    expect(await joinTokenFor(deps, nc, 'gpu-abc12/uid-1')).toEqual(first);
    expect([...cluster.joinTokens.values()].map((t) => t.expiresAt?.toISOString())).toEqual([
      '2026-11-30T01:00:00.000Z',
    ]);
    clock.advance(JOIN_TOKEN_WINDOW_MS);
    expect(await joinTokenFor(deps, nc, 'gpu-abc12/uid-1')).not.toEqual(first);
    expect(await joinTokenFor(deps, [gceClass({})], 'other/uid-2')).toBeDefined();
    expect(cluster.joinTokens.size).toBe(3);
  });

  it("reads the node class's joinTokenSecretRef instead of issuing one", async () => {
    const cluster = new FakeCluster();
    cluster.joinTokens.set('bootstrap-token-abcdef', { id: 'abcdef', secret: '0123456789abcdef' });
    const nc = ec2Class({
      amiFamily: 'Kubeadm',
      bootstrap: {
        apiServerEndpoint: 'https://x:6443',
        caCertHash: `sha256:${'0'.repeat(64)}`,
        joinTokenSecretRef: { name: 'bootstrap-token-abcdef' },
      },
    });
    expect(await joinTokenFor({ cluster, clock: new ManualClock() }, [nc], 'c/u')).toEqual({
      id: 'abcdef',
      secret: '0123456789abcdef',
    });
    expect(cluster.joinTokens.size).toBe(1);
  });
});
