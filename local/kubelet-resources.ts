// The capacity and allocatable a local kubelet reports: the machine type as its cloud emulator describes it, read
// through the same instance-type code the providers use and shaped by the node class's kubelet settings, so a Node
// reports what kraftsman wrote on its NodeClaim (status.capacity / allocatable, shared/loop/launch-finish.ts).
import type { InstanceTypeInfo } from '@aws-sdk/client-ec2';
import { toInstanceTypeSpec as ec2Spec } from '../shared/adapters/aws-ec2/instance-types.ts';
import type { ResolvedNodeClass } from '../shared/adapters/aws-ec2/node-class-resolver.ts';
import { toInstanceTypeSpec as gceSpec } from '../shared/adapters/gcp-compute/machine-types.ts';
import type { InstanceTypeSpec } from '../shared/model/catalog.ts';
import type { NodeClass } from '../shared/model/nodeclass.ts';
import { toQuantities } from '../shared/provisioning/nodeclaims.ts';
import { buildInstanceTypes } from '../shared/scheduling/instance-type.ts';
import { nodeClassTypes } from '../shared/state/node-class-types.ts';
import type { EmuInstanceType } from './ec2/world.ts';
import type { KubeApiEmulator } from './kube-api/index.ts';

export interface NodeResources {
  readonly capacity: Record<string, string>;
  readonly allocatable: Record<string, string>;
}

/** Any price: the kubelet needs the type's shape, not what it costs (a spec without an offering is dropped). */
const ANY_PRICE = { onDemand: () => 1, spot: () => undefined };

/** The node class a booting node's NodePool names, as the API server holds it (undefined when there is none). */
export function nodeClassOf(kube: KubeApiEmulator, nodePool: string | undefined): NodeClass | undefined {
  if (!nodePool) return undefined;
  const pool = kube.store.all(kube.typeOf('NodePool')).find((p) => p.metadata.name === nodePool) as
    { spec?: { template?: { spec?: { nodeClassRef?: { kind?: string; name?: string } } } } } | undefined;
  const ref = pool?.spec?.template?.spec?.nodeClassRef;
  if (ref?.kind !== 'EC2NodeClass' && ref?.kind !== 'GCENodeClass') return undefined;
  const nc = kube.store.all(kube.typeOf(ref.kind)).find((c) => c.metadata.name === ref.name);
  return nc as unknown as NodeClass | undefined;
}

function shaped(spec: InstanceTypeSpec | undefined, nc: NodeClass | undefined): NodeResources | undefined {
  if (!spec) return undefined;
  const [it] = nodeClassTypes(buildInstanceTypes([spec]), nc);
  return it && { capacity: toQuantities(it.capacity), allocatable: toQuantities(it.allocatable) };
}

/** An EC2 type as DescribeInstanceTypes answers for it (local/ec2/describe.ts), read as the EC2 provider reads it. */
export function ec2Resources(
  t: EmuInstanceType,
  zone: string,
  nc: NodeClass | undefined,
): NodeResources | undefined {
  const info: InstanceTypeInfo = {
    InstanceType: t.name as InstanceTypeInfo['InstanceType'],
    SupportedUsageClasses: ['on-demand'],
    ProcessorInfo: { SupportedArchitectures: [t.arch ?? 'x86_64'] as never },
    VCpuInfo: { DefaultVCpus: t.vcpu },
    MemoryInfo: { SizeInMiB: t.memoryMiB },
    NetworkInfo: {
      MaximumNetworkInterfaces: 4,
      Ipv4AddressesPerInterface: Math.max(2, Math.ceil(((t.maxPods ?? 58) + 2) / 3) + 1),
    },
    ...(t.gpu
      ? {
          GpuInfo: {
            Gpus: [
              {
                Name: t.gpu.name,
                Manufacturer: t.gpu.manufacturer,
                Count: t.gpu.count,
                MemoryInfo: { SizeInMiB: t.gpu.memoryMiB },
              },
            ],
          },
        }
      : {}),
  };
  const maxPods = nc?.kind === 'EC2NodeClass' ? nc.spec.kubelet?.maxPods : undefined;
  const spec = ec2Spec({
    info,
    zones: [zone],
    resolved: { reservations: [] } as unknown as ResolvedNodeClass,
    prices: ANY_PRICE,
    ...(maxPods ? { maxPods } : {}),
  });
  return shaped(spec, nc);
}

/** A Compute Engine machine type (with its attached or bundled GPUs), read as the GCE provider reads it. */
export function gceResources(
  shape: { name: string; cpus: number; memoryMi: number; gpu?: { type: string; count: number } },
  zone: string,
  nc: NodeClass | undefined,
): NodeResources | undefined {
  const gce = nc?.kind === 'GCENodeClass' ? nc : undefined;
  const disk = gce?.spec.disks?.find((d) => d.boot)?.sizeGiB ?? 100;
  const spec = gceSpec(
    { ...shape, zones: [zone] },
    ANY_PRICE,
    gce?.spec.kubeletConfiguration?.maxPods ?? 110,
    disk,
  );
  return shaped(spec, nc);
}
