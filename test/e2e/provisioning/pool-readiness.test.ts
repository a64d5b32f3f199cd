// NodePool readiness (docs/mechanisms/pool-readiness.md): a NodePool whose node class is missing or not Ready is
// NotReady — scheduling skips it and the next pool by weight wins; a pod only such a pool could take gets a verdict
// that says why, and the pool's readiness is a gauge. Never a claim created for it (or created and dropped).
// Through the provision handler, against the Kubernetes and EC2 emulators and DynamoDB Local.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../local/kube-api/index.ts';
import { PROVISIONING_METRICS as M } from '../../../shared/provisioning/metric-names.ts';
import {
  ec2NodeClass,
  nodePool,
  pod,
  startHarness,
  wireLaunchers,
  type E2eHarness,
} from '../../support/e2e/index.ts';
import { claimOfPool, labelsOf, provisionOnce } from '../../support/e2e/steps.ts';

/** An aws pool on node class `className`, weighted above the plain aws-gpu pool. */
function heavyPool(name: string, className: string): KubeObject {
  const p = nodePool(name, 'aws', { weight: 100, instanceTypes: ['g5.xlarge'] });
  const spec = (p.spec as { template: { spec: { nodeClassRef: { name: string } } } }).template.spec;
  spec.nodeClassRef.name = className;
  return p;
}

describe('NodePool readiness', () => {
  let h: E2eHarness;
  beforeEach(async () => {
    h = await startHarness({
      objects: [nodePool('aws-gpu', 'aws', { instanceTypes: ['g5.xlarge'] })],
    });
    wireLaunchers(h);
  });
  afterEach(async () => {
    await h?.close();
  });

  const verdictOf = async (podName: string) =>
    (await h.store().loadPassState(h.clusterName)).verdicts.get(`default/${podName}`);

  it('a pool whose node class is missing is skipped: the next pool by weight gets the claim', async () => {
    h.seed([heavyPool('aws-orphan', 'gone'), pod('wants-gpu', { gpus: 1 })]);
    expect((await provisionOnce(h)).result).toMatchObject({ claimsCreated: 1, unschedulable: 0 });
    expect(claimOfPool(h, 'aws-orphan')).toEqual([]);
    expect(claimOfPool(h, 'aws-gpu').map((c) => labelsOf(c)['karpenter.sh/nodepool'])).toEqual(['aws-gpu']);
    expect(h.metrics.named(M.nodePoolReady, { nodepool: 'aws-orphan' }).at(-1)?.value).toBe(0);
    expect(h.metrics.named(M.nodePoolReady, { nodepool: 'aws-gpu' }).at(-1)?.value).toBe(1);
  });

  it('a pool whose node class reports Ready=False is skipped too, never launched on', async () => {
    const broken = ec2NodeClass('broken');
    broken.status = {
      conditions: [
        {
          type: 'Ready',
          status: 'False',
          reason: 'SubnetsNotFound',
          message: 'no subnet matches the selector terms',
          lastTransitionTime: h.clock.now().toISOString(),
        },
      ],
    };
    h.seed([broken, heavyPool('aws-broken', 'broken'), pod('wants-gpu', { gpus: 1 })]);
    expect((await provisionOnce(h)).result).toMatchObject({ claimsCreated: 1 });
    expect(claimOfPool(h, 'aws-broken')).toEqual([]);
    expect(claimOfPool(h, 'aws-gpu')).toHaveLength(1);
  });

  it('a pod only a NotReady pool could take gets a verdict naming why, and no claim', async () => {
    h.seed([
      heavyPool('aws-orphan', 'gone'),
      pod('pinned', { gpus: 1, nodeSelector: { 'karpenter.sh/nodepool': 'aws-orphan' } }),
    ]);
    expect((await provisionOnce(h)).result).toMatchObject({
      claimsCreated: 0,
      unschedulable: 1,
      verdicts: 1,
    });
    expect(h.list('NodeClaim')).toEqual([]);
    const verdict = await verdictOf('pinned');
    expect(verdict?.reason).toContain(
      'NodePool aws-orphan not ready (NodeClassReady=False, NodeClassNotFound: EC2NodeClass gone not found)',
    );
  });
});
