// What a booting instance does in the local world (the fleet and the end-to-end tests): its kubelet registers a Node with the labels and taints
// of the bootstrap script kraftsman rendered, and the capacity and allocatable of its machine type as kraftsman
// computes them for its NodeClaim (kubelet-resources.ts).
import type { BootedInstance, Ec2World } from './ec2/world.ts';
import type { BootedGceInstance, GceWorld } from './gce/world.ts';
import { parseBootstrap, registerNode, type KubeApiEmulator } from './kube-api/index.ts';
import { ec2Resources, gceResources, nodeClassOf } from './kubelet-resources.ts';
import { parseInstanceType } from '../shared/adapters/gcp-compute/instance-body.ts';
import { INSTANCE_TYPE, NODEPOOL } from '../shared/model/labels.ts';

/** The kubelet reserves a little of every node; what is left is what pods may request. */
const allocatable = (cpu: number, memoryMiB: number, gpus: number, pods: number): Record<string, string> => ({
  cpu: `${cpu * 1000 - 100}m`,
  memory: `${memoryMiB - 512}Mi`,
  pods: String(pods),
  ...(gpus ? { 'nvidia.com/gpu': String(gpus) } : {}),
});

export function registerEc2Node(kube: KubeApiEmulator, world: Ec2World, b: BootedInstance): void {
  const t = world.types.get(b.instanceType);
  const { labels, taints } = parseBootstrap(b.userData);
  // What kraftsman wrote on the claim: the type read as the provider reads it, shaped by the node class.
  const resources = t && ec2Resources(t, b.zone, nodeClassOf(kube, labels[NODEPOOL]));
  const fallback = allocatable(t?.vcpu ?? 2, t?.memoryMiB ?? 4096, t?.gpu?.count ?? 0, t?.maxPods ?? 58);
  registerNode(kube, {
    nodeName: `ip-${b.instanceId}`,
    providerId: b.providerId,
    labels: {
      ...labels,
      'node.kubernetes.io/instance-type': b.instanceType,
      'topology.kubernetes.io/zone': b.zone,
    },
    taints,
    ...(resources ?? { capacity: fallback }),
  });
}

export function registerGceNode(kube: KubeApiEmulator, world: GceWorld, b: BootedGceInstance): void {
  const t = world.machineTypes.get(b.machineType);
  const gpus = (t?.accelerators ?? []).reduce((n, a) => n + a.guestAcceleratorCount, 0);
  const { labels, taints } = parseBootstrap(b.startupScript);
  // The claim's type name carries attached GPUs (`n1-standard-8_nvidia-tesla-t4_2`); bundled ones come with the type.
  const name = labels[INSTANCE_TYPE] ?? b.machineType;
  const attached = parseInstanceType(name).accelerator;
  const bundled = t?.accelerators?.[0];
  const gpu = attached ?? (bundled ? { type: bundled.guestAcceleratorType, count: gpus } : undefined);
  const resources =
    t &&
    gceResources(
      { name, cpus: t.guestCpus, memoryMi: t.memoryMb, ...(gpu ? { gpu } : {}) },
      b.zone,
      nodeClassOf(kube, labels[NODEPOOL]),
    );
  registerNode(kube, {
    nodeName: b.name,
    providerId: b.providerId,
    labels: {
      ...labels,
      'node.kubernetes.io/instance-type': b.machineType,
      'topology.kubernetes.io/zone': b.zone,
    },
    taints,
    ...(resources ?? { capacity: allocatable(t?.guestCpus ?? 2, t?.memoryMb ?? 4096, gpus, 110) }),
  });
}

/** Whether the instance behind a provider ID still runs its kubelet in the local clouds. */
function instanceRuns(id: string, ec2: Ec2World, gce: GceWorld): boolean {
  if (id.startsWith('aws://')) {
    const state = ec2.instances.get(id.slice(id.lastIndexOf('/') + 1))?.state;
    return state === 'pending' || state === 'running';
  }
  const [zone = '', name = ''] = id.replace(/^gce:\/\/[^/]*\//, '').split('/');
  const status = gce.instances.get(gce.key(zone, name))?.status;
  return status !== undefined && status !== 'STOPPING' && status !== 'TERMINATED';
}

/**
 * kube-controller-manager's node lifecycle controller: a Node whose kubelet stopped posting status (its
 * instance is gone) gets Ready `Unknown` (reason `NodeStatusUnknown`) once node-monitor-grace-period has
 * passed — here on the call, which the fleet makes once a simulated minute. Returns the Nodes it marked.
 */
export function markLostNodes(kube: KubeApiEmulator, clouds: { ec2: Ec2World; gce: GceWorld }): string[] {
  const t = kube.typeOf('Node');
  const marked: string[] = [];
  for (const n of kube.store.all(t)) {
    const id = (n.spec as { providerID?: string } | undefined)?.providerID;
    if (!id || !(id.startsWith('aws://') || id.startsWith('gce://'))) continue;
    if (instanceRuns(id, clouds.ec2, clouds.gce)) continue;
    const status = (n.status ?? {}) as { conditions?: { type: string; status: string }[] };
    const conditions = status.conditions ?? [];
    if (conditions.some((c) => c.type === 'Ready' && c.status === 'Unknown')) continue;
    const lost = {
      type: 'Ready',
      status: 'Unknown',
      reason: 'NodeStatusUnknown',
      message: 'Kubelet stopped posting node status.',
      lastTransitionTime: kube.now().toISOString(),
    };
    const next = [...conditions.filter((c) => c.type !== 'Ready'), lost];
    kube.store.update(
      t,
      undefined,
      String(n.metadata.name),
      { ...n, status: { ...status, conditions: next } },
      'status',
    );
    marked.push(String(n.metadata.name));
  }
  return marked;
}
