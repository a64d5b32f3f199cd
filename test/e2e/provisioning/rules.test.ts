// Rules the tests let drift (issue 29, item 11), through the provision and lifecycle handlers on the emulators
// and DynamoDB Local, each asserted so that breaking the rule fails it:
// - a toleration's value matters (operator Equal): a pod tolerating gpu=false:NoSchedule never lands on a
//   gpu=true:NoSchedule pool, even the heavier one (core/v1 ToleratesTaint; Karpenter's scheduling.Taints);
// - a GPU node is not Initialized until its extended resources are registered in its allocatable (Karpenter's
//   RequestedResourcesRegistered: the device plugin is up);
// - an interruption message whose drain failed is handed back to the queue (a batch item failure), not deleted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spotInterruptionWarning } from '../../../local/ec2/events.ts';
import type { KubeObject } from '../../../local/kube-api/index.ts';
import { nodePool, pod, startHarness, wireLaunchers, type E2eHarness } from '../../support/e2e/index.ts';
import {
  bringUp,
  instanceOf,
  interruptionBatch,
  labelsOf,
  lifecycleOnce,
  nodeOf,
  providerIdOf,
  provisionOnce,
} from '../../support/e2e/steps.ts';

const taint = (value: string) => ({ key: 'gpu', value, effect: 'NoSchedule' });
const tolerates = (value: string) => [{ key: 'gpu', operator: 'Equal', value, effect: 'NoSchedule' }];
const conditionOf = (claim: KubeObject | undefined, type: string): string | undefined =>
  (claim?.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions?.find(
    (c) => c.type === type,
  )?.status;

describe('rules the tests let drift', () => {
  let h: E2eHarness;
  beforeAll(async () => {
    h = await startHarness({
      objects: [
        // The gpu=true pool weighs more: a pod that (wrongly) tolerated it would go there first.
        nodePool('gpu-true', 'aws', { weight: 100, instanceTypes: ['g5.xlarge'], taints: [taint('true')] }),
        nodePool('gpu-false', 'aws', { weight: 10, instanceTypes: ['g5.xlarge'], taints: [taint('false')] }),
      ],
    });
    wireLaunchers(h);
  });
  afterAll(async () => {
    await h?.close();
  });

  const newClaims = (before: ReadonlySet<string>) =>
    h.list('NodeClaim').filter((c) => !before.has(String(c.metadata.name)));
  const claimNamed = (name: string) => h.list('NodeClaim').find((c) => c.metadata.name === name);
  const waitForNode = async (claim: KubeObject) => {
    for (let i = 0; i < 200 && !nodeOf(h, claim); i++) await new Promise((r) => setTimeout(r, 25));
    const node = nodeOf(h, claim);
    if (!node) throw new Error(`no Node registered for ${String(claim.metadata.name)}`);
    return node;
  };

  it('a pod tolerating gpu=false:NoSchedule gets a claim of the gpu=false pool, never of the gpu=true pool', async () => {
    const before = new Set(h.list('NodeClaim').map((c) => String(c.metadata.name)));
    h.seed([
      pod('wants-false', { gpus: 1, tolerations: tolerates('false') }),
      pod('wants-true', { gpus: 1, tolerations: tolerates('true') }),
    ]);
    const { result } = await provisionOnce(h);
    expect(result).toMatchObject({ outcome: 'ran', claimsCreated: 2 });
    const pools = newClaims(before).map((c) => labelsOf(c)['karpenter.sh/nodepool']);
    expect(pools.sort()).toEqual(['gpu-false', 'gpu-true']);
    // Bound as kube-scheduler would bind them: each on its own pool's node.
    await lifecycleOnce(h);
    h.bind();
    const poolOfPod = (name: string) => {
      const nodeName = (h.list('Pod').find((p) => p.metadata.name === name)?.spec as { nodeName?: string })
        ?.nodeName;
      const node = h.list('Node').find((n) => n.metadata.name === nodeName);
      return node && labelsOf(node)['karpenter.sh/nodepool'];
    };
    for (const c of newClaims(before)) await waitForNode(c);
    await lifecycleOnce(h);
    h.bind();
    expect(poolOfPod('wants-false')).toBe('gpu-false');
    expect(poolOfPod('wants-true')).toBe('gpu-true');
  });

  it('a GPU node is not Initialized until nvidia.com/gpu is registered in its allocatable', async () => {
    const before = new Set(h.list('NodeClaim').map((c) => String(c.metadata.name)));
    h.seed([pod('gpu-init', { gpus: 1, tolerations: tolerates('false') })]);
    await provisionOnce(h);
    const [claim] = newClaims(before);
    if (!claim) throw new Error('no claim provisioned');
    const node = await waitForNode(claim);
    const name = String(node.metadata.name);
    const setGpus = (n: string) => {
      const allocatable = { ...(node.status as { allocatable: Record<string, string> }).allocatable };
      h.kube.store.patch(
        h.kube.typeOf('Node'),
        undefined,
        name,
        'application/merge-patch+json',
        {
          status: { allocatable: { ...allocatable, 'nvidia.com/gpu': n }, capacity: { 'nvidia.com/gpu': n } },
        },
        'status',
      );
    };
    // The kubelet zeroes an extended resource until its device plugin registers it.
    setGpus('0');
    await lifecycleOnce(h); // registers
    await lifecycleOnce(h); // would initialize
    const waiting = claimNamed(String(claim.metadata.name));
    expect(conditionOf(waiting, 'Registered')).toBe('True');
    expect(conditionOf(waiting, 'Initialized')).not.toBe('True');
    const current = h.list('Node').find((n) => n.metadata.name === name);
    expect(current && labelsOf(current)['karpenter.sh/initialized']).toBeUndefined();

    setGpus('1');
    await lifecycleOnce(h);
    expect(conditionOf(claimNamed(String(claim.metadata.name)), 'Initialized')).toBe('True');
  });

  it('an interruption message whose drain failed is handed back to the queue, then handled on redelivery', async () => {
    const [claim] = await bringUp(h, [
      pod('drained', { gpus: 1, replicaSet: 'drained', tolerations: tolerates('false') }),
    ]);
    if (!claim) throw new Error('no claim provisioned');
    const instance = h.ec2.world.instances.get(instanceOf(providerIdOf(claim)));
    if (!instance) throw new Error('no instance');
    const warning = spotInterruptionWarning(h.ec2.world, instance);
    // Every eviction fails on the server: the early drain cannot start.
    const hook = (_verb: string, route: { type: { kind: string }; subresource?: string }) =>
      route.type.kind === 'Pod' && route.subresource === 'eviction'
        ? {
            code: 500,
            body: JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 500 }),
          }
        : undefined;
    h.kube.inject.push(hook);
    let first;
    try {
      first = await interruptionBatch(h, [warning]);
    } finally {
      h.kube.inject.splice(h.kube.inject.indexOf(hook), 1);
    }
    expect(first.response).toEqual({ batchItemFailures: [{ itemIdentifier: first.ids[0] }] });

    // Redelivered once the API server answers again: the claim is already terminating, and the retry drains.
    const evictionsBefore = h.kube.audit.count('create', 'pods/eviction');
    const second = await interruptionBatch(h, [warning]);
    expect(second.response).toEqual({ batchItemFailures: [] });
    // The retry drains: the pod is evicted now, not left for later — it runs on for its grace period, or, when
    // that ran out while the batch worked (a slow machine), it is already gone.
    expect(h.kube.audit.count('create', 'pods/eviction')).toBeGreaterThan(evictionsBefore);
    const drained = h.list('Pod').find((p) => p.metadata.name === 'drained');
    if (drained) expect(drained.metadata.deletionTimestamp).toBeDefined();
  });
});
