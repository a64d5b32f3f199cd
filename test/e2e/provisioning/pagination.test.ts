// NodeClaim and pod pagination past one page, through the lifecycle: a termination that ends by releasing
// Karpenter's finalizer finds its claim by listing every NodeClaim, and a drain finds every pod by listing the
// Node's pods — over 500 of each (the adapter's page size) while the API server serves pages short or empty at
// random, as a real one may (the e2e harness's shortPages). A loop that stopped at the first page would leave the
// claim held, or terminate the instance under pods it never saw.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../local/kube-api/index.ts';
import { pod, type E2eHarness } from '../../support/e2e/index.ts';
import { startOneTypeGpuHarness } from '../../support/e2e/gpu-pools.ts';
import { bringUp, instanceOf, lifecycleOnce, nodeOf, podsOn, providerIdOf } from '../../support/e2e/steps.ts';

const KARPENTER = 'karpenter.sh/termination';
/** The emulator's default grace period is 30 s: past it, evicted pods are gone and the drain can finish. */
const PAST_GRACE_MS = 31_000;
const FILLER_CLAIMS = 560;
const EXTRA_PODS = 540;

describe('NodeClaim and pod pagination past one page', () => {
  let h: E2eHarness;
  beforeAll(async () => {
    h = await startOneTypeGpuHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  const find = (kind: string, name: string): KubeObject | undefined =>
    h.list(kind).find((o) => o.metadata.name === name);
  const hold = (kind: 'Node' | 'NodeClaim', name: string): void => {
    h.kube.store.patch(
      h.kube.typeOf(kind),
      undefined,
      name,
      'application/merge-patch+json',
      { metadata: { finalizers: [KARPENTER] } },
      undefined,
    );
  };
  /** Claims that sort before the real one ("aa…" < "aws-gpu-…"), so that it lies past the first page. */
  const fillers = (): KubeObject[] =>
    Array.from({ length: FILLER_CLAIMS }, (_, i) => ({
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodeClaim',
      metadata: { name: `aa-filler-${String(i).padStart(4, '0')}` },
      spec: {
        nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'elsewhere' },
        requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['g5.xlarge'] }],
      },
    }));

  it('drains every pod of a Node holding more than a page of them, then releases a claim listed past one page', async () => {
    const [claim] = await bringUp(h, [
      pod('big-p0', { gpus: 1, nodeSelector: { 'karpenter.sh/nodepool': 'aws-gpu' } }),
    ]);
    const node = claim && nodeOf(h, claim);
    if (!claim || !node) throw new Error('no registered NodeClaim with a Node');
    const nodeName = String(node.metadata.name);
    const claimName = String(claim.metadata.name);
    const id = providerIdOf(claim);
    // More pods bound to the Node than one page holds (the kubelet's view; the binder plays no part).
    h.seed(
      Array.from({ length: EXTRA_PODS }, (_, i) => ({
        ...pod(`big-extra-${String(i).padStart(4, '0')}`, { cpu: '1m', memory: '1Mi' }),
        spec: { nodeName, containers: [{ name: 'c' }] },
        status: { phase: 'Running' },
      })),
    );
    h.seed(fillers());
    hold('NodeClaim', claimName);
    hold('Node', nodeName);
    h.kube.store.delete(h.kube.typeOf('NodeClaim'), undefined, claimName);

    expect((await lifecycleOnce(h)).result).toMatchObject({ outcome: 'ran', failed: 0, drained: 0 });
    // Every pod on the Node was evicted, not only the first page's.
    expect(podsOn(h, nodeName).filter((p) => !p.metadata.deletionTimestamp)).toEqual([]);
    expect(h.ec2.world.instances.get(instanceOf(id))?.state).toBe('running');

    h.clock.advance(PAST_GRACE_MS);
    expect((await lifecycleOnce(h)).result).toMatchObject({ failed: 0, drained: 1 });
    expect(h.ec2.world.instances.get(instanceOf(id))?.state).not.toBe('running');
    expect(find('Node', nodeName)).toBeUndefined();
    expect(find('NodeClaim', claimName)).toBeUndefined();
    expect(h.list('NodeClaim').filter((c) => String(c.metadata.name).startsWith('aa-filler-'))).toHaveLength(
      FILLER_CLAIMS,
    );
  });
});
