// The boot image of one launch and of one running instance (docs/mechanisms/images.md#compute-engine): the pure
// resolution of shared/model/gce-images.ts keyed by the machine type, its refusals as FatalCloudErrors.
import type { protos } from '@google-cloud/compute';
import type { InstanceTypeSpec } from '../../model/catalog.ts';
import {
  GceImageError,
  imageKeyOf,
  imageKeyOfName,
  resolveGceImage,
  type MachineImageKey,
  type ResolvedGceImage,
} from '../../model/gce-images.ts';
import type { GCENodeClass } from '../../model/nodeclass.ts';
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
