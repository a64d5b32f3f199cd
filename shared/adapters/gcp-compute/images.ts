// The boot image of one launch and of one running instance (docs/mechanisms/images.md#compute-engine): the pure
// resolution of shared/model/gce-images.ts keyed by the machine type, its refusals as FatalCloudErrors.
import type { protos } from '@google-cloud/compute';
import type { InstanceTypeSpec } from '../../model/catalog.ts';
import {
  GceImageError,
  imageKeyOf,
  imageKeyOfName,
  resolveGceImage,
  resolvedImages,
  type MachineImageKey,
  type ResolvedGceImage,
} from '../../model/gce-images.ts';
import type { GCENodeClass } from '../../model/nodeclass.ts';
import type { StatusGceImage } from '../../model/nodeclass-status.ts';
import { FatalCloudError } from '../../ports/cloud-provider/errors.ts';

type Instance = protos.google.cloud.compute.v1.IInstance;

/** The image a machine of this key boots; a node class that names none it can resolve is refused whole. */
function resolved(nc: GCENodeClass, key: MachineImageKey): ResolvedGceImage {
  try {
    return resolveGceImage(nc, key);
  } catch (err) {
    if (err instanceof GceImageError) throw new FatalCloudError(err.message, { cause: err });
    throw err;
  }
}

/** A launch of `instanceType`: keyed by the scheduler's own entry for it (its catalog architecture), else its name. */
export function launchImage(
  nc: GCENodeClass,
  instanceType: string,
  types: readonly InstanceTypeSpec[],
): ResolvedGceImage {
  const spec = types.find((t) => t.name === instanceType);
  return resolved(nc, spec ? imageKeyOf(spec) : imageKeyOfName(instanceType));
}

/**
 * The image a running instance's machine type would boot now, for drift: the type is the one kraftsman labelled at
 * launch (its architecture and GPUs read from its name: the instance carries no catalog entry).
 */
export function currentImage(nc: GCENodeClass, instance: Instance): string {
  const type = instance.labels?.['kraftsman-instance-type'] ?? String(instance.machineType).split('/').pop();
  return resolved(nc, imageKeyOfName(String(type ?? ''))).image;
}

/** Every kind of machine a GCENodeClass may boot: its status lists the image of each. */
const STATUS_IMAGE_KEYS: readonly MachineImageKey[] = [
  { arch: 'amd64', accelerator: 'nvidia' },
  { arch: 'amd64', accelerator: 'none' },
  { arch: 'arm64', accelerator: 'nvidia' },
  { arch: 'arm64', accelerator: 'none' },
];

/** The node class status's images: one per kind of machine, resolved as launches resolve them (throws as they do). */
export function statusImages(nc: GCENodeClass): StatusGceImage[] {
  return resolvedImages(nc, STATUS_IMAGE_KEYS).map(({ image, arch, accelerator, driver }) => ({
    image,
    arch,
    accelerator,
    driver,
  }));
}
