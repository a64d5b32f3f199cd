// Image aliases through AWS's public SSM parameters, and selector terms (docs/mechanisms/images.md), against the
// SSM and EC2 emulators through the real SDK clients: per Kubernetes version, per architecture, the NVIDIA variant
// for GPU types; a launch picks each instance type's image; id / name / owner / tags terms as Karpenter's.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { aliasParameters, imageFor } from '../../../shared/adapters/aws-ec2/images.ts';
import { resolveNodeClass } from '../../../shared/adapters/aws-ec2/node-class-resolver.ts';
import { FatalCloudError } from '../../../shared/ports/cloud-provider/errors.ts';
import { AL2023_LATEST, AL2023_RELEASE, publicImageParameters } from '../../../local/ssm/seed.ts';
import { claim } from '../../contracts/cloud-provider/contract.ts';
import { LOCAL_CA_BUNDLE } from '../../../local/kube-api/index.ts';
import { ec2NodeClass, startEc2Rig, type Ec2Rig } from './ec2-setup.ts';

const seeded = publicImageParameters();
const imageNamed = (name: string) => seeded.images.find((i) => i.name === name)?.imageId;
// An alias decides the family (AL2023, Bottlerocket): give the class what those families join with.
const aliasClass = (alias: string) =>
  ec2NodeClass({
    amiSelectorTerms: [{ alias }],
    // The rig's user data is a Custom script; Bottlerocket's would be TOML and AL2023's MIME: none here.
    userData: undefined,
    bootstrap: {
      apiServerEndpoint: 'https://10.0.0.1:6443',
      caBundle: LOCAL_CA_BUNDLE,
      serviceCIDR: '10.100.0.0/16',
    },
  });

describe('image aliases through SSM public parameters', () => {
  let rig: Ec2Rig;
  beforeAll(async () => {
    rig = await startEc2Rig({ ssm: { kubernetesVersion: '1.33' } });
    // An arm64 type beside the emulator's x86_64 ones (g5 with NVIDIA GPUs, m5 without).
    rig.emulator.world.types.set('m7g.large', {
      name: 'm7g.large',
      vcpu: 2,
      memoryMiB: 8192,
      maxPods: 29,
      onDemandPrice: 0.0816,
      spotPrice: 0.03,
      arch: 'arm64',
      zones: ['us-east-1a', 'us-east-1b'],
    });
  });
  afterAll(() => rig.close());
  beforeEach(() => {
    rig.reset();
    rig.emulator.world.requests.length = 0;
    rig.ssm!.world.calls.length = 0;
  });
  const resolve = (alias: string) =>
    resolveNodeClass(rig.ec2, (_w, op) => op(), aliasClass(alias), {
      ssm: undefined,
      kubernetesVersion: '1.33',
    });

  it('names the public parameters Karpenter reads, per version, architecture and variant', () => {
    expect([...aliasParameters('al2023@latest', '1.33').keys()]).toContain(
      '/aws/service/eks/optimized-ami/1.33/amazon-linux-2023/x86_64/nvidia/recommended/image_id',
    );
    expect([...aliasParameters('al2023@v20261101', '1.33').keys()]).toContain(
      '/aws/service/eks/optimized-ami/1.33/amazon-linux-2023/arm64/standard/amazon-eks-node-al2023-arm64-standard-1.33-v20261101/image_id',
    );
    expect([...aliasParameters('bottlerocket@v1.41.0', '1.33').keys()]).toEqual([
      '/aws/service/bottlerocket/aws-k8s-1.33/x86_64/1.41.0/image_id',
      '/aws/service/bottlerocket/aws-k8s-1.33/arm64/1.41.0/image_id',
      '/aws/service/bottlerocket/aws-k8s-1.33-nvidia/x86_64/1.41.0/image_id',
      '/aws/service/bottlerocket/aws-k8s-1.33-nvidia/arm64/1.41.0/image_id',
    ]);
    expect(() => aliasParameters('al2@latest', '1.33')).toThrow(/unknown family/);
    expect(() => aliasParameters('al2023@2026', '1.33')).toThrow(/latest" or a release/);
  });

  it('al2023@latest resolves one image per architecture and variant, with Karpenter’s requirements', async () => {
    const instanceTypes = await rig.provider.instanceTypes(aliasClass('al2023@latest'));
    const byType = new Map(instanceTypes.map((t) => [t.name, t]));
    // Every type has an image: the NVIDIA variant for g5 (x86_64, GPU), standard for m5 (x86_64) and m7g (arm64).
    expect([...byType.keys()].sort()).toEqual(
      ['g5.12xlarge', 'g5.2xlarge', 'g5.xlarge', 'm5.large', 'm7g.large', 'p4d.24xlarge'].sort(),
    );
    expect(rig.ssm!.world.calls).toContain('GetParameters');
  });

  it('a launch picks each instance type’s image: NVIDIA for GPU types, arm64 for Graviton, standard otherwise', async () => {
    const nodeClass = aliasClass('al2023@latest');
    const types = await rig.provider.instanceTypes(nodeClass);
    const cases = [
      ['g5.xlarge', `amazon-eks-node-al2023-x86_64-nvidia-1.33-${AL2023_LATEST}`],
      ['m5.large', `amazon-eks-node-al2023-x86_64-standard-1.33-${AL2023_LATEST}`],
      ['m7g.large', `amazon-eks-node-al2023-arm64-standard-1.33-${AL2023_LATEST}`],
    ] as const;
    for (const [type, image] of cases) {
      const c = claim(`img-${type.replace('.', '-')}`);
      c.spec.requirements = [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: [type] }];
      const { instance } = await rig.provider.create({ claim: c, nodeClass, instanceTypes: types });
      const launched = rig.emulator.world.instances.get(instance.providerId.split('/').pop() ?? '');
      expect(launched?.imageId, type).toBe(imageNamed(image));
    }
  });

  it('a dated release and bottlerocket resolve their own images; the NVIDIA Bottlerocket for GPU types', async () => {
    const dated = await rig.provider.instanceTypes(aliasClass(`al2023@${AL2023_RELEASE}`));
    expect(dated.length).toBeGreaterThan(0);
    const nodeClass = aliasClass('bottlerocket@latest');
    const types = await rig.provider.instanceTypes(nodeClass);
    const c = claim('br-gpu');
    c.spec.requirements = [
      { key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['g5.xlarge'] },
    ];
    const { instance } = await rig.provider.create({ claim: c, nodeClass, instanceTypes: types });
    expect(rig.emulator.world.instances.get(instance.providerId.split('/').pop() ?? '')?.imageId).toBe(
      imageNamed('bottlerocket-aws-k8s-1.33-nvidia-x86_64-v1.41.0'),
    );
  });

  it('refuses what it cannot resolve, naming why: no version configured, no images for the version, no SSM', async () => {
    await expect(
      resolveNodeClass(rig.ec2, (_w, op) => op(), aliasClass('al2023@latest'), {}),
    ).rejects.toThrow(/needs the cluster's Kubernetes version/);
    await expect(resolve('al2023@latest')).rejects.toThrow(/no SSM client/);
    const old = await startEc2Rig({ ssm: { kubernetesVersion: '1.20' } });
    try {
      const err = await old.provider.instanceTypes(aliasClass('al2023@latest')).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(FatalCloudError);
      expect(String(err)).toMatch(/no image is published for Kubernetes 1.20/);
    } finally {
      await old.close();
    }
    await expect(
      rig.provider.instanceTypes(ec2NodeClass({ amiSelectorTerms: [{ alias: 'al2023@latest', name: 'x' }] })),
    ).rejects.toThrow(/alias cannot be combined/);
  });

  it('selector terms: id, name with its default owners (self, amazon), an explicit owner, tags', async () => {
    const call = <T>(_w: string, op: () => Promise<T>) => op();
    const ids = async (terms: object[]) =>
      (await resolveNodeClass(rig.ec2, call, ec2NodeClass({ amiSelectorTerms: terms as never }))).images?.map(
        (i) => i.id,
      );
    expect(await ids([{ id: 'ami-0gpu20261001' }])).toEqual(['ami-0gpu20261001']);
    // The name of an Amazon image matches without an owner (self and amazon by default) …
    const al = `amazon-eks-node-al2023-arm64-standard-1.33-${AL2023_LATEST}`;
    expect(await ids([{ name: al }])).toEqual([imageNamed(al)]);
    // … but not when the owner says another account.
    await expect(ids([{ name: al, owner: '999999999999' }])).rejects.toThrow(/select no image/);
    // Tags: the newest of the discovery-tagged images, one per architecture.
    expect(await ids([{ tags: { 'kraftsman.dev/discovery': 'local' } }])).toEqual(['ami-0gpu20261101']);
  });

  it('an instance type no image boots is not offered (an arm64 type when only x86_64 images are selected)', async () => {
    const types = await rig.provider.instanceTypes(ec2NodeClass());
    expect(types.map((t) => t.name)).not.toContain('m7g.large');
    expect(types.map((t) => t.name)).toContain('m5.large');
    const images = (await resolveNodeClass(rig.ec2, (_w, op) => op(), ec2NodeClass())).images ?? [];
    const arm = types.find((t) => t.name === 'm5.large');
    expect(arm && imageFor(images, { ...arm, arch: 'arm64' })).toBeUndefined();
  });
});
