// Small two-cloud fleets for the event scenarios (docs/fleet-scenarios.md): the shared generator's node
// classes, NodePools and Node objects, with a few Deployments placed on them and a few pods pending — tens of
// nodes, so a scenario runs through every handler in seconds and its outcome can be asserted exactly.
import { fleetCatalog } from '../catalog.ts';
import type { CapacityType } from '../../../shared/model/labels.ts';
import type { InstanceTypeSpec } from '../../../shared/model/catalog.ts';
import {
  makeDeployment,
  placeReplica,
  type DeploymentInput,
} from '../../../test/fixtures/fleet/deployments.ts';
import { FLEET_NOW, uid } from '../../../test/fixtures/fleet/ids.ts';
import { stampPod } from '../../../test/fixtures/fleet/pods.ts';
import { CLUSTER, nodeClassObjects, nodePoolObject } from '../../../test/fixtures/fleet/ramp-classes.ts';
import { generateNodes, nodeObject, type NodeSlot } from '../../../test/fixtures/fleet/ramp-nodes.ts';
import { AWS_ZONES, GCP_ZONES, POOLS, type PoolSpec } from '../../../test/fixtures/fleet/ramp-pools.ts';
import { createRng, type Rng } from '../../../test/fixtures/fleet/rng.ts';
import type { FleetWorld } from '../environment.ts';

/** The generator's world: its objects name the `ramp` cluster and the `ramp-fleet` project. */
export const RAMP_WORLD: FleetWorld = {
  clusterName: CLUSTER,
  gcpProject: 'ramp-fleet',
  awsZones: AWS_ZONES,
  gcpZones: GCP_ZONES,
};

export interface SmallPool {
  /** One of the generator's NodePools (docs/benchmarks.md, "The fleets"). */
  readonly pool: string;
  readonly nodes: number;
  /** Narrow the pool's instance types (its NodePool requirements are narrowed alike). */
  readonly types?: readonly string[];
  /** The types the seeded nodes are drawn from (default: `types`, else the pool's own mix). */
  readonly nodeTypes?: readonly string[];
  /** Narrow the pool's capacity types (its nodes and its NodePool requirements alike). */
  readonly capacityTypes?: readonly CapacityType[];
}

export interface SmallWorkload extends Omit<DeploymentInput, 'image'> {
  /** Replicas bound to the nodes of `pools` at the start, spread round-robin. */
  readonly bound: number;
  /** Replicas pending at the start. */
  readonly pending?: number;
  readonly pools?: readonly string[];
  readonly image?: string;
}

/** A pool of the generator, narrowed: its requirements name only the chosen types and capacity types. */
function narrow(p: SmallPool, catalog: ReadonlyMap<string, InstanceTypeSpec>): PoolSpec {
  const base = POOLS.find((x) => x.name === p.pool);
  if (!base)
    throw new Error(`small fleet: no NodePool ${p.pool} (known: ${POOLS.map((x) => x.name).join(', ')})`);
  for (const t of [...(p.types ?? []), ...(p.nodeTypes ?? [])])
    if (!catalog.has(t))
      throw new Error(`small fleet: pool ${p.pool} names ${t}, not in the built-in catalog`);
  const draw = p.nodeTypes ?? p.types;
  const types = draw ? draw.map((t) => [t, 1] as const) : base.types;
  const cts = p.capacityTypes ? p.capacityTypes.map((c) => [c, 1] as const) : base.capacityTypes;
  const requirements = base.requirements.map((r) => {
    if (p.types && r.key === 'node.kubernetes.io/instance-type') return { ...r, values: [...p.types] };
    if (p.capacityTypes && r.key === 'karpenter.sh/capacity-type')
      return { ...r, values: [...p.capacityTypes] };
    return r;
  });
  const typed =
    p.types && !requirements.some((r) => r.key === 'node.kubernetes.io/instance-type')
      ? [
          ...requirements,
          { key: 'node.kubernetes.io/instance-type', operator: 'In' as const, values: [...p.types] },
        ]
      : requirements;
  return { ...base, share: p.nodes, types, capacityTypes: cts, requirements: typed };
}

function place(w: SmallWorkload, slots: readonly NodeSlot[], rng: Rng, out: unknown[]): void {
  const dep = makeDeployment({ image: 'registry.local/app:1', ...w }, rng);
  const on = slots.filter((s) => !w.pools || w.pools.includes(s.pool.name));
  for (let r = 0; r < w.bound; r++) {
    const start = r % Math.max(1, on.length);
    const slot = [...on.slice(start), ...on.slice(0, start)].find((s) => placeReplica(dep, s, rng, out));
    if (!slot)
      throw new Error(`small fleet: replica ${r + 1} of ${w.name} fits no node of ${w.pools ?? 'any pool'}`);
  }
  const after = new Date(FLEET_NOW - 60_000).toISOString().replace('.000Z', 'Z');
  for (let r = 0; r < (w.pending ?? 0); r++) out.push(stampPod(dep.tpl, { after }, rng));
}

/** A Namespace object as the API server returns it. */
export const namespace = (name: string, rng: Rng) => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, uid: uid(rng), labels: { 'kubernetes.io/metadata.name': name } },
  spec: { finalizers: ['kubernetes'] },
  status: { phase: 'Active' },
});

/** The fleet's objects, as the generator's (dates before FLEET_NOW; the scenario localizes them). */
export function smallFleet(
  seed: number,
  pools: readonly SmallPool[],
  workloads: readonly SmallWorkload[],
  extra: (rng: Rng) => unknown[] = () => [],
): unknown[] {
  const rng = createRng(seed);
  const catalog = new Map(fleetCatalog().instanceTypes.map((t) => [t.name, t]));
  const specs = pools.map((p) => narrow(p, catalog));
  const slots = generateNodes(
    specs.reduce((n, s) => n + s.share, 0),
    specs,
    catalog,
    rng,
  );
  const pods: unknown[] = [];
  for (const w of workloads) place(w, slots, rng, pods);
  const namespaces = [...new Set(['kube-system', ...workloads.map((w) => w.namespace)])];
  return [
    ...namespaces.map((n) => namespace(n, rng)),
    ...nodeClassObjects(rng),
    ...specs.map((s) => nodePoolObject(s, rng)),
    ...slots.map((s) => nodeObject(s, rng)),
    ...extra(rng),
    ...pods,
  ];
}
