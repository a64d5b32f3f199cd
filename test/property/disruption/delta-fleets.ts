// Random fleets for the delta-simulation property: CPU, GPU and GPU+EFA pools on both clouds, bound and pending
// pods of a few shared apps (so zone spread, hostname spread, anti-affinity and affinity selectors meet across
// bound and pending pods), GPUs and the EFA extended resource, Volcano gangs pending whole or partly running,
// PDBs, uninitialized and deleting nodes, and tight packing so that backlog and moving pods compete for room.
// Mostly small fleets, one in LARGE_ONE_IN with a few hundred pods.
import fc from 'fast-check';
import { catalogSchema } from '../../../shared/model/catalog.ts';
import { buildInstanceTypes, type InstanceType } from '../../../shared/scheduling/instance-type.ts';
import { gangMember, node, nodePool, pdb, pod, podGroup } from '../../unit/disruption/fixtures.ts';

type Obj = Record<string, unknown>;
const CLOUDS = {
  aws: {
    zones: ['us-east-1a', 'us-east-1b', 'us-east-1c'],
    group: 'karpenter.k8s.aws',
    kind: 'EC2NodeClass',
  },
  gcp: { zones: ['us-central1-a', 'us-central1-b'], group: 'karpenter.k8s.gcp', kind: 'GCENodeClass' },
} as const;
type CloudName = keyof typeof CLOUDS;
const GPU = 'nvidia.com/gpu';
const EFA = 'vpc.amazonaws.com/efa';
/** name, cloud, CPUs, GPUs, EFA interfaces */
const TYPES: readonly (readonly [string, CloudName, number, number, number])[] = [
  ['c-2', 'aws', 2, 0, 0],
  ['c-4', 'aws', 4, 0, 0],
  ['c-8', 'aws', 8, 0, 0],
  ['g-4', 'aws', 4, 1, 0],
  ['p-16', 'aws', 16, 4, 2],
  ['n-4', 'gcp', 4, 0, 0],
  ['n-8', 'gcp', 8, 0, 0],
  ['a-8', 'gcp', 8, 2, 0],
];
const APPS = ['web', 'api', 'cache', 'batch', 'infer', 'train'] as const;
const GPU_TAINT = { key: GPU, value: 'present', effect: 'NoSchedule' };
const GPU_TOLERATION = { key: GPU, operator: 'Exists', effect: 'NoSchedule' };
export const LARGE_ONE_IN = 25;

const extended = (gpus: number, efa: number): Record<string, string> => ({
  ...(gpus ? { [GPU]: String(gpus) } : {}),
  ...(efa ? { [EFA]: String(efa) } : {}),
});

export function deltaCatalog(): InstanceType[] {
  return buildInstanceTypes(catalogSchema.parse(deltaCatalogDocument()).instanceTypes);
}

/** The fleets' InstanceTypeCatalog as a document (what `kraftsman --catalog` reads). */
export function deltaCatalogDocument(): Obj {
  return {
    apiVersion: 'kraftsman.dev/v1alpha1',
    kind: 'InstanceTypeCatalog',
    instanceTypes: TYPES.map(([name, cloud, cpu, gpu, efa]) => ({
      name,
      cloud,
      capacity: { cpu: String(cpu), memory: `${cpu * 4}Gi`, pods: '110', ...extended(gpu, efa) },
      offerings: CLOUDS[cloud].zones.flatMap((zone) => [
        { zone, capacityType: 'on-demand', price: 0.05 * cpu + 0.9 * gpu },
        { zone, capacityType: 'spot', price: 0.02 * cpu + 0.4 * gpu },
      ]),
    })),
  };
}

const TOPOLOGIES = [
  'none',
  'none',
  'none',
  'zone-spread',
  'host-spread',
  'host-anti',
  'zone-anti',
  'zone-affinity',
  'host-affinity',
] as const;
const podArb = fc.record({
  app: fc.constantFrom(...APPS),
  millis: fc.constantFrom(250, 500, 1000, 1500, 2000, 3000),
  memMi: fc.constantFrom(128, 512, 2048, 6144),
  gpus: fc.constantFrom(0, 0, 0, 1, 1, 2),
  efa: fc.constantFrom(0, 0, 1),
  topology: fc.constantFrom(...TOPOLOGIES),
  created: fc.nat(5),
  doNotDisrupt: fc.constantFrom(false, false, false, false, false, false, false, true),
});
const nodeArb = (pods: number) =>
  fc.record({
    type: fc.nat(TYPES.length - 1),
    zone: fc.nat(2),
    pods: fc.array(podArb, { maxLength: pods }),
    /** 0: initialized; 1: not yet initialized; 2: being deleted (rare: its pods send every candidate to the full simulation). */
    state: fc.oneof(
      { arbitrary: fc.constant(0), weight: 24 },
      { arbitrary: fc.constantFrom(1, 2), weight: 2 },
    ),
  });
const gangArb = fc.record({
  size: fc.integer({ min: 2, max: 6 }),
  short: fc.nat(2),
  millis: fc.constantFrom(500, 1000, 2000),
  gpus: fc.constantFrom(0, 0, 1),
  /** Members already running on the fleet's nodes (the rest pending). */
  running: fc.nat(3),
});
const fleet = (nodes: number, pods: number, backlog: number) =>
  fc.record({
    nodes: fc.array(nodeArb(pods), { minLength: 1, maxLength: nodes }),
    backlog: fc.array(podArb, { maxLength: backlog }),
    gangs: fc.array(gangArb, { maxLength: 3 }),
    pdbs: fc.subarray([...APPS]),
    pdbMax: fc.constantFrom(0, 1, 2),
    spot: fc.boolean(),
    /** A pool whose nodes are all under a long consolidateAfter (-1: none): guarded consolidation destinations. */
    slow: fc.constantFrom(-1, -1, 0, 1, 2, 3),
  });
export const fleetArb = fc.oneof(
  { arbitrary: fleet(7, 5, 12), weight: LARGE_ONE_IN - 1 },
  { arbitrary: fleet(24, 12, 60), weight: 1 },
);
export type DeltaFleet = typeof fleetArb extends fc.Arbitrary<infer T> ? T : never;
type P = DeltaFleet['backlog'][number];

const select = (app: string) => ({ labelSelector: { matchLabels: { app } } });
const ZONE = 'topology.kubernetes.io/zone';
const HOST = 'kubernetes.io/hostname';

function topologyOf(p: P): Obj {
  const term = (key: string) => ({ topologyKey: key, ...select(p.app) });
  const spread = (key: string) => ({
    topologySpreadConstraints: [
      { maxSkew: 1, topologyKey: key, whenUnsatisfiable: 'DoNotSchedule', ...select(p.app) },
    ],
  });
  const required = (kind: string, key: string) => ({
    affinity: { [kind]: { requiredDuringSchedulingIgnoredDuringExecution: [term(key)] } },
  });
  switch (p.topology) {
    case 'zone-spread':
      return spread(ZONE);
    case 'host-spread':
      return spread(HOST);
    case 'host-anti':
      return required('podAntiAffinity', HOST);
    case 'zone-anti':
      return required('podAntiAffinity', ZONE);
    case 'host-affinity':
      return required('podAffinity', HOST);
    case 'zone-affinity':
      return {
        affinity: {
          podAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [
              { weight: 50, podAffinityTerm: { topologyKey: ZONE, ...select('web') } },
            ],
          },
        },
      };
    default:
      return {};
  }
}

function podObj(name: string, p: P, where: { node?: string; gpus?: number; efa?: number }): Obj {
  // a bound pod asks only for what its node has
  const gpus = where.node ? Math.min(p.gpus, where.gpus ?? 0) : p.gpus;
  const efa = gpus && (!where.node || (where.efa ?? 0) > 0) ? p.efa : 0;
  const o = pod(name, {
    node: where.node,
    cpu: `${p.millis}m`,
    labels: { app: p.app },
    created: `2026-09-01T0${p.created}:00:00Z`,
    tolerations: gpus ? [GPU_TOLERATION] : undefined,
    annotations: p.doNotDisrupt ? { 'karpenter.sh/do-not-disrupt': 'true' } : undefined,
  });
  const spec = o.spec as Obj;
  const [container] = spec.containers as Obj[];
  const ext = extended(gpus, efa);
  // extended resources need a limit equal to the request, as the API server requires
  (container as Obj).resources = {
    requests: { cpu: `${p.millis}m`, memory: `${p.memMi}Mi`, ...ext },
    ...(gpus ? { limits: ext } : {}),
  };
  Object.assign(spec, topologyOf(p));
  return o;
}

function pools(spot: boolean, slow: number): Obj[] {
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
        // every pod of the fleet is created by 05:00 and NOW is 12:00: 10h keeps the pool's nodes in their window
        ...(out.length === slow ? { consolidateAfter: '10h' } : {}),
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

function nodeObj(
  i: number,
  n: DeltaFleet['nodes'][number],
): { obj: Obj; name: string; gpus: number; efa: number } {
  const [type, cloud, cpu, gpus, efa] = TYPES[n.type] as (typeof TYPES)[number];
  const name = `${cloud}-n${i}`;
  const zones = CLOUDS[cloud].zones;
  const o = node(name, {
    pool: `${gpus ? 'gpu' : 'cpu'}-${cloud}`,
    type,
    zone: zones[n.zone % zones.length],
    labels: { 'kraftsman.dev/cloud': cloud },
    taints: gpus ? [GPU_TAINT] : undefined,
    deleting: n.state === 2,
  });
  if (n.state === 1)
    delete ((o.metadata as Obj).labels as Record<string, string>)['karpenter.sh/initialized'];
  (o.status as Obj).allocatable = {
    cpu: String(cpu),
    memory: `${cpu * 4}Gi`,
    pods: '110',
    ...extended(gpus, efa),
  };
  return { obj: o, name, gpus, efa };
}

function gangObjects(f: DeltaFleet, hosts: readonly string[]): Obj[] {
  const out: Obj[] = [];
  f.gangs.forEach((g, k) => {
    const group = `gang-${k}`;
    out.push(podGroup(group, Math.max(1, g.size - g.short)));
    for (let m = 0; m < g.size; m++) {
      const shape: P = { ...GANG_MEMBER, millis: g.millis };
      // the first `running` members run on CPU nodes round robin; the rest are pending
      const host = m < g.running ? hosts[(k + m) % Math.max(1, hosts.length)] : undefined;
      const o = podObj(`${group}-${m}`, { ...shape, gpus: host ? 0 : g.gpus }, { node: host });
      out.push(gangMember(o, group, false));
    }
  });
  return out;
}
const GANG_MEMBER: P = {
  app: 'train',
  millis: 1000,
  memMi: 512,
  gpus: 0,
  efa: 0,
  topology: 'none',
  created: 3,
  doNotDisrupt: false,
};

export function fleetObjects(f: DeltaFleet): Obj[] {
  const out: Obj[] = [
    ...pools(f.spot, f.slow),
    { apiVersion: 'karpenter.k8s.aws/v1', kind: 'EC2NodeClass', metadata: { name: 'default' }, spec: {} },
    {
      apiVersion: 'karpenter.k8s.gcp/v1alpha1',
      kind: 'GCENodeClass',
      metadata: { name: 'default' },
      spec: {},
    },
  ];
  const cpuHosts: string[] = [];
  f.nodes.forEach((n, i) => {
    const { obj, name, gpus, efa } = nodeObj(i, n);
    out.push(obj);
    if (!gpus && n.state === 0) cpuHosts.push(name);
    n.pods.forEach((p, j) => out.push(podObj(`b${i}-${j}`, p, { node: name, gpus, efa })));
  });
  f.backlog.forEach((p, i) => out.push(podObj(`pending-${i}`, p, {})));
  out.push(...gangObjects(f, cpuHosts));
  for (const app of f.pdbs) out.push(pdb(`pdb-${app}`, app, { maxUnavailable: f.pdbMax }));
  return out;
}
