// A node class's kubelet settings and root volume shape the allocatable the scheduler packs against, as Karpenter's
// NewInstanceType computes it: pods from maxPods/podsPerCore, kube-reserved overridden per resource, system-reserved
// added, eviction the larger of evictionHard and evictionSoft, ephemeral-storage the root volume.
import { describe, expect, it } from 'vitest';
import { awsOverhead, gcpOverhead } from '../../../shared/catalog/overhead.ts';
import type { InstanceTypeSpec } from '../../../shared/model/catalog.ts';
import { buildInstanceTypes } from '../../../shared/scheduling/instance-type.ts';
import { recognize } from '../../../shared/state/recognize.ts';
import { passView } from '../../../shared/state/scheduling-view.ts';
import { buildSnapshot } from '../../../shared/state/snapshot.ts';
import { nodePool, pod, simulate } from '../../fixtures/builders/index.ts';

const MI = 1024 * 1024;
const GI = 1024 * MI;

/** One 4 vCPU / 16 GiB type with 58 ENI-limited pods, its overhead as the built-in catalog computes it. */
const TYPE: InstanceTypeSpec = {
  name: 'g-4',
  cloud: 'aws',
  arch: 'amd64',
  capacity: { cpu: '4', memory: '16384Mi', pods: '58', 'ephemeral-storage': '20Gi' },
  overhead: { ...awsOverhead({ vcpus: 4, memoryMiB: 16384, maxPods: 58 }) },
  offerings: [{ zone: 'us-east-1a', capacityType: 'on-demand', price: 0.5, available: true }],
};

const nodeClass = (spec: Record<string, unknown>) => ({
  apiVersion: 'karpenter.k8s.aws/v1',
  kind: 'EC2NodeClass',
  metadata: { name: 'default' },
  spec: { amiFamily: 'AL2023', ...spec },
});

/** The allocatable (milli-units) of the pool's type as the scheduler's template holds it. */
function templateType(spec: Record<string, unknown>) {
  const { objects } = recognize(
    [nodePool('default'), nodeClass(spec)].map((value) => ({ source: 'test', value })),
  );
  const view = passView(buildSnapshot(objects, buildInstanceTypes([TYPE])));
  return view.templates[0]?.instanceTypes[0];
}

describe('the allocatable a node class gives an instance type', () => {
  it('is the catalog’s when the node class sets no kubelet configuration and no volumes', () => {
    const it = templateType({});
    const catalogType = buildInstanceTypes([TYPE])[0];
    expect(it?.allocatable).toEqual(catalogType?.allocatable);
    expect(it?.capacity).toEqual(catalogType?.capacity);
  });

  it('subtracts system-reserved, replaces kube-reserved, takes the larger eviction threshold, and caps pods', () => {
    const it = templateType({
      kubelet: {
        maxPods: 30,
        systemReserved: { cpu: '500m', memory: '1Gi' },
        kubeReserved: { memory: '2Gi' },
        evictionHard: { 'memory.available': '5%' },
        evictionSoft: { 'memory.available': '500Mi', 'nodefs.available': '15%' },
        evictionSoftGracePeriod: { 'memory.available': '1m', 'nodefs.available': '1m' },
      },
      blockDeviceMappings: [{ deviceName: '/dev/xvda', rootVolume: true, ebs: { volumeSize: '500Gi' } }],
    });
    // Karpenter's tiers on 4 vCPUs: 60m + 10m + 2 × 5m = 80m of kube-reserved, plus 500m system-reserved.
    expect(it?.allocatable.cpu).toBe(4000 - 80 - 500);
    // Memory: the VM's ceil(7.5%) = 1229Mi, kube-reserved 2Gi (replacing 11 × pods + 255 Mi), system 1Gi, and the
    // eviction threshold: 5% of the memory the kubelet sees (16384 − 1229 MiB), larger than the soft 500Mi.
    const evict = Math.ceil((((16384 - 1229) * MI) / 100) * 5);
    expect(it?.allocatable.memory).toBe(((16384 - 1229 - 2048 - 1024) * MI - evict) * 1000);
    expect(it?.capacity.pods).toBe(30_000);
    expect(it?.allocatable.pods).toBe(30_000);
    // The 500Gi root volume: 1Gi kube-reserved and the larger of 10% (default) and the soft 15% nodefs threshold.
    expect(it?.capacity['ephemeral-storage']).toBe(500 * GI * 1000);
    expect(it?.allocatable['ephemeral-storage']).toBe((500 * GI - GI - Math.ceil(500 * GI * 0.15)) * 1000);
  });

  it('counts 11 MiB of kube-reserved memory per pod the node may run (maxPods), not per ENI-limited pod', () => {
    const catalogMemory = buildInstanceTypes([TYPE])[0]?.allocatable.memory as number;
    const it = templateType({ kubelet: { maxPods: 20 } });
    expect(it?.allocatable.memory).toBe(catalogMemory + 11 * (58 - 20) * MI * 1000);
  });

  it('caps pods by podsPerCore × vCPUs (Bottlerocket has no such setting: its node classes refuse it)', () => {
    expect(templateType({ kubelet: { podsPerCore: 5 } })?.allocatable.pods).toBe(20_000);
  });
});

describe('a GCENodeClass’s boot disk and kubelet configuration', () => {
  /** An 8 vCPU / 32 GiB GCE type with its catalog overhead on the default 100 GiB boot disk: 10 + 41 GiB. */
  const GCE: InstanceTypeSpec = {
    name: 'n-8',
    cloud: 'gcp',
    arch: 'amd64',
    capacity: { cpu: '8', memory: '32768Mi', pods: '110', 'ephemeral-storage': '100Gi' },
    overhead: { ...gcpOverhead({ vcpus: 8, memoryMiB: 32768 }) },
    offerings: [{ zone: 'us-central1-a', capacityType: 'on-demand', price: 0.4, available: true }],
  };
  const gceType = (spec: Record<string, unknown>) => {
    const { objects } = recognize(
      [
        nodePool('default', { cloud: 'gcp' }),
        {
          apiVersion: 'karpenter.k8s.gcp/v1alpha1',
          kind: 'GCENodeClass',
          metadata: { name: 'default' },
          spec,
        },
      ].map((value) => ({ source: 'test', value })),
    );
    return passView(buildSnapshot(objects, buildInstanceTypes([GCE]))).templates[0]?.instanceTypes[0];
  };

  it('sizes ephemeral-storage by the boot disk, with GKE’s reservations recomputed for it', () => {
    const it = gceType({ disks: [{ boot: true, category: 'pd-ssd', sizeGiB: 200 }] });
    expect(it?.capacity['ephemeral-storage']).toBe(200 * GI * 1000);
    // 10% eviction (20 GiB) and min(50%, 35% + 6 GiB, 100 GiB) = 76 GiB system-reserved.
    expect(it?.allocatable['ephemeral-storage']).toBe((200 - 20 - 76) * GI * 1000);
  });

  it('caps pods and adds the reservations of kubeletConfiguration', () => {
    const base = buildInstanceTypes([GCE])[0];
    const it = gceType({ kubeletConfiguration: { maxPods: 32, kubeReserved: { cpu: '1' } } });
    expect(it?.allocatable.pods).toBe(32_000);
    // GKE's CPU tiers on 8 vCPUs: 60 + 10 + 10 + 4 × 2.5 = 90m, replaced by the given 1000m.
    expect(it?.allocatable.cpu).toBe((base?.allocatable.cpu as number) + 90 - 1000);
  });
});

describe('the scheduler packs against the node class’s allocatable', () => {
  const types = [TYPE];
  it('leaves a pod that would fit the catalog’s allocatable pending when system-reserved takes the room', () => {
    const big = pod('big', { cpu: '3800m' });
    expect(simulate([nodePool('default'), nodeClass({}), big], { types }).placement('big')).not.toBe(
      'unschedulable',
    );
    const reserved = simulate(
      [nodePool('default'), nodeClass({ kubelet: { systemReserved: { cpu: '500m' } } }), big],
      { types },
    );
    expect(reserved.placement('big')).toBe('unschedulable');
  });

  it('opens a second node when maxPods caps the first', () => {
    const pods = Array.from({ length: 40 }, (_, i) => pod(`p-${i}`, { cpu: '10m', memory: '10Mi' }));
    const one = simulate([nodePool('default'), nodeClass({}), ...pods], { types });
    expect(one.nodeClaims).toHaveLength(1);
    const two = simulate([nodePool('default'), nodeClass({ kubelet: { maxPods: 30 } }), ...pods], { types });
    expect(two.nodeClaims).toHaveLength(2);
  });
});
