// Compute Engine boot images per machine type against the emulator, through the real SDK: an alias boots the public
// family of the machine's architecture and GPUs (sourceImage as sent), drift compares each instance with the image
// its own machine type resolves to, and the emulator refuses an unknown family or an architecture mismatch as
// Compute Engine does (docs/mechanisms/images.md#compute-engine).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { InstanceTypeSpec } from '../../../shared/model/catalog.ts';
import { FatalCloudError } from '../../../shared/ports/cloud-provider/errors.ts';
import { claim } from '../../contracts/cloud-provider/contract.ts';
import { gceNodeClass, startGceRig, ZONES, type GceRig } from './gce-setup.ts';

const FAMILY = 'global/images/family';
const ACCELERATOR_AMD = `projects/ubuntu-os-accelerator-images/${FAMILY}/ubuntu-accelerator-2204-amd64-with-nvidia-580`;

interface Body {
  disks?: { boot?: boolean; initializeParams?: { sourceImage?: string } }[];
  metadata?: { items?: { key: string; value: string }[] };
}

const type = (name: string, arch: 'amd64' | 'arm64', gpus = 0): InstanceTypeSpec => ({
  name,
  cloud: 'gcp',
  arch,
  capacity: { cpu: '8', memory: '32Gi', ...(gpus ? { 'nvidia.com/gpu': String(gpus) } : {}) },
  offerings: ZONES.map((zone) => ({ zone, capacityType: 'on-demand' as const, price: 1, available: true })),
});
const G2 = type('g2-standard-8', 'amd64', 1);
const N1 = type('n1-standard-8', 'amd64');
const C4A = type('c4a-standard-8', 'arm64');

describe('Compute Engine images per machine type', () => {
  let rig: GceRig;
  beforeAll(async () => {
    rig = await startGceRig({ operationTimeoutMs: 60_000 });
    rig.emulator.world.machineTypes.set('c4a-standard-8', {
      name: 'c4a-standard-8',
      guestCpus: 8,
      memoryMb: 32768,
      zones: [...ZONES],
      architecture: 'ARM64',
    });
  });
  afterAll(() => rig.close());
  beforeEach(() => {
    rig.emulator.world.instances.clear();
    rig.emulator.world.bodies.length = 0;
  });

  const launch = async (name: string, t: InstanceTypeSpec, spec: Parameters<typeof gceNodeClass>[0]) => {
    rig.emulator.world.bodies.length = 0;
    const { instance } = await rig.provider.create({
      claim: claim(name, [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: [t.name] }]),
      nodeClass: gceNodeClass(spec),
      instanceTypes: [t],
    });
    const body = rig.emulator.world.bodies.find((b) => b.path.endsWith('/instances'))?.body as Body;
    const boot = body.disks?.find((d) => d.boot)?.initializeParams?.sourceImage;
    const script = body.metadata?.items?.find((i) => i.key === 'startup-script')?.value ?? '';
    return { instance, boot, script };
  };

  it('ubuntu-accelerator boots the amd64 NVIDIA family on G2, plain Ubuntu on N1, the arm64 family on C4A', async () => {
    const spec = { imageSelectorTerms: [{ alias: 'ubuntu-accelerator@latest' }] };
    expect((await launch('img-g2', G2, spec)).boot).toBe(ACCELERATOR_AMD);
    expect((await launch('img-n1', N1, spec)).boot).toBe(
      `projects/ubuntu-os-cloud/${FAMILY}/ubuntu-2204-lts`,
    );
    const arm = await launch('img-c4a', C4A, spec);
    expect(arm.boot).toBe(`projects/ubuntu-os-cloud/${FAMILY}/ubuntu-2204-lts-arm64`);
    expect(arm.instance.imageId).toBe(arm.boot);
  });

  it('drift compares each instance with the image of its own machine type', async () => {
    const spec = { imageSelectorTerms: [{ alias: 'ubuntu-accelerator' }] };
    for (const [name, t] of [
      ['drift-g2', G2],
      ['drift-c4a', C4A],
    ] as const) {
      const { instance } = await launch(name, t, spec);
      const launched = claim(name);
      launched.status = { providerID: instance.providerId };
      expect(await rig.provider.isDrifted(launched, gceNodeClass(spec))).toBeUndefined();
      expect(
        await rig.provider.isDrifted(launched, gceNodeClass({ imageSelectorTerms: [{ alias: 'cos' }] })),
      ).toBe('ImageDrift');
    }
  });

  it('COS on a GPU machine installs the driver in the startup-script; on a CPU machine it does not', async () => {
    const spec = { imageSelectorTerms: [{ alias: 'cos' }] };
    const gpu = await launch('cos-g2', G2, spec);
    expect(gpu.boot).toBe(`projects/cos-cloud/${FAMILY}/cos-stable`);
    expect(gpu.script).toMatch(
      /^#!\/bin\/bash\n# kraftsman: Container-Optimized OS[^\n]*\ncos-extensions install gpu\n/,
    );
    const cpu = await launch('cos-c4a', C4A, spec);
    expect(cpu.boot).toBe(`projects/cos-cloud/${FAMILY}/cos-arm64-stable`);
    expect(cpu.script).not.toContain('cos-extensions');
  });

  it('an id term is sent as given: an x86 family on an Arm machine and an unknown family are refused by the API', async () => {
    const x86 = { imageSelectorTerms: [{ id: `projects/ubuntu-os-cloud/${FAMILY}/ubuntu-2204-lts` }] };
    const mismatch = launch('id-c4a', C4A, x86);
    await expect(mismatch).rejects.toBeInstanceOf(FatalCloudError);
    await expect(mismatch).rejects.toThrow(
      'Requested boot disk architecture (X86_64) is not compatible with machine type architecture (ARM64).',
    );
    await expect(
      launch('id-nope', N1, { imageSelectorTerms: [{ id: `projects/cos-cloud/${FAMILY}/cos-nope` }] }),
    ).rejects.toThrow(`The resource 'projects/cos-cloud/${FAMILY}/cos-nope' was not found`);
    expect(rig.emulator.world.live()).toHaveLength(0);
  });
});
