// The seeded fleet as kraftsman would have left it: every Node the generator made gets the cloud instance
// behind its providerID (tagged/labelled for the cluster, the deployment, its NodePool and NodeClaim) and a registered,
// initialized NodeClaim — so lifecycle's garbage collection finds nothing orphaned and disruption sees
// managed candidates (docs/architecture.md). As in a cluster migrated from Karpenter, Nodes and claims hold
// its `karpenter.sh/termination` finalizer; kraftsman releases it once an instance is gone
// (docs/functions/lifecycle.md), so the fleet runs that product path.
import type { Ec2World, Lifecycle } from '../ec2/world.ts';
import type { GceWorld } from '../gce/world.ts';
import type { KubeObject } from '../kube-api/index.ts';

type Labels = Record<string, string>;
type NodeFields = {
  metadata: { name: string; labels?: Labels; creationTimestamp?: string };
  spec?: { providerID?: string; taints?: unknown[] };
  status?: { capacity?: Record<string, string>; allocatable?: Record<string, string> };
};
type PoolFields = {
  metadata: { name: string; uid?: string; annotations?: Labels };
  spec: { template: { spec: { nodeClassRef: unknown; expireAfter?: string } } };
};

const CT = 'karpenter.sh/capacity-type';
/**
 * The deployment id the seeded fleet was launched under, stored in the state table before the functions run (as a
 * deployment's first function stored it long ago), so its instances are its own (docs/mechanisms/identity.md).
 */
export const FLEET_DEPLOYMENT = 'local-fleet';
const KARPENTER_FINALIZER = 'karpenter.sh/termination';
const HASH_KEYS = ['karpenter.sh/nodepool-hash', 'karpenter.sh/nodepool-hash-version'];

function claimFor(node: NodeFields, pool: PoolFields): KubeObject {
  const l = node.metadata.labels ?? {};
  const at = node.metadata.creationTimestamp;
  const cond = (type: string) => ({
    type,
    status: 'True',
    reason: type,
    ...(at ? { lastTransitionTime: at } : {}),
  });
  const annotations = Object.fromEntries(
    HASH_KEYS.flatMap((k) => (pool.metadata.annotations?.[k] ? [[k, pool.metadata.annotations[k]]] : [])),
  );
  const requirement = (key: string) => ({ key, operator: 'In', values: [l[key] ?? ''] });
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodeClaim',
    metadata: {
      name: node.metadata.name,
      labels: { ...l },
      annotations,
      finalizers: [KARPENTER_FINALIZER],
      ...(at ? { creationTimestamp: at } : {}),
      ownerReferences: [
        {
          apiVersion: 'karpenter.sh/v1',
          kind: 'NodePool',
          name: pool.metadata.name,
          uid: pool.metadata.uid ?? '',
        },
      ],
    },
    spec: {
      nodeClassRef: pool.spec.template.spec.nodeClassRef,
      requirements: ['node.kubernetes.io/instance-type', 'topology.kubernetes.io/zone', CT].map(requirement),
      ...(node.spec?.taints ? { taints: node.spec.taints } : {}),
      ...(pool.spec.template.spec.expireAfter ? { expireAfter: pool.spec.template.spec.expireAfter } : {}),
    },
    status: {
      nodeName: node.metadata.name,
      providerID: node.spec?.providerID,
      capacity: node.status?.capacity ?? {},
      allocatable: node.status?.allocatable ?? {},
      conditions: ['Launched', 'Registered', 'Initialized', 'Ready'].map(cond),
    },
  } as KubeObject;
}

function ec2Instance(world: Ec2World, node: NodeFields, cluster: string, launchTime: Date): void {
  const [, zone = '', id = ''] = /^aws:\/\/\/([^/]+)\/(.+)$/.exec(node.spec?.providerID ?? '') ?? [];
  const l = node.metadata.labels ?? {};
  const subnet = world.subnets.find((s) => s.zone === zone);
  world.instances.set(id, {
    instanceId: id,
    instanceType: l['node.kubernetes.io/instance-type'] ?? '',
    zone,
    subnetId: subnet?.subnetId ?? '',
    imageId: world.images[world.images.length - 1]?.imageId ?? '',
    securityGroupIds: world.securityGroups.map((g) => g.groupId),
    lifecycle: (l[CT] ?? 'on-demand') as Lifecycle,
    launchTime,
    tags: {
      'kraftsman.dev/cluster': cluster,
      'kraftsman.dev/deployment': FLEET_DEPLOYMENT,
      'karpenter.sh/nodepool': l['karpenter.sh/nodepool'] ?? '',
      'karpenter.sh/nodeclaim': node.metadata.name,
      [CT]: l[CT] ?? 'on-demand',
    },
    state: 'running',
  });
}

function gceInstance(world: GceWorld, node: NodeFields, cluster: string, launchTime: Date): void {
  const [, zone = '', name = ''] = /^gce:\/\/[^/]+\/([^/]+)\/(.+)$/.exec(node.spec?.providerID ?? '') ?? [];
  const l = node.metadata.labels ?? {};
  const model = l[CT] === 'spot' ? 'SPOT' : 'STANDARD';
  world.instances.set(world.key(zone, name), {
    id: world.nextId(),
    name,
    zone,
    machineType: l['node.kubernetes.io/instance-type'] ?? '',
    provisioningModel: model,
    resource: {
      name,
      labels: {
        'kraftsman-cluster': cluster,
        'kraftsman-deployment': FLEET_DEPLOYMENT,
        'kraftsman-nodepool': l['karpenter.sh/nodepool'] ?? '',
        'kraftsman-nodeclaim': node.metadata.name,
      },
      scheduling: { provisioningModel: model },
    },
    status: 'RUNNING',
    creationTimestamp: launchTime.toISOString(),
  });
}

/** The NodeClaims to seed next to the objects, after putting each Node's instance into its cloud's world. */
export function adoptNodes(
  objects: readonly KubeObject[],
  clouds: { ec2: Ec2World; gce: GceWorld },
  cluster: string,
): KubeObject[] {
  const pools = new Map(
    objects.filter((o) => o.kind === 'NodePool').map((p) => [p.metadata.name, p as unknown as PoolFields]),
  );
  const claims: KubeObject[] = [];
  for (const o of objects.filter((x) => x.kind === 'Node')) {
    const node = o as unknown as NodeFields;
    const pool = pools.get(node.metadata.labels?.['karpenter.sh/nodepool'] ?? '');
    if (!pool) continue;
    const launched = new Date(node.metadata.creationTimestamp ?? Date.now());
    if (node.spec?.providerID?.startsWith('aws://')) ec2Instance(clouds.ec2, node, cluster, launched);
    else gceInstance(clouds.gce, node, cluster, launched);
    claims.push(claimFor(node, pool));
  }
  return claims;
}
