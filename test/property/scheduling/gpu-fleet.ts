// Random GPU fleets for the simulator's properties: CPU and GPU types whose allocatable is below capacity,
// memory, GPUs and another extended resource, DaemonSets (some GPU-only, some tolerating the GPU taint),
// tainted pools, zone spread, hostname anti-affinity, host ports, Volcano gangs, and up to a few hundred pods.
import fc from 'fast-check';
import type { InstanceTypeSpec } from '../../../shared/model/catalog.ts';
import { node, nodePool, pod, spread } from '../../fixtures/builders/index.ts';

export const ZONE = 'topology.kubernetes.io/zone';
export const HOSTNAME = 'kubernetes.io/hostname';
export const ZONES = ['us-east-1a', 'us-east-1b', 'us-east-1c'];
export const GPU = 'nvidia.com/gpu';
export const NIC = 'vpc.amazonaws.com/efa';
const GPU_TAINT = { key: 'nvidia.com/gpu', effect: 'NoSchedule' };

type Obj = Record<string, unknown>;
/** Resources the properties count, in milli-units: cpu, memory (MiB·1000), gpu, nic. */
export type Vec = { cpu: number; mem: number; gpu: number; nic: number };

interface TypeShape {
  readonly name: string;
  readonly cpu: number;
  readonly memGi: number;
  readonly gpu: number;
  readonly nic: number;
  readonly price: number;
}
const TYPES: readonly TypeShape[] = [
  { name: 'c-2', cpu: 2, memGi: 4, gpu: 0, nic: 0, price: 0.08 },
  { name: 'c-8', cpu: 8, memGi: 16, gpu: 0, nic: 0, price: 0.3 },
  { name: 'm-4', cpu: 4, memGi: 32, gpu: 0, nic: 0, price: 0.25 },
  { name: 'c-32', cpu: 32, memGi: 64, gpu: 0, nic: 0, price: 1.2 },
  { name: 'g-1', cpu: 8, memGi: 32, gpu: 1, nic: 0, price: 1.0 },
  { name: 'g-4', cpu: 48, memGi: 192, gpu: 4, nic: 1, price: 5.6 },
  { name: 'g-8', cpu: 96, memGi: 768, gpu: 8, nic: 4, price: 32.8 },
];
/** Overhead that makes allocatable lower than capacity (kube-reserved plus eviction threshold). */
const OVERHEAD = { cpuMilli: 100, memMi: 512 };

export function catalogSpecs(unavailable: number): InstanceTypeSpec[] {
  return TYPES.map((t, i) => ({
    name: t.name,
    cloud: 'aws' as const,
    arch: 'amd64' as const,
    capacity: {
      cpu: String(t.cpu),
      memory: `${t.memGi}Gi`,
      pods: '110',
      ...(t.gpu ? { [GPU]: String(t.gpu) } : {}),
      ...(t.nic ? { [NIC]: String(t.nic) } : {}),
    },
    overhead: { cpu: `${OVERHEAD.cpuMilli}m`, memory: `${OVERHEAD.memMi}Mi` },
    labels: { 'example.com/gpu': t.gpu ? 'true' : 'false' },
    offerings: ZONES.flatMap((zone, z) => [
      { zone, capacityType: 'on-demand' as const, price: t.price, available: true },
      // one bit per (type, zone) of `unavailable` knocks a spot offering out
      {
        zone,
        capacityType: 'spot' as const,
        price: t.price * 0.4,
        available: ((unavailable >> (i * 3 + z)) & 1) === 0,
      },
    ]),
  }));
}

/** Allocatable of a type: capacity minus overhead (what the catalog promises). */
export function allocatableOf(typeName: string): Vec {
  const t = TYPES.find((x) => x.name === typeName);
  if (!t) throw new Error(`unknown type ${typeName}`);
  return {
    cpu: t.cpu * 1000 - OVERHEAD.cpuMilli,
    mem: (t.memGi * 1024 - OVERHEAD.memMi) * 1000,
    gpu: t.gpu * 1000,
    nic: t.nic * 1000,
  };
}
export const isGpuType = (typeName: string): boolean =>
  (TYPES.find((x) => x.name === typeName)?.gpu ?? 0) > 0;

const podArb = fc.record({
  cpuMilli: fc.constantFrom(100, 250, 500, 1000, 1500, 3000, 7000, 20000),
  memMi: fc.constantFrom(128, 512, 2048, 8192, 30000),
  gpu: fc.constantFrom(0, 0, 0, 1, 2, 4, 8),
  nic: fc.constantFrom(0, 0, 0, 1),
  app: fc.constantFrom('a', 'b', 'c', 'd'),
  zone: fc.option(fc.constantFrom(...ZONES), { nil: undefined, freq: 4 }),
  hostPort: fc.option(fc.constantFrom(80, 443), { nil: undefined, freq: 4 }),
  gang: fc.option(fc.constantFrom('g1', 'g2'), { nil: undefined, freq: 3 }),
});
export type PodShape = typeof podArb extends fc.Arbitrary<infer T> ? T : never;

const nodeArb = fc.record({
  type: fc.constantFrom(...TYPES.map((t) => t.name)),
  zone: fc.constantFrom(...ZONES),
  /** Bound pods (fractions of the node) and whether the first DaemonSet's pod already runs there. */
  bound: fc.array(
    fc.record({ cpuMilli: fc.constantFrom(100, 500, 1000, 2000), app: fc.constantFrom('a', 'c', 'd') }),
    {
      maxLength: 3,
    },
  ),
  daemonRunning: fc.boolean(),
  /** Node status allocatable below the catalog's (a kubelet reserving more). */
  shaved: fc.boolean(),
});
export type NodeShape = typeof nodeArb extends fc.Arbitrary<infer T> ? T : never;

const daemonArb = fc.record({
  cpuMilli: fc.constantFrom(50, 200, 500),
  memMi: fc.constantFrom(64, 256),
  gpuOnly: fc.boolean(),
  toleratesGpu: fc.boolean(),
});
export type DaemonShape = typeof daemonArb extends fc.Arbitrary<infer T> ? T : never;

const fleet = (pods: fc.Arbitrary<PodShape[]>) =>
  fc.record({
    pods,
    nodes: fc.array(nodeArb, { maxLength: 6 }),
    daemons: fc.array(daemonArb, { maxLength: 2 }),
    limitCpu: fc.option(fc.constantFrom(64, 256, 1024), { nil: undefined }),
    minMember: fc.integer({ min: 1, max: 4 }),
    unavailable: fc.nat(2 ** 21 - 1),
  });

/** Mostly small fleets, one in `largeOneIn` with 100–300 pods, so 1,000 cases stay quick. */
export const fleetOf = (largeOneIn: number) =>
  fc.oneof(
    { arbitrary: fleet(fc.array(podArb, { minLength: 1, maxLength: 16 })), weight: largeOneIn - 1 },
    { arbitrary: fleet(fc.array(podArb, { minLength: 100, maxLength: 300 })), weight: 1 },
  );
export const fleetArb = fleetOf(25);
export type Fleet = typeof fleetArb extends fc.Arbitrary<infer T> ? T : never;

/** App `a` spreads over zones (DoNotSchedule), app `c` never shares a host with another `c`. */
export const SPREAD_APP = 'a';
export const ANTI_APP = 'c';

export function fleetObjects(f: Fleet): Obj[] {
  const gpu = nodePool('gpu', {
    taints: [GPU_TAINT],
    requirements: [{ key: 'example.com/gpu', operator: 'In', values: ['true'] }],
  });
  if (f.limitCpu) (gpu.spec as Obj).limits = { cpu: String(f.limitCpu) };
  const cpu = nodePool('cpu', {
    requirements: [{ key: 'example.com/gpu', operator: 'In', values: ['false'] }],
  });
  const out: Obj[] = [gpu, cpu];
  f.daemons.forEach((d, i) => out.push(daemonSet(`ds-${i}`, d)));
  f.nodes.forEach((n, i) => out.push(...existingNode(`n${i}`, n, f.daemons[0])));
  for (const g of ['g1', 'g2'])
    out.push({
      apiVersion: 'scheduling.volcano.sh/v1beta1',
      kind: 'PodGroup',
      metadata: { name: g, namespace: 'default' },
      spec: { minMember: f.minMember },
    });
  f.pods.forEach((p, i) => out.push(pendingPod(`p${i}`, p)));
  return out;
}

function daemonSet(name: string, d: DaemonShape): Obj {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace: 'kube-system' },
    spec: {
      template: {
        spec: {
          containers: [
            { name: 'd', resources: { requests: { cpu: `${d.cpuMilli}m`, memory: `${d.memMi}Mi` } } },
          ],
          ...(d.gpuOnly ? { nodeSelector: { 'example.com/gpu': 'true' } } : {}),
          ...(d.toleratesGpu ? { tolerations: [{ key: GPU, operator: 'Exists' }] } : {}),
        },
      },
    },
  };
}

/** Node allocatable as the kubelet reports it: the catalog's, or 500m less CPU when shaved. */
export function nodeAllocatable(n: NodeShape): Vec {
  const a = allocatableOf(n.type);
  return n.shaved ? { ...a, cpu: a.cpu - 500 } : a;
}

function existingNode(name: string, n: NodeShape, firstDaemon: DaemonShape | undefined): Obj[] {
  const gpu = isGpuType(n.type);
  const a = nodeAllocatable(n);
  const nodeObj = node(name, {
    type: n.type,
    zone: n.zone,
    pool: gpu ? 'gpu' : 'cpu',
    labels: { 'example.com/gpu': gpu ? 'true' : 'false' },
    taints: gpu ? [GPU_TAINT] : [],
    allocatable: {
      cpu: `${a.cpu}m`,
      memory: `${a.mem / 1000}Mi`,
      pods: '110',
      ...(a.gpu ? { [GPU]: String(a.gpu / 1000) } : {}),
      ...(a.nic ? { [NIC]: String(a.nic / 1000) } : {}),
    },
  });
  const out: Obj[] = [nodeObj];
  n.bound.forEach((b, j) =>
    out.push(
      pod(`${name}-b${j}`, {
        node: name,
        cpu: `${b.cpuMilli}m`,
        memory: '128Mi',
        labels: { app: b.app },
        spec: gpu ? { tolerations: [{ key: GPU, operator: 'Exists' }] } : {},
      }),
    ),
  );
  if (n.daemonRunning && firstDaemon)
    out.push(
      pod(`${name}-ds-0`, {
        node: name,
        cpu: `${firstDaemon.cpuMilli}m`,
        memory: `${firstDaemon.memMi}Mi`,
        owner: 'DaemonSet',
      }),
    );
  return out;
}

function pendingPod(name: string, p: PodShape): Obj {
  const requests: Record<string, string> = { cpu: `${p.cpuMilli}m`, memory: `${p.memMi}Mi` };
  if (p.gpu) requests[GPU] = String(p.gpu);
  if (p.nic) requests[NIC] = String(p.nic);
  // extended resources (GPU, NIC) need a limit equal to the request, as the API server requires
  const limits = Object.fromEntries(Object.entries(requests).filter(([k]) => k === GPU || k === NIC));
  const spec: Obj = {
    containers: [
      {
        name: 'c',
        resources: Object.keys(limits).length > 0 ? { requests, limits } : { requests },
        ...(p.hostPort ? { ports: [{ containerPort: p.hostPort, hostPort: p.hostPort }] } : {}),
      },
    ],
  };
  if (p.gpu) spec.tolerations = [{ key: GPU, operator: 'Exists' }];
  // the spread app is never pinned: a zone selector would narrow the domains its skew counts
  if (p.zone && p.app !== SPREAD_APP) spec.nodeSelector = { [ZONE]: p.zone };
  if (p.app === SPREAD_APP) Object.assign(spec, spread(ZONE, SPREAD_APP));
  if (p.app === ANTI_APP)
    spec.affinity = {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { topologyKey: HOSTNAME, labelSelector: { matchLabels: { app: ANTI_APP } } },
        ],
      },
    };
  if (p.gang) spec.schedulerName = 'volcano';
  return pod(name, {
    labels: { app: p.app },
    spec,
    ...(p.gang ? { annotations: { 'scheduling.k8s.io/group-name': p.gang } } : {}),
  });
}

/** The requests of a pending pod, from its shape. */
export function podVec(p: PodShape): Vec {
  return { cpu: p.cpuMilli, mem: p.memMi * 1000, gpu: p.gpu * 1000, nic: p.nic * 1000 };
}

/** Whether a DaemonSet's pod would run on a node of `typeName` (its selector and the GPU taint). */
export function daemonRunsOn(d: DaemonShape, typeName: string): boolean {
  const gpu = isGpuType(typeName);
  if (d.gpuOnly && !gpu) return false;
  return !gpu || d.toleratesGpu;
}
