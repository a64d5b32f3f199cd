// NodePool readiness (docs/mechanisms/pool-readiness.md): a NodePool whose node class is missing or not Ready is
// NotReady — scheduling skips it and the next pool by weight wins; a pod only such a pool could take gets a verdict
// that says why (and a FailedScheduling event), and the pool's readiness is a gauge and its status' conditions. Never a claim created for it (or created and dropped).
// Through the provision handler, against the Kubernetes and EC2 emulators and DynamoDB Local.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../local/kube-api/index.ts';
import { PROVISIONING_METRICS as M } from '../../../shared/provisioning/metric-names.ts';
import {
  ec2NodeClass,
  lambdaContext,
  lifecycleHandler,
  nodePool,
  pod,
  scheduledEvent,
  startHarness,
  wireLaunchers,
  type E2eHarness,
} from '../../support/e2e/index.ts';
import { eventsAbout } from '../../support/e2e/observability.ts';
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
    // kubectl describe pod: Karpenter's FailedScheduling, naming the same reason (docs/observability.md).
    expect(await eventsAbout(h, 'pinned')).toContainEqual(
      expect.objectContaining({
        type: 'Warning',
        reason: 'FailedScheduling',
        message: expect.stringMatching(
          /^Failed to schedule pod, .*NodePool aws-orphan not ready \(NodeClassReady=False, NodeClassNotFound/,
        ),
      }),
    );
    // The batch's log line names the pod and why.
    const batch = h.logger.entries.find((e) => e.message === 'provisioning batch');
    expect(batch?.fields).toMatchObject({
      claims: [],
      unschedulable: 1,
      unschedulablePods: [{ pod: 'default/pinned', reason: expect.stringContaining('NodeClassNotFound') }],
    });
    // kubectl get nodepools: READY False, and why on the NodeClassReady condition.
    await lifecycleHandler(h)(scheduledEvent(h.clock), lambdaContext('lifecycle'));
    const orphan = h.list('NodePool').find((p) => p.metadata.name === 'aws-orphan');
    const conditions = (orphan?.status as { conditions?: unknown[] }).conditions;
    expect(conditions).toContainEqual(
      expect.objectContaining({ type: 'NodeClassReady', status: 'False', reason: 'NodeClassNotFound' }),
    );
    expect(conditions).toContainEqual(
      expect.objectContaining({ type: 'Ready', status: 'False', reason: 'UnhealthyDependents' }),
    );
    const ready = h.list('NodePool').find((p) => p.metadata.name === 'aws-gpu');
    expect((ready?.status as { conditions?: unknown[] }).conditions).toContainEqual(
      expect.objectContaining({ type: 'Ready', status: 'True' }),
    );
  });
});
