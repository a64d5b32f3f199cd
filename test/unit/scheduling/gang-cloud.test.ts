// One cloud per gang (docs/mechanisms/gangs.md#mixed-shapes): a gang launches through one cloud's launcher, so a
// placement that puts a CPU master on one cloud and GPU workers on the other is placed again on one cloud that
// holds all of it, and refused whole, with a reason naming both clouds, when none does.
import { describe, expect, it } from 'vitest';
import type { InstanceTypeSpec } from '../../../shared/model/catalog.ts';
import { catalog, nodePool, pod, simulate } from '../../fixtures/builders/index.ts';

const GPU_TAINT = { key: 'nvidia.com/gpu', value: 'true', effect: 'NoSchedule' };
const ZONES = ['us-east-1a', 'us-east-1b'];

function type(
  name: string,
  cloud: 'aws' | 'gcp',
  cpu: number,
  gpus: number,
  price: number,
): InstanceTypeSpec {
  return {
    name,
    cloud,
    arch: 'amd64',
    capacity: {
      cpu: String(cpu),
      memory: `${cpu * 8}Gi`,
      pods: '110',
      ...(gpus ? { 'nvidia.com/gpu': String(gpus) } : {}),
    },
    offerings: ZONES.map((zone) => ({ zone, capacityType: 'on-demand' as const, price, available: true })),
  } as InstanceTypeSpec;
}

/** s-* (aws, from 0.10/h) are the cheapest CPU hosts; gcp's 8-GPU host is cheaper than aws's. */
const TYPES = catalog([
  type('g-cpu-8', 'gcp', 8, 0, 0.4),
  type('gpu8-gcp', 'gcp', 96, 8, 20),
  type('gpu8-aws', 'aws', 96, 8, 30),
]);

const pool = (name: string, cloud: 'aws' | 'gcp', types: string[], gpu = false) =>
  nodePool(name, {
    cloud,
    requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: types }],
    ...(gpu ? { taints: [GPU_TAINT] } : {}),
  });

const group = {
  apiVersion: 'scheduling.volcano.sh/v1beta1',
  kind: 'PodGroup',
  metadata: { name: 'train', namespace: 'default' },
  spec: { minMember: 3 },
};
const volcano = { annotations: { 'scheduling.k8s.io/group-name': 'train' } };
const gang = [
  group,
  pod('master', { cpu: '1', ...volcano, spec: { schedulerName: 'volcano' } }),
  ...[0, 1].map((i) =>
    pod(`worker-${i}`, {
      cpu: '8',
      gpu: '8',
      ...volcano,
      spec: {
        schedulerName: 'volcano',
        tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
      },
    }),
  ),
];
const cloudOf = (s: ReturnType<typeof simulate>, p: string) =>
  s.claimOf(p).requirements.find((r) => r.key === 'kraftsman.dev/cloud')?.values;

describe('a gang is placed on one cloud', () => {
  it('moves the CPU master to the cloud of the GPU workers when each cloud has both kinds of pool', () => {
    const s = simulate(
      [
        pool('aws-cpu', 'aws', ['s-2', 's-4']),
        pool('gcp-cpu', 'gcp', ['g-cpu-8']),
        pool('aws-gpu', 'aws', ['gpu8-aws'], true),
        pool('gcp-gpu', 'gcp', ['gpu8-gcp'], true),
        ...gang,
      ],
      { types: TYPES },
    );
    expect(s.pods.map((p) => p.result)).toEqual(['new', 'new', 'new']);
    for (const p of ['master', 'worker-0', 'worker-1']) expect(cloudOf(s, p), p).toEqual(['gcp']);
    expect(s.claimOf('master').nodePool).toBe('gcp-cpu');
    expect(s.nodeClaims.every((c) => c.gang === 'default/train')).toBe(true);
  });

  it('refuses the gang whole, naming both clouds, when no one cloud holds all of it', () => {
    const s = simulate(
      [pool('aws-cpu', 'aws', ['s-2', 's-4']), pool('gcp-gpu', 'gcp', ['gpu8-gcp'], true), ...gang],
      { types: TYPES },
    );
    expect(s.nodeClaims).toEqual([]);
    for (const p of s.pods)
      expect(p).toMatchObject({
        result: 'unschedulable',
        reason: expect.stringMatching(
          /gang default\/train needs NodePools on more than one cloud \(gcp, aws\)/,
        ),
      });
  });
});
