// Random small fleets for the delta-simulation property: CPU and GPU pools on both clouds, bound and pending pods
// of a few shared apps (so spread, anti-affinity and affinity selectors meet across bound and pending pods),
// Volcano gangs in the backlog, PDBs, and tight packing so that backlog and moving pods compete for room.
import fc from 'fast-check';
import { catalogSchema } from '../../../shared/model/catalog.ts';
import { buildInstanceTypes, type InstanceType } from '../../../shared/scheduling/instance-type.ts';
import { node, nodePool, pdb, pod } from '../../unit/disruption/fixtures.ts';

type Obj = Record<string, unknown>;
const CLOUDS = {
  aws: { zones: ['us-east-1a', 'us-east-1b'], group: 'karpenter.k8s.aws', kind: 'EC2NodeClass' },
  gcp: { zones: ['us-central1-a', 'us-central1-b'], group: 'karpenter.k8s.gcp', kind: 'GCENodeClass' },
} as const;
type CloudName = keyof typeof CLOUDS;
/** name, cloud, CPUs, GPUs */
const TYPES: readonly (readonly [string, CloudName, number, number])[] = [
  ['c-2', 'aws', 2, 0],
  ['c-4', 'aws', 4, 0],
  ['c-8', 'aws', 8, 0],
  ['g-4', 'aws', 4, 1],
  ['n-4', 'gcp', 4, 0],
  ['n-8', 'gcp', 8, 0],
  ['a-8', 'gcp', 8, 2],
];
const APPS = ['web', 'api', 'cache', 'batch'] as const;
const GPU_TAINT = { key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' };
const GPU_TOLERATION = { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' };

export function deltaCatalog(): InstanceType[] {
  return buildInstanceTypes(
    catalogSchema.parse({
      apiVersion: 'kraftsman.dev/v1alpha1',
      kind: 'InstanceTypeCatalog',
      instanceTypes: TYPES.map(([name, cloud, cpu, gpu]) => ({
        name,
        cloud,
        capacity: {
          cpu: String(cpu),
          memory: `${cpu * 4}Gi`,
          pods: '110',
          ...(gpu ? { 'nvidia.com/gpu': String(gpu) } : {}),
        },
        offerings: CLOUDS[cloud].zones.flatMap((zone) => [
          { zone, capacityType: 'on-demand', price: 0.05 * cpu + 0.9 * gpu },
          { zone, capacityType: 'spot', price: 0.02 * cpu + 0.4 * gpu },
        ]),
      })),
    }).instanceTypes,
  );
}

const podArb = fc.record({
  app: fc.constantFrom(...APPS),
  millis: fc.constantFrom(250, 500, 1000, 1500, 2000, 3000),
  gpu: fc.boolean(),
  topology: fc.constantFrom('none', 'none', 'zone-spread', 'host-anti', 'zone-affinity'),
  created: fc.nat(5),
});
export const fleetArb = fc.record({
  nodes: fc.array(
    fc.record({ type: fc.nat(TYPES.length - 1), zone: fc.nat(1), pods: fc.array(podArb, { maxLength: 4 }) }),
    { minLength: 1, maxLength: 7 },
  ),
  backlog: fc.array(podArb, { maxLength: 10 }),
  gangs: fc.array(
    fc.record({
      size: fc.integer({ min: 2, max: 4 }),
      short: fc.nat(1),
      millis: fc.constantFrom(500, 1000, 2000),
    }),
    {
      maxLength: 2,
    },
  ),
  pdbs: fc.subarray([...APPS]),
  spot: fc.boolean(),
});
export type DeltaFleet = typeof fleetArb extends fc.Arbitrary<infer T> ? T : never;
type P = DeltaFleet['backlog'][number];

function podObj(name: string, p: P, where: { node?: string; gpuNode?: boolean }): Obj {
  const gpu = where.node ? Boolean(where.gpuNode) && p.gpu : p.gpu;
  const o = pod(name, {
    node: where.node,
    cpu: `${p.millis}m`,
    labels: { app: p.app },
    created: `2026-09-01T0${p.created}:00:00Z`,
    tolerations: gpu ? [GPU_TOLERATION] : undefined,
  });
  const spec = o.spec as Obj;
  if (gpu) {
    const [container] = spec.containers as Obj[];
    ((container as Obj).resources as Obj).requests = {
      cpu: `${p.millis}m`,
      memory: '128Mi',
      'nvidia.com/gpu': '1',
    };
    ((container as Obj).resources as Obj).limits = { 'nvidia.com/gpu': '1' };
  }
  const select = { labelSelector: { matchLabels: { app: p.app } } };
  if (p.topology === 'zone-spread')
    spec.topologySpreadConstraints = [
      {
        maxSkew: 1,
        topologyKey: 'topology.kubernetes.io/zone',
        whenUnsatisfiable: 'DoNotSchedule',
        ...select,
      },
    ];
  if (p.topology === 'host-anti')
    spec.affinity = {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { topologyKey: 'kubernetes.io/hostname', ...select },
        ],
      },
    };
  if (p.topology === 'zone-affinity')
    spec.affinity = {
      podAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          {
            weight: 50,
            podAffinityTerm: {
              topologyKey: 'topology.kubernetes.io/zone',
              labelSelector: { matchLabels: { app: 'web' } },
            },
          },
        ],
      },
    };
  return o;
}

function pools(spot: boolean): Obj[] {
  const capacity = {
    key: 'karpenter.sh/capacity-type',
    operator: 'In',
    values: spot ? ['on-demand', 'spot'] : ['on-demand'],
  };
  const out: Obj[] = [];
  for (const cloud of ['aws', 'gcp'] as const) {
    const ref = CLOUDS[cloud];
    const types = (gpu: boolean) =>
      TYPES.filter(([, c, , g]) => c === cloud && g > 0 === gpu).map(([n]) => n);
    for (const gpu of [false, true]) {
      const p = nodePool(`${gpu ? 'gpu' : 'cpu'}-${cloud}`, {
        requirements: [
          capacity,
          { key: 'node.kubernetes.io/instance-type', operator: 'In', values: types(gpu) },
        ],
        taints: gpu ? [GPU_TAINT] : undefined,
      });
      (((p.spec as Obj).template as Obj).spec as Obj).nodeClassRef = {
        group: ref.group,
        kind: ref.kind,
        name: 'default',
      };
      out.push(p);
    }
  }
  return out;
}

export function fleetObjects(f: DeltaFleet): Obj[] {
  const out: Obj[] = [
    ...pools(f.spot),
    { apiVersion: 'karpenter.k8s.aws/v1', kind: 'EC2NodeClass', metadata: { name: 'default' }, spec: {} },
    {
      apiVersion: 'karpenter.k8s.gcp/v1alpha1',
      kind: 'GCENodeClass',
      metadata: { name: 'default' },
      spec: {},
    },
  ];
  f.nodes.forEach((n, i) => {
    const [type, cloud, , gpus] = TYPES[n.type] as (typeof TYPES)[number];
    const name = `${cloud}-n${i}`;
    const zone = CLOUDS[cloud].zones[n.zone] as string;
    const o = node(name, {
      pool: `${gpus ? 'gpu' : 'cpu'}-${cloud}`,
      type,
      zone,
      labels: { 'kraftsman.dev/cloud': cloud },
      taints: gpus ? [GPU_TAINT] : undefined,
    });
    const cpu = TYPES[n.type]?.[2] ?? 4;
    (o.status as Obj).allocatable = {
      cpu: String(cpu),
      memory: `${cpu * 4}Gi`,
      pods: '110',
      ...(gpus ? { 'nvidia.com/gpu': String(gpus) } : {}),
    };
    out.push(o);
    n.pods.forEach((p, j) => out.push(podObj(`b${i}-${j}`, p, { node: name, gpuNode: gpus > 0 })));
  });
  f.backlog.forEach((p, i) => out.push(podObj(`pending-${i}`, p, {})));
  f.gangs.forEach((g, k) => {
    const group = `gang-${k}`;
    out.push({
      apiVersion: 'scheduling.volcano.sh/v1beta1',
      kind: 'PodGroup',
      metadata: { name: group, namespace: 'default' },
      spec: { minMember: g.size - g.short },
    });
    for (let m = 0; m < g.size; m++) {
      const o = podObj(
        `${group}-${m}`,
        { app: 'batch', millis: g.millis, gpu: false, topology: 'none', created: 3 },
        {},
      );
      (o.metadata as Obj).annotations = { 'scheduling.k8s.io/group-name': group };
      out.push(o);
    }
  });
  for (const app of f.pdbs) out.push(pdb(`pdb-${app}`, app, { maxUnavailable: 1 }));
  return out;
}
