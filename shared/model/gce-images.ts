// Which boot image a Compute Engine launch gets from a GCENodeClass's imageSelectorTerms, per machine type: an alias
// resolves to a public image family for the machine's architecture and accelerator, an id is used as given, and
// each image says who installs the NVIDIA driver (docs/mechanisms/images.md#compute-engine).
import type { InstanceTypeSpec } from './catalog.ts';
import type { GCENodeClass } from './nodeclass.ts';
import { NVIDIA_GPU } from './resources.ts';

export type GceArch = 'amd64' | 'arm64';
export type GceAccelerator = 'nvidia' | 'none';

/** What an image must match: the machine type's architecture and whether it has NVIDIA GPUs. */
export interface MachineImageKey {
  readonly arch: GceArch;
  readonly accelerator: GceAccelerator;
}

/**
 * Who makes the NVIDIA driver work on a GPU machine: the `image` ships it (Ubuntu accelerator images), the
 * `startup-script` installs it (Container-Optimized OS: `cos-extensions install gpu`), the `user` chose the image
 * (an id term); `none` on a machine without GPUs.
 */
export type DriverSource = 'image' | 'startup-script' | 'user' | 'none';

export interface ResolvedGceImage {
  /** The image or image family URL, as `initializeParams.sourceImage` takes it. */
  readonly image: string;
  readonly arch: GceArch;
  readonly accelerator: GceAccelerator;
  readonly driver: DriverSource;
  /** The alias it came from; absent for an id term. */
  readonly alias?: string;
}

export class GceImageError extends Error {
  override name = 'GceImageError' as const;
}

interface AliasFamilies {
  readonly project: string;
  readonly family: Readonly<Record<GceArch, Readonly<Record<GceAccelerator, string>>>>;
  /** Who installs the driver when the machine has GPUs. */
  readonly gpuDriver: DriverSource;
}

const family = (project: string, name: string): string => `projects/${project}/global/images/family/${name}`;

/**
 * The public families behind each alias (Compute Engine "OS images" and "Accelerator OS images" pages, checked
 * 2026-12): Canonical's Ubuntu 22.04 accelerator images ship NVIDIA driver 580 for both architectures; a machine
 * without GPUs gets plain Ubuntu 22.04 (the accelerator image's extra drivers would only cost boot time). COS has
 * one family per architecture and no driver in the image.
 */
const ALIASES: Readonly<Record<string, AliasFamilies>> = {
  'ubuntu-accelerator': {
    project: 'ubuntu-os-accelerator-images',
    family: {
      amd64: {
        nvidia: family('ubuntu-os-accelerator-images', 'ubuntu-accelerator-2204-amd64-with-nvidia-580'),
        none: family('ubuntu-os-cloud', 'ubuntu-2204-lts'),
      },
      arm64: {
        nvidia: family('ubuntu-os-accelerator-images', 'ubuntu-accelerator-2204-arm64-with-nvidia-580'),
        none: family('ubuntu-os-cloud', 'ubuntu-2204-lts-arm64'),
      },
    },
    gpuDriver: 'image',
  },
  cos: {
    project: 'cos-cloud',
    family: {
      amd64: { nvidia: family('cos-cloud', 'cos-stable'), none: family('cos-cloud', 'cos-stable') },
      arm64: {
        nvidia: family('cos-cloud', 'cos-arm64-stable'),
        none: family('cos-cloud', 'cos-arm64-stable'),
      },
    },
    gpuDriver: 'startup-script',
  },
};

export const GCE_IMAGE_ALIASES: readonly string[] = Object.keys(ALIASES);

/** Compute Engine's Arm machine series (Tau T2A, Axion C4A / N4A, GB200 A4X); every other series is x86. */
const ARM_SERIES = /^(t2a|c4a|n4a|a4x)-/;
/** Machine series whose GPUs come with the machine type (A2, A3, A4, A4X, G2, G4); N1 attaches them (`_gpu_n`). */
const BUNDLED_GPU_SERIES = /^(a2|a3|a4|a4x|g2|g4)-/;

/** The architecture of a machine type (or `n1-…_nvidia-tesla-t4_1` shape) by its series. */
export function machineArch(instanceType: string): GceArch {
  return ARM_SERIES.test(instanceType) ? 'arm64' : 'amd64';
}

/** Whether a machine type (or N1 shape with attached GPUs) has NVIDIA GPUs, by its name. */
export function machineHasGpu(instanceType: string): boolean {
  return BUNDLED_GPU_SERIES.test(instanceType) || instanceType.split('_').length === 3;
}

/** The key of a machine type by its name alone (what drift has: the instance's type, not its catalog entry). */
export function imageKeyOfName(instanceType: string): MachineImageKey {
  return { arch: machineArch(instanceType), accelerator: machineHasGpu(instanceType) ? 'nvidia' : 'none' };
}

/** The key of an instance type the scheduler chose: its catalog architecture (kubernetes.io/arch) and GPUs. */
export function imageKeyOf(type: InstanceTypeSpec): MachineImageKey {
  const gpus = Number(type.capacity[NVIDIA_GPU] ?? '0');
  return { arch: type.arch, accelerator: gpus > 0 || machineHasGpu(type.name) ? 'nvidia' : 'none' };
}

/**
 * The image one launch boots. Terms are tried in order, the first that names an image wins. An alias is
 * `<name>` or `<name>@latest` (a family always boots its newest image; pin a release with an id term).
 */
export function resolveGceImage(nc: GCENodeClass, key: MachineImageKey): ResolvedGceImage {
  const where = `GCENodeClass ${nc.metadata.name}`;
  for (const t of nc.spec.imageSelectorTerms ?? []) {
    if (t.id)
      return {
        image: t.id,
        ...key,
        driver: key.accelerator === 'nvidia' ? 'user' : 'none',
      };
    if (!t.alias) continue;
    const [name = '', version] = t.alias.split('@');
    const a = ALIASES[name];
    if (!a)
      throw new GceImageError(
        `${where}: unknown image alias ${t.alias} (known: ${GCE_IMAGE_ALIASES.join(', ')}; or give an id term)`,
      );
    if (version !== undefined && version !== 'latest')
      throw new GceImageError(
        `${where}: image alias ${t.alias}: only @latest resolves (an image family boots its newest image); pin a release with an id term (projects/<project>/global/images/<name>)`,
      );
    return {
      image: a.family[key.arch][key.accelerator],
      ...key,
      driver: key.accelerator === 'nvidia' ? a.gpuDriver : 'none',
      alias: t.alias,
    };
  }
  throw new GceImageError(`${where}: spec.imageSelectorTerms must name an image (id or alias)`);
}

/**
 * Every distinct image the node class boots across these keys (one per architecture × accelerator a NodePool can
 * launch), for a node-class status writer; the same resolution the launcher uses.
 */
export function resolvedImages(
  nc: GCENodeClass,
  keys: readonly MachineImageKey[],
): readonly ResolvedGceImage[] {
  const seen = new Map<string, ResolvedGceImage>();
  for (const key of keys) {
    const r = resolveGceImage(nc, key);
    seen.set(`${r.arch}/${r.accelerator}`, r);
  }
  return [...seen.values()];
}
