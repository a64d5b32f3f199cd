// Contract: the pass snapshot reads ProvisioningRequests (through the CRD infra/crds ships) and the PodTemplates
// they name, through the real client; a server without the CRD reads as having none
// (docs/mechanisms/provisioning-requests.md).
import { afterEach, describe, expect, it } from 'vitest';
import { defaultCrds } from '../../../local/kube-api/crds.ts';
import { ConflictError } from '../../../shared/ports/cluster/errors.ts';
import { requestPods, templatesByKey } from '../../../shared/state/request-pods.ts';
import { startHarness, type Harness } from './harness.ts';

const objects = [
  { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ml' } },
  {
    apiVersion: 'v1',
    kind: 'PodTemplate',
    metadata: { namespace: 'ml', name: 'worker' },
    template: { spec: { containers: [{ name: 'c', resources: { requests: { cpu: '4' } } }] } },
  },
  {
    apiVersion: 'autoscaling.x-k8s.io/v1',
    kind: 'ProvisioningRequest',
    metadata: { namespace: 'ml', name: 'job' },
    spec: {
      provisioningClassName: 'best-effort-atomic-scale-up.autoscaling.x-k8s.io',
      podSets: [{ podTemplateRef: { name: 'worker' }, count: 3 }],
    },
  },
];

let h: Harness | undefined;
afterEach(() => h?.close());

describe('ProvisioningRequests in the pass snapshot', () => {
  it('reads requests and their PodTemplates, cold and warm, into the pods they stand for', async () => {
    h = await startHarness();
    h.emulator.seed(objects);
    const cluster = h.cluster();
    for (const mode of ['list', 'catch-up']) {
      const read = await cluster.readSnapshot();
      expect(read.reads.ProvisioningRequest.mode).toBe(mode);
      const [pr] = read.objects.provisioningRequests;
      if (!pr) throw new Error('no request read');
      const pods = requestPods(pr, templatesByKey(read.objects.podTemplates));
      expect(pods.map((p) => p.metadata.name)).toEqual(['job-0-0', 'job-0-1', 'job-0-2']);
      expect(pods[0]?.metadata.annotations?.['autoscaling.x-k8s.io/consume-provisioning-request']).toBe(
        'job',
      );
    }
  });

  it('skips a PodTemplate the model refuses, reporting it, instead of failing the pass', async () => {
    h = await startHarness();
    h.emulator.seed([
      ...objects,
      {
        apiVersion: 'v1',
        kind: 'PodTemplate',
        metadata: { namespace: 'ml', name: 'empty' },
        template: { spec: { containers: [] } },
      },
    ]);
    const read = await h.cluster().readSnapshot();
    expect(read.objects.podTemplates.map((t) => t.metadata.name)).toEqual(['worker']);
    expect(read.invalid).toMatchObject([{ kind: 'PodTemplate', name: 'empty', nodes: [], providerIds: [] }]);
    expect(read.warnings.join('\n')).toMatch(/template\.spec\.containers/);
  });

  it('reads a server without the ProvisioningRequest CRD as having none, on every read', async () => {
    h = await startHarness({ crds: defaultCrds().filter((c) => c.spec.group !== 'autoscaling.x-k8s.io') });
    h.emulator.seed(objects.filter((o) => o.kind !== 'ProvisioningRequest'));
    const cluster = h.cluster();
    for (let i = 0; i < 2; i++) {
      const read = await cluster.readSnapshot();
      expect(read.objects.provisioningRequests).toEqual([]);
      expect(read.reads.ProvisioningRequest).toMatchObject({ mode: 'list', objects: 0 });
      expect(read.objects.podTemplates).toHaveLength(1);
    }
  });

  it('patches a request’s conditions through /status, pinned to the version read; a stale version is a conflict', async () => {
    h = await startHarness();
    h.emulator.seed(objects);
    const cluster = h.cluster();
    const [pr] = (await cluster.readSnapshot()).objects.provisioningRequests;
    if (!pr) throw new Error('no request read');
    const rv = pr.metadata.resourceVersion ?? '';
    const condition = {
      type: 'Provisioned',
      status: 'True',
      reason: 'CapacityIsFound',
      message: 'Capacity is found in the cluster',
      lastTransitionTime: '2026-09-01T00:00:00Z',
      observedGeneration: 1,
    };
    await cluster.patchRequestStatus({ namespace: 'ml', name: 'job' }, rv, { conditions: [condition] });
    const [after] = (await cluster.readSnapshot()).objects.provisioningRequests;
    expect(after?.status?.conditions).toEqual([condition]);
    expect(after?.spec).toEqual(pr.spec);
    await expect(
      cluster.patchRequestStatus({ namespace: 'ml', name: 'job' }, rv, { conditions: [] }),
    ).rejects.toBeInstanceOf(ConflictError);
  });
});
