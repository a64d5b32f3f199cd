// Gangs of the Kubernetes Workload API through the provision and launch handlers on both clouds
// (docs/mechanisms/gangs.md, "The Workload API"): a 1.36 gang PodGroup (`scheduling.k8s.io/v1alpha2`, pods naming
// it in `spec.schedulingGroup`) launches whole as one unit exactly as a Volcano gang does, and one with fewer members
// than its `minCount` opens nothing. (The emulator serves the newest release's `v1alpha2` only; the 1.35 `v1alpha1`
// Workload with `spec.workloadRef` is read by the same gang identity, tested through `kraftsman simulate`.)
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../local/kube-api/index.ts';
import { pod, startHarness, wireLaunchers, type E2eHarness } from '../../support/e2e/index.ts';
import { gpuPools } from '../../support/e2e/gpu-pools.ts';
import { provisionOnce } from '../../support/e2e/steps.ts';

const annotationsOf = (o: KubeObject) => (o.metadata.annotations ?? {}) as Record<string, string>;

/** A member needing a whole node's GPUs (g5.12xlarge: 4, g2-standard-24: 2), its gang named in `spec`. */
function member(name: string, cloud: 'aws' | 'gcp', gangRef: Record<string, unknown>): KubeObject {
  const p = pod(name, {
    gpus: cloud === 'aws' ? 4 : 2,
    cpu: '3',
    nodeSelector: { 'kraftsman.dev/cloud': cloud },
  });
  return { ...p, spec: { ...(p.spec as object), ...gangRef } };
}

describe.each(['aws', 'gcp'] as const)('Workload API gangs on %s through the handlers', (cloud) => {
  let h: E2eHarness;
  beforeEach(async () => {
    h = await startHarness({ objects: gpuPools('unweighted') });
    wireLaunchers(h);
  });
  afterEach(async () => {
    await h?.close();
  });
  const instances = () => (cloud === 'aws' ? h.ec2.world.live() : h.gce.world.live());

  it('a 1.36 gang PodGroup (minCount 3) launches whole: three claims of one gang, one launcher call', async () => {
    h.seed([
      {
        apiVersion: 'scheduling.k8s.io/v1alpha2',
        kind: 'PodGroup',
        metadata: { name: 'train', namespace: 'default' },
        spec: { schedulingPolicy: { gang: { minCount: 3 } } },
      },
      ...[0, 1, 2].map((i) => member(`train-${i}`, cloud, { schedulingGroup: { podGroupName: 'train' } })),
    ]);
    const { result } = await provisionOnce(h);
    expect(result).toMatchObject({ outcome: 'ran', claimsCreated: 3, launchesInvoked: 1 });
    const claims = h.list('NodeClaim');
    expect(claims).toHaveLength(3);
    const launchIds = new Set(claims.map((c) => annotationsOf(c)['kraftsman.dev/gang']));
    expect(launchIds.size).toBe(1);
    expect([...launchIds][0]).toMatch(/train/);
    expect(h.invoker.records.map((r) => [r.target, r.outcome])).toEqual([[`launch-${cloud}`, 'succeeded']]);
    expect(instances()).toHaveLength(3);
    if (cloud === 'aws') {
      const fleet = h.ec2.world.requests.find((q) => q.action === 'CreateFleet');
      expect(
        [...(fleet?.params.entries() ?? [])].some(([k, v]) => k.endsWith('MinTargetCapacity') && v === '3'),
      ).toBe(true);
    }
  });

  it('a gang PodGroup short of its minCount opens nothing and launches nothing', async () => {
    h.seed([
      {
        apiVersion: 'scheduling.k8s.io/v1alpha2',
        kind: 'PodGroup',
        metadata: { name: 'tune', namespace: 'default' },
        spec: { schedulingPolicy: { gang: { minCount: 3 } } },
      },
      ...[0, 1].map((i) => member(`tune-${i}`, cloud, { schedulingGroup: { podGroupName: 'tune' } })),
    ]);
    const { result } = await provisionOnce(h);
    expect(result).toMatchObject({ outcome: 'ran', claimsCreated: 0, launchesInvoked: 0 });
    expect(h.list('NodeClaim')).toEqual([]);
    expect(instances()).toEqual([]);
  });
});
