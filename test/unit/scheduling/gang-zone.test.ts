// One zone per gang (docs/mechanisms/gangs.md#placement): a gang that asks for it (its PodGroup's or Workload's
// `kraftsman.dev/gang-placement: zone`, or a zone requirement common to its members) is placed in the cheapest
// zone that holds it whole, where its running members already are, or refused whole with a reason naming it.
import { describe, expect, it } from 'vitest';
import type { InstanceTypeSpec } from '../../../shared/model/catalog.ts';
import { catalog, node, nodePool, pod, simulate } from '../../fixtures/builders/index.ts';

const ZONE = 'topology.kubernetes.io/zone';

/** An 8-GPU type offered in three zones at the given prices (absent: not offered there). */
function gpuType(name: string, prices: Record<string, number>): InstanceTypeSpec {
  return {
    name,
    cloud: 'aws',
    arch: 'amd64',
    capacity: { cpu: '96', memory: '768Gi', pods: '110', 'nvidia.com/gpu': '8' },
    offerings: Object.entries(prices).map(([zone, price]) => ({
      zone,
      capacityType: 'on-demand' as const,
      price,
      available: true,
    })),
  } as InstanceTypeSpec;
}

const group = (placement?: string, minMember = 3) => ({
  apiVersion: 'scheduling.volcano.sh/v1beta1',
  kind: 'PodGroup',
  metadata: {
    name: 'train',
    namespace: 'default',
    ...(placement ? { annotations: { 'kraftsman.dev/gang-placement': placement } } : {}),
  },
  spec: { minMember },
});
const volcano = { annotations: { 'scheduling.k8s.io/group-name': 'train' } };
const worker = (i: number, spec: object = {}) =>
  pod(`w-${i}`, { cpu: '8', gpu: '8', ...volcano, spec: { schedulerName: 'volcano', ...spec } });
const workers = (n: number, spec: object = {}) => Array.from({ length: n }, (_, i) => worker(i, spec));
const gpuPool = (types: string[]) =>
  nodePool('gpu', {
    requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: types }],
  });

/** The zone values each worker's claim allows. */
const claimZones = (s: ReturnType<typeof simulate>, n: number) =>
  Array.from({ length: n }, (_, i) => s.claimOf(`w-${i}`).requirements.find((r) => r.key === ZONE)?.values);

describe('a gang that asks for one zone', () => {
  // type a is cheapest in 1a, type b in 1b: unconfined, the claims may spread over 1a and 1b
  const TYPES = catalog([
    gpuType('gpu-a', { 'us-east-1a': 10, 'us-east-1b': 30, 'us-east-1c': 25 }),
    gpuType('gpu-b', { 'us-east-1a': 30, 'us-east-1b': 11, 'us-east-1c': 25 }),
  ]);

  it('pins every claim of the gang to the cheapest zone that holds it whole', () => {
    const s = simulate([gpuPool(['gpu-a', 'gpu-b']), group('zone'), ...workers(3)], { types: TYPES });
    expect(s.pods.map((p) => p.result)).toEqual(['new', 'new', 'new']);
    expect(claimZones(s, 3)).toEqual([['us-east-1a'], ['us-east-1a'], ['us-east-1a']]);
  });

  it('leaves the zone open to each claim when the gang does not ask', () => {
    const s = simulate([gpuPool(['gpu-a', 'gpu-b']), group(), ...workers(3)], { types: TYPES });
    expect(claimZones(s, 3).every((z) => (z?.length ?? 0) > 1)).toBe(true);
  });

  it('takes the zone of its running members, even when another zone is cheaper', () => {
    const running = pod('w-run', {
      cpu: '8',
      gpu: '8',
      node: 'gpu-node',
      ...volcano,
      spec: { schedulerName: 'volcano' },
    });
    const s = simulate(
      [
        gpuPool(['gpu-a', 'gpu-b']),
        node('gpu-node', {
          type: 'gpu-a',
          zone: 'us-east-1c',
          pool: 'gpu',
          allocatable: { cpu: '96', memory: '768Gi', pods: '110', 'nvidia.com/gpu': '8' },
        }),
        running,
        group('zone', 3),
        ...workers(2),
      ],
      { types: TYPES },
    );
    expect(claimZones(s, 2)).toEqual([['us-east-1c'], ['us-east-1c']]);
  });

  it('refuses the gang whole, naming it, when no single zone holds every member', () => {
    // the gang needs a CPU master on a type only 1b offers and GPU workers on a type only 1a offers
    const types = catalog([
      gpuType('gpu-a', { 'us-east-1a': 10 }),
      {
        ...gpuType('cpu-b', { 'us-east-1b': 1 }),
        capacity: { cpu: '16', memory: '64Gi', pods: '110' },
      } as InstanceTypeSpec,
    ]);
    const master = pod('master', {
      cpu: '12',
      ...volcano,
      spec: { schedulerName: 'volcano', nodeSelector: { 'node.kubernetes.io/instance-type': 'cpu-b' } },
    });
    const objs = [gpuPool(['gpu-a', 'cpu-b']), master, ...workers(2)];
    const loose = simulate([...objs, group(undefined, 3)], { types });
    expect(loose.pods.map((p) => p.result)).toEqual(['new', 'new', 'new']);
    const s = simulate([...objs, group('zone', 3)], { types });
    expect(s.nodeClaims).toEqual([]);
    for (const p of s.pods)
      expect(p).toMatchObject({
        result: 'unschedulable',
        reason: expect.stringMatching(
          /^gang default\/train asks for one zone and no zone holds it all or nothing \(us-east-1a: .*; us-east-1b: /,
        ),
      });
  });

  it('is pinned by a zone requirement common to its members, without the annotation', () => {
    const s = simulate(
      [gpuPool(['gpu-a', 'gpu-b']), group(), ...workers(3, { nodeSelector: { [ZONE]: 'us-east-1c' } })],
      { types: TYPES },
    );
    expect(claimZones(s, 3)).toEqual([['us-east-1c'], ['us-east-1c'], ['us-east-1c']]);
  });

  it('reads the annotation on a Workload, for every gang of its pod groups', () => {
    const workload = {
      apiVersion: 'scheduling.k8s.io/v1alpha2',
      kind: 'Workload',
      metadata: {
        name: 'job',
        namespace: 'default',
        annotations: { 'kraftsman.dev/gang-placement': 'zone' },
      },
      spec: { podGroupTemplates: [{ name: 'workers', schedulingPolicy: { gang: { minCount: 3 } } }] },
    };
    const ref = { workloadRef: { name: 'job', podGroup: 'workers' } };
    const members = [0, 1, 2].map((i) => pod(`w-${i}`, { cpu: '8', gpu: '8', spec: ref }));
    const s = simulate([gpuPool(['gpu-a', 'gpu-b']), workload, ...members], { types: TYPES });
    expect(claimZones(s, 3)).toEqual([['us-east-1a'], ['us-east-1a'], ['us-east-1a']]);
  });

  it('refuses a misspelt placement annotation, naming it', () => {
    expect(() => simulate([gpuPool(['gpu-a']), group('zonal'), ...workers(1)], { types: TYPES })).toThrow(
      /kraftsman\.dev\/gang-placement.*"zonal": expected one of any, zone/s,
    );
  });
});
