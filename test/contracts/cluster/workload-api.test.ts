// Contract: the pass snapshot reads the Workload API's gangs (scheduling.k8s.io/v1alpha2 Workload and PodGroup)
// through the real client, and an API server that does not serve them (the GenericWorkload gate off: 404) reads as
// none of them instead of failing the pass (docs/mechanisms/gangs.md#the-workload-api).
import { afterEach, describe, expect, it } from 'vitest';
import { defaultCrds } from '../../../local/kube-api/crds.ts';
import { gangMinimums } from '../../../shared/state/gangs.ts';
import { pod, startHarness, type Harness } from './harness.ts';

const workloadObjects = [
  { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ml' } },
  {
    apiVersion: 'scheduling.k8s.io/v1alpha2',
    kind: 'Workload',
    metadata: { namespace: 'ml', name: 'train' },
    spec: { podGroupTemplates: [{ name: 'workers', schedulingPolicy: { gang: { minCount: 4 } } }] },
  },
  {
    apiVersion: 'scheduling.k8s.io/v1alpha2',
    kind: 'PodGroup',
    metadata: { namespace: 'ml', name: 'train-0' },
    spec: {
      podGroupTemplateRef: { workload: { workloadName: 'train', podGroupTemplateName: 'workers' } },
      schedulingPolicy: { gang: { minCount: 4 } },
    },
  },
  {
    apiVersion: 'scheduling.volcano.sh/v1beta1',
    kind: 'PodGroup',
    metadata: { namespace: 'ml', name: 'train-0' },
    spec: { minMember: 2 },
  },
  pod('ml', 'w-0', { spec: { containers: [{ name: 'c' }], schedulingGroup: { podGroupName: 'train-0' } } }),
];

let h: Harness | undefined;
afterEach(() => h?.close());

describe('the Workload API in the pass snapshot', () => {
  it("reads Workloads and PodGroups beside Volcano's PodGroup of the same name, cold and warm", async () => {
    h = await startHarness();
    h.emulator.seed(workloadObjects);
    const cluster = h.cluster();
    for (const mode of ['list', 'catch-up']) {
      const read = await cluster.readSnapshot();
      expect(read.reads.Workload.mode).toBe(mode);
      expect(read.objects.workloads.map((w) => w.metadata.name)).toEqual(['train']);
      expect(read.objects.workloadPodGroups.map((g) => g.spec.schedulingPolicy.gang?.minCount)).toEqual([4]);
      expect(read.objects.podGroups.map((g) => g.spec.minMember)).toEqual([2]);
      expect(read.objects.pods[0]?.spec.schedulingGroup).toEqual({ podGroupName: 'train-0' });
      expect(gangMinimums(read.objects)).toEqual(
        new Map([
          ['ml/train-0', 2],
          ['ml/workload:train/workers', 4],
          ['ml/podgroup:train-0', 4],
        ]),
      );
    }
  });

  it('reads a server without the Workload API as having none, on every read', async () => {
    h = await startHarness({
      crds: defaultCrds().filter((c) => c.spec.group !== 'scheduling.k8s.io'),
    });
    h.emulator.seed(workloadObjects.filter((o) => !String(o.apiVersion).startsWith('scheduling.k8s.io')));
    const cluster = h.cluster();
    for (let i = 0; i < 2; i++) {
      const read = await cluster.readSnapshot();
      expect(read.objects.workloads).toEqual([]);
      expect(read.objects.workloadPodGroups).toEqual([]);
      expect(read.reads.WorkloadPodGroup).toMatchObject({ mode: 'list', objects: 0 });
      expect(read.objects.podGroups).toHaveLength(1);
      expect(read.objects.pods).toHaveLength(1);
    }
  });
});
