// The instance types a NodePool launches, as its node class shapes them: the kubelet's reservations, pod limits and
// root volume change capacity and allocatable (shared/catalog/kubelet-overhead.ts), so the scheduler packs a node
// the way its kubelet will admit pods (docs/node-classes.md#allocatable).
import { kubeletAdjusted, type KubeletShape } from '../catalog/kubelet-overhead.ts';
import { bootstrapFamily } from '../model/join-readiness.ts';
import type { NodeClass } from '../model/nodeclass.ts';
import { bootDisk } from '../model/nodeclass-gce.ts';
import { parseQuantity } from '../model/quantity.ts';
import type { BlockDeviceMapping } from '../model/nodeclass-ec2.ts';
import type { InstanceType } from '../scheduling/instance-type.ts';

/** The device each family mounts as the kubelet's root (Karpenter's EphemeralBlockDevice: AL2023 xvda, Bottlerocket xvdb). */
const EPHEMERAL_DEVICE: Readonly<Record<string, string>> = { AL2023: '/dev/xvda', Bottlerocket: '/dev/xvdb' };

const milli = (size: string | undefined): number | undefined =>
  size === undefined ? undefined : Number(parseQuantity(size));

/**
 * The root volume an EC2NodeClass gives the kubelet (Karpenter's ephemeralStorage): the mapping marked rootVolume,
 * else the family's ephemeral device, else (Custom, Kubeadm: a device kraftsman cannot know) the last mapping.
 */
export function ec2RootVolume(
  family: string,
  mappings: readonly BlockDeviceMapping[] | undefined,
): number | undefined {
  if (!mappings?.length) return undefined;
  const root = mappings.find((m) => m.rootVolume);
  if (root?.ebs?.volumeSize) return milli(root.ebs.volumeSize);
  const device = EPHEMERAL_DEVICE[family];
  if (device) return milli(mappings.find((m) => m.deviceName === device)?.ebs?.volumeSize);
  return milli(mappings[mappings.length - 1]?.ebs?.volumeSize);
}

/** What of the node class reaches the allocatable; undefined when nothing does (the catalog's types are used as they are). */
export function kubeletShape(nc: NodeClass | undefined): KubeletShape | undefined {
  if (!nc) return undefined;
  const family = bootstrapFamily(nc).family;
  if (nc.kind === 'EC2NodeClass') {
    const storage = ec2RootVolume(family, nc.spec.blockDeviceMappings);
    if (!nc.spec.kubelet && storage === undefined) return undefined;
    return {
      cloud: 'aws',
      family,
      kubelet: nc.spec.kubelet ?? {},
      ...(storage !== undefined ? { storage } : {}),
    };
  }
  const disks = nc.spec.disks;
  if (!nc.spec.kubeletConfiguration && !disks) return undefined;
  const storage = disks ? bootDisk(disks).sizeGiB * 1024 ** 3 * 1000 : undefined;
  return {
    cloud: 'gcp',
    family,
    kubelet: nc.spec.kubeletConfiguration ?? {},
    ...(storage !== undefined ? { storage } : {}),
  };
}

/** The pool's instance types under its node class: the same objects when the node class changes nothing. */
export function nodeClassTypes(
  types: readonly InstanceType[],
  nc: NodeClass | undefined,
): readonly InstanceType[] {
  const shape = kubeletShape(nc);
  if (!shape) return types;
  const cloud = shape.cloud;
  return types.map((it) =>
    it.cloud === cloud ? { ...it, ...kubeletAdjusted(shape, it.capacity, it.allocatable) } : it,
  );
}
