// The decay scenario's fleet (docs/fleet-scenarios.md, decay): the generator's inference and CPU NodePools on
// both clouds, on-demand only, every GPU serving one replica of a 1-GPU model server and the CPU nodes filled
// with services; a third of the Deployments under a PDB that allows one disruption. Nothing on it is pinned
// (no do-not-disrupt, no PDB at zero), so what is left after the load falls is movable and a consolidator can
// approach the LP bound; docs/fleet.md says why each choice.
import { fleetCatalog } from '../catalog.ts';
import type { InstanceTypeSpec } from '../../../shared/model/catalog.ts';
import { makeDeployment, placeReplica, type Deployment } from '../../../test/fixtures/fleet/deployments.ts';
import { createdAgo, FLEET_NOW, uid } from '../../../test/fixtures/fleet/ids.ts';
import { stampPod } from '../../../test/fixtures/fleet/pods.ts';
import { nodeClassObjects, nodePoolObject } from '../../../test/fixtures/fleet/ramp-classes.ts';
import { generateNodes, nodeObject, type NodeSlot } from '../../../test/fixtures/fleet/ramp-nodes.ts';
import { POOLS, type PoolSpec } from '../../../test/fixtures/fleet/ramp-pools.ts';
import { GPU_TOLERATION } from '../../../test/fixtures/fleet/ramp-workloads.ts';
import { createRng, type Rng } from '../../../test/fixtures/fleet/rng.ts';
import { namespace } from './small-fleet.ts';

export interface DecayFleetShape {
  /** Seeded nodes per NodePool. */
  readonly nodes: Readonly<Record<DecayPool, number>>;
  /** Replicas pending at the start (a scale-up the provisioner serves first), as a share of the bound ones. */
  readonly pendingShare: number;
  /** The inference pools' consolidateAfter (the generator's GPU pools wait 10m). */
  readonly gpuConsolidateAfter?: string;
  /** Every pool's disruption budget (the generator's: 10% for GPU pools, 20% for CPU pools). */
  readonly budget?: string;
  /** Every n-th Deployment gets a PDB that allows one disruption (default 3: a third of them); 0, none. */
  readonly pdbEvery?: number;
  /**
   * A walk's head: `nodes` more nodes in `pool`, all of `type`, each running one replica of a Deployment pinned to
   * that type (a nodeSelector) whose request is the node's whole allocatable CPU. One pod each, so they sort first
   * in the pool's disruption-cost order, and none can be consolidated: there is no room for the pod elsewhere and
   * no cheaper node of its type (`no-cheaper-replacement`). Its pods are in namespace `data`, which the load
   * falls in only if the scenario says so (docs/fleet.md, "Sooner than upstream").
   */
  readonly head?: {
    readonly pool: DecayPool;
    readonly nodes: number;
    readonly type: string;
    /** The types the rest of its pool is seeded with (default the generator's). */
    readonly tailTypes?: ReadonlyArray<readonly [string, number]>;
  };
}

export const DECAY_POOLS = ['inference-aws', 'inference-gcp', 'cpu-aws', 'cpu-gcp'] as const;
export type DecayPool = (typeof DECAY_POOLS)[number];

/**
 * The 1-GPU types the seeded inference nodes are drawn from: a fleet grown one replica at a time by a
 * provisioner that launches the cheapest node for each pod. The NodePools still allow their multi-GPU types.
 */
const SEED_TYPES: Readonly<Record<string, ReadonlyArray<readonly [string, number]>>> = {
  'inference-aws': [
    ['g6.xlarge', 3],
    ['g6.2xlarge', 2],
    ['g5.xlarge', 2],
    ['g5.2xlarge', 1],
    ['g6e.xlarge', 1],
  ],
  'inference-gcp': [
    ['g2-standard-4', 3],
    ['g2-standard-8', 2],
    ['g2-standard-12', 1],
  ],
};

/** 1-GPU model servers per GPU model (requests fit the model's smallest 1-GPU type, as in the generator). */
const SERVERS: Readonly<Record<string, { cpu: string; memory: string }>> = {
  l4: { cpu: '3', memory: '10Gi' },
  a10g: { cpu: '3', memory: '12Gi' },
  l40s: { cpu: '3', memory: '24Gi' },
};

const SERVICES: ReadonlyArray<{ cpu: string; memory: string; cloud?: 'aws' | 'gcp' }> = [
  { cpu: '500m', memory: '1Gi' },
  { cpu: '1', memory: '2Gi' },
  { cpu: '250m', memory: '512Mi' },
  { cpu: '750m', memory: '2Gi' },
  { cpu: '1', memory: '4Gi', cloud: 'aws' },
  { cpu: '500m', memory: '2Gi', cloud: 'gcp' },
  { cpu: '750m', memory: '1536Mi' },
  { cpu: '250m', memory: '1Gi' },
];

/** The pool, on-demand only: its NodePool requirements and its seeded nodes alike. */
function onDemand(name: DecayPool, count: number): PoolSpec {
  const base = POOLS.find((p) => p.name === name);
  if (!base) throw new Error(`decay fleet: the generator has no NodePool ${name}`);
  const requirements = base.requirements.map((r) =>
    r.key === 'karpenter.sh/capacity-type' ? { ...r, values: ['on-demand'] } : r,
  );
  const types = SEED_TYPES[name] ?? base.types;
  return { ...base, share: count, types, capacityTypes: [['on-demand', 1]], requirements };
}

function servers(slots: readonly NodeSlot[], rng: Rng): Map<string, Deployment[]> {
  const out = new Map<string, Deployment[]>();
  for (const [model, requests] of Object.entries(SERVERS)) {
    if (!slots.some((s) => s.gpuModel === model)) continue;
    const deps = [0, 1, 2].map((i) =>
      makeDeployment(
        {
          name: `serve-${model}-${i}`,
          namespace: 'ml-inference',
          image: 'vllm/vllm-openai:v0.11.0',
          requests: { ...requests, 'nvidia.com/gpu': '1' },
          nodeSelector: { 'kraftsman.dev/gpu-model': model },
          tolerations: [GPU_TOLERATION],
        },
        rng,
      ),
    );
    out.set(model, deps);
  }
  return out;
}

function services(rng: Rng): { dep: Deployment; cloud?: string }[] {
  return SERVICES.map((s, i) => ({
    cloud: s.cloud,
    dep: makeDeployment(
      {
        name: `svc-${i}`,
        namespace: 'web',
        image: `registry.example.internal/svc-${i}:1.${i}`,
        requests: { cpu: s.cpu, memory: s.memory },
        ...(s.cloud ? { nodeSelector: { 'kraftsman.dev/cloud': s.cloud } } : {}),
      },
      rng,
    ),
  }));
}

/**
 * With a head, its nodes are 20–29 days old and the rest of its pool 2 hours to 5 days (expireAfter 720h): the
 * disruption cost weighs a node's pods by its remaining lifetime (Karpenter v1.14 `disruptionutils.DisruptionCost`,
 * times `LifetimeRemaining`), so an old one-pod node costs under 0.4 and a young service node several, and the head
 * sorts wholly before the tail rather than mixed with it by age.
 */
function aged(slots: NodeSlot[], head: PoolSpec | undefined, rng: Rng): NodeSlot[] {
  if (!head) return slots;
  return slots.map((s) =>
    s.pool === head
      ? { ...s, created: createdAgo(rng, 24 * 20, 24 * 29) }
      : s.pool.name === head.name
        ? { ...s, created: createdAgo(rng, 2, 24 * 5) }
        : s,
  );
}

/** The head's Deployment: one replica fills a head node's allocatable CPU, pinned to its type. */
function pinned(slot: NodeSlot, rng: Rng): Deployment {
  return makeDeployment(
    {
      name: 'pinned',
      namespace: 'data',
      image: 'registry.example.internal/shard:3.1',
      requests: { cpu: `${slot.allocatable.cpu}m`, memory: '4Gi' },
      nodeSelector: { 'node.kubernetes.io/instance-type': slot.type.name },
    },
    rng,
  );
}

/** Every GPU serves one replica; CPU nodes are filled to 70–90% of their CPU; a head node holds one pinned pod. */
function fill(
  slots: readonly NodeSlot[],
  head: PoolSpec | undefined,
  gpu: Map<string, Deployment[]>,
  cpu: { dep: Deployment; cloud?: string }[],
  rng: Rng,
  pods: unknown[],
): void {
  let headDep: Deployment | undefined;
  for (const slot of slots) {
    if (slot.pool === head) {
      headDep ??= pinned(slot, rng);
      if (!placeReplica(headDep, slot, rng, pods))
        throw new Error(`decay fleet: the pinned pod does not fit head node ${slot.name}`);
      continue;
    }
    if (slot.gpuModel) {
      const deps = gpu.get(slot.gpuModel) ?? [];
      for (let g = 0; g < slot.allocatable.gpu / 1000; g++)
        if (!placeReplica(rng.pick(deps), slot, rng, pods))
          throw new Error(`decay fleet: a ${slot.gpuModel} server does not fit ${slot.name}`);
      continue;
    }
    const choices = cpu.filter((s) => !s.cloud || s.cloud === slot.pool.cloud).map((s) => s.dep);
    const stopAt = slot.allocatable.cpu * (1 - (0.7 + rng.next() * 0.2));
    for (let misses = 0; slot.free.cpu > stopAt && misses < 16;)
      misses = placeReplica(rng.pick(choices), slot, rng, pods) ? 0 : misses + 1;
  }
}

/** A PDB (policy/v1) that allows one disruption, its status as the disruption controller computes it. */
function pdb(d: Deployment, rng: Rng): unknown {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: {
      name: `${d.name}-pdb`,
      namespace: d.namespace,
      uid: uid(rng),
      creationTimestamp: createdAgo(rng, 24 * 30, 24 * 60),
      generation: 1,
    },
    spec: { maxUnavailable: 1, selector: { matchLabels: { app: d.name } } },
    status: {
      currentHealthy: d.bound,
      desiredHealthy: Math.max(0, d.bound - 1),
      expectedPods: d.bound,
      disruptionsAllowed: d.bound > 0 ? 1 : 0,
      observedGeneration: 1,
    },
  };
}

/** The NodePool object, its inference pools' consolidateAfter and its budget as the shape asks. */
function poolObject(spec: PoolSpec, shape: DecayFleetShape, rng: Rng): unknown {
  const obj = nodePoolObject(spec, rng) as {
    spec: { disruption: { consolidateAfter: string; budgets: { nodes: string }[] } };
  };
  if (spec.kind === 'inference' && shape.gpuConsolidateAfter)
    obj.spec.disruption.consolidateAfter = shape.gpuConsolidateAfter;
  if (shape.budget) obj.spec.disruption.budgets = [{ nodes: shape.budget }];
  return obj;
}

/** The fleet's objects (dates before FLEET_NOW; the scenario localizes them). Same seed, same fleet. */
export function decayFleet(seed: number, shape: DecayFleetShape): unknown[] {
  const rng = createRng(seed);
  const pdbEvery = shape.pdbEvery ?? 3;
  const catalog = new Map<string, InstanceTypeSpec>(fleetCatalog().instanceTypes.map((t) => [t.name, t]));
  const specs = DECAY_POOLS.map((p) => {
    const spec = onDemand(p, shape.nodes[p]);
    const tail = shape.head?.pool === p ? shape.head.tailTypes : undefined;
    return tail ? { ...spec, types: tail } : spec;
  });
  const head = shape.head
    ? { ...onDemand(shape.head.pool, shape.head.nodes), types: [[shape.head.type, 1] as const] }
    : undefined;
  const seeded = head ? [head, ...specs] : specs;
  const slots = aged(
    generateNodes(
      seeded.reduce((n, s) => n + s.share, 0),
      seeded,
      catalog,
      rng,
    ),
    head,
    rng,
  );
  const gpu = servers(slots, rng);
  const cpu = services(rng);
  const pods: unknown[] = [];
  fill(slots, head, gpu, cpu, rng, pods);
  const deps = [...[...gpu.values()].flat(), ...cpu.map((s) => s.dep)];
  const after = new Date(FLEET_NOW - 60_000).toISOString().replace('.000Z', 'Z');
  for (const d of deps)
    for (let k = 0; k < Math.round(d.bound * shape.pendingShare); k++)
      pods.push(stampPod(d.tpl, { after }, rng));
  return [
    ...['kube-system', 'ml-inference', 'web', ...(head ? ['data'] : [])].map((n) => namespace(n, rng)),
    ...nodeClassObjects(rng),
    ...specs.map((s) => poolObject(s, shape, rng)),
    ...slots.map((s) => nodeObject(s, rng)),
    ...deps.filter((_, i) => pdbEvery > 0 && i % pdbEvery === 0).map((d) => pdb(d, rng)),
    ...pods,
  ];
}
