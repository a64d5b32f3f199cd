// The public image families the Compute Engine emulator knows (the projects kraftsman's aliases name), and the boot
// disk check Compute Engine makes against them: an unknown family is 404 notFound, an image of the other
// architecture than the machine type's is refused (README "Boot images").
import { GceHttpError } from './resources.ts';
import type { GceWorld } from './world.ts';

export type EmuArchitecture = 'X86_64' | 'ARM64';

/** Families of the public projects, with their architecture (Compute Engine "OS images", checked 2026-12). */
export const PUBLIC_FAMILIES: Readonly<Record<string, Readonly<Record<string, EmuArchitecture>>>> = {
  'ubuntu-os-cloud': {
    'ubuntu-2204-lts': 'X86_64',
    'ubuntu-2204-lts-arm64': 'ARM64',
    'ubuntu-2404-lts-amd64': 'X86_64',
    'ubuntu-2404-lts-arm64': 'ARM64',
  },
  'ubuntu-os-accelerator-images': {
    'ubuntu-accelerator-2204-amd64-with-nvidia-570': 'X86_64',
    'ubuntu-accelerator-2204-amd64-with-nvidia-580': 'X86_64',
    'ubuntu-accelerator-2204-arm64-with-nvidia-570': 'ARM64',
    'ubuntu-accelerator-2204-arm64-with-nvidia-580': 'ARM64',
    'ubuntu-accelerator-2404-amd64-with-nvidia-580': 'X86_64',
    'ubuntu-accelerator-2404-arm64-with-nvidia-580': 'ARM64',
  },
  'cos-cloud': { 'cos-stable': 'X86_64', 'cos-arm64-stable': 'ARM64' },
};

const FAMILY_URL =
  /^(?:https:\/\/www\.googleapis\.com\/compute\/v1\/)?projects\/([^/]+)\/global\/images\/family\/([^/]+)$/;

interface BootDisk {
  boot?: boolean;
  initializeParams?: { sourceImage?: string };
}

/**
 * A boot disk from a public family: the family must exist (the real API's 404 "The resource '…' was not found")
 * and match the machine type's architecture (its 400 "Requested boot disk architecture (X86_64) is not compatible
 * with machine type architecture (ARM64)."). Images of other projects are not held here, so not checked.
 */
export function checkBootImage(world: GceWorld, machineType: string, disks: unknown): void {
  const boot = ((Array.isArray(disks) ? disks : []) as BootDisk[]).find((d) => d.boot);
  const source = boot?.initializeParams?.sourceImage;
  const m = source ? FAMILY_URL.exec(source) : null;
  if (!m) return;
  const [, project = '', family = ''] = m;
  const families = PUBLIC_FAMILIES[project];
  if (!families) return;
  const arch = families[family];
  if (!arch)
    throw new GceHttpError(
      404,
      'notFound',
      `The resource 'projects/${project}/global/images/family/${family}' was not found`,
    );
  const machine = world.machineTypes.get(machineType)?.architecture ?? 'X86_64';
  if (arch !== machine)
    throw new GceHttpError(
      400,
      'invalid',
      `Invalid resource usage: 'Requested boot disk architecture (${arch}) is not compatible with machine type architecture (${machine}).'`,
    );
}
