// A GCENodeClass's image per launch: an alias resolves to the public family for the machine type's architecture and
// GPUs, an id is used as given, and each image says who installs the NVIDIA driver (docs/mechanisms/images.md).
import { describe, expect, it } from 'vitest';
import {
  imageKeyOf,
  imageKeyOfName,
  machineArch,
  resolveGceImage,
  resolvedImages,
  type MachineImageKey,
} from '../../../shared/model/gce-images.ts';
import type { InstanceTypeSpec } from '../../../shared/model/catalog.ts';
import { gceClass } from '../provisioning/bootstrap/fixtures.ts';

const FAMILY = 'global/images/family';
const GPU_AMD: MachineImageKey = { arch: 'amd64', accelerator: 'nvidia' };
const GPU_ARM: MachineImageKey = { arch: 'arm64', accelerator: 'nvidia' };
const CPU_AMD: MachineImageKey = { arch: 'amd64', accelerator: 'none' };
const CPU_ARM: MachineImageKey = { arch: 'arm64', accelerator: 'none' };

const type = (name: string, arch: 'amd64' | 'arm64', gpus = 0): InstanceTypeSpec => ({
  name,
  cloud: 'gcp',
  arch,
  capacity: { cpu: '8', memory: '32Gi', ...(gpus ? { 'nvidia.com/gpu': String(gpus) } : {}) },
  offerings: [{ zone: 'us-central1-a', capacityType: 'on-demand', price: 1, available: true }],
});

describe('GCE image resolution', () => {
  it('ubuntu-accelerator: the NVIDIA 580 accelerator family per architecture on GPUs, plain Ubuntu 22.04 on CPUs', () => {
    const nc = gceClass({ imageSelectorTerms: [{ alias: 'ubuntu-accelerator@latest' }] });
    expect(resolveGceImage(nc, GPU_AMD)).toEqual({
      image: `projects/ubuntu-os-accelerator-images/${FAMILY}/ubuntu-accelerator-2204-amd64-with-nvidia-580`,
      ...GPU_AMD,
      driver: 'image',
      alias: 'ubuntu-accelerator@latest',
    });
    expect(resolveGceImage(nc, GPU_ARM).image).toBe(
      `projects/ubuntu-os-accelerator-images/${FAMILY}/ubuntu-accelerator-2204-arm64-with-nvidia-580`,
    );
    expect(resolveGceImage(nc, CPU_AMD)).toMatchObject({
      image: `projects/ubuntu-os-cloud/${FAMILY}/ubuntu-2204-lts`,
      driver: 'none',
    });
    expect(resolveGceImage(nc, CPU_ARM).image).toBe(
      `projects/ubuntu-os-cloud/${FAMILY}/ubuntu-2204-lts-arm64`,
    );
  });

  it('cos: cos-stable or cos-arm64-stable, the driver installed by the startup-script on a GPU machine', () => {
    const nc = gceClass({ imageSelectorTerms: [{ alias: 'cos' }] });
    expect(resolveGceImage(nc, GPU_AMD)).toMatchObject({
      image: `projects/cos-cloud/${FAMILY}/cos-stable`,
      driver: 'startup-script',
    });
    expect(resolveGceImage(nc, CPU_ARM)).toMatchObject({
      image: `projects/cos-cloud/${FAMILY}/cos-arm64-stable`,
      driver: 'none',
    });
  });

  it('an id term is used as given on every machine; the driver is then the user’s', () => {
    const nc = gceClass({ imageSelectorTerms: [{ id: 'projects/p/global/images/gpu-node' }] });
    for (const key of [GPU_AMD, GPU_ARM, CPU_AMD])
      expect(resolveGceImage(nc, key)).toMatchObject({
        image: 'projects/p/global/images/gpu-node',
        driver: key.accelerator === 'nvidia' ? 'user' : 'none',
      });
  });

  it('refuses an unknown alias, a pinned alias version and no image, naming the node class', () => {
    expect(() =>
      resolveGceImage(gceClass({ imageSelectorTerms: [{ alias: 'rhel@latest' }] }), CPU_AMD),
    ).toThrow(
      'GCENodeClass gpu: unknown image alias rhel@latest (known: ubuntu-accelerator, cos; or give an id term)',
    );
    expect(() => resolveGceImage(gceClass({ imageSelectorTerms: [{ alias: 'cos@v121' }] }), CPU_AMD)).toThrow(
      /image alias cos@v121: only @latest resolves/,
    );
    expect(() => resolveGceImage(gceClass({}), CPU_AMD)).toThrow(
      'GCENodeClass gpu: spec.imageSelectorTerms must name an image (id or alias)',
    );
  });

  it('keys a machine by its catalog architecture and GPUs, and by name where only the name is known', () => {
    expect(imageKeyOf(type('c4a-standard-8', 'arm64'))).toEqual(CPU_ARM);
    expect(imageKeyOf(type('g2-standard-8', 'amd64', 1))).toEqual(GPU_AMD);
    expect(imageKeyOf(type('n1-standard-8_nvidia-tesla-t4_1', 'amd64', 1))).toEqual(GPU_AMD);
    expect(imageKeyOfName('a4x-highgpu-4g')).toEqual(GPU_ARM);
    expect(imageKeyOfName('t2a-standard-4')).toEqual(CPU_ARM);
    expect(imageKeyOfName('n1-standard-8_nvidia-tesla-t4_2')).toEqual(GPU_AMD);
    expect(imageKeyOfName('n2-standard-8')).toEqual(CPU_AMD);
    expect(['c4a-standard-4', 'n4a-standard-2', 'a3-highgpu-8g'].map(machineArch)).toEqual([
      'arm64',
      'arm64',
      'amd64',
    ]);
  });

  it('resolvedImages lists one image per architecture × accelerator, for a status writer', () => {
    const nc = gceClass({ imageSelectorTerms: [{ alias: 'ubuntu-accelerator' }] });
    const images = resolvedImages(nc, [GPU_AMD, CPU_AMD, GPU_AMD, GPU_ARM]);
    expect(images.map((i) => `${i.arch}/${i.accelerator}/${i.driver}`)).toEqual([
      'amd64/nvidia/image',
      'amd64/none/none',
      'arm64/nvidia/image',
    ]);
  });
});
