// The EC2 adapter against the emulator beyond the contract: the CreateFleet request it sends,
// user data, capacity reservations, drift, node class errors, and where its prices come from.
import { uniformGang } from '../../../shared/ports/cloud-provider/index.ts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Ec2CloudProvider } from '../../../shared/adapters/aws-ec2/provider.ts';
import { systemClock } from '../../../shared/adapters/system-clock.ts';
import { parseEc2ProviderConfig } from '../../../shared/config/aws-ec2.ts';
import { fleetInput } from '../../../shared/adapters/aws-ec2/fleet.ts';
import { FatalCloudError } from '../../../shared/ports/cloud-provider/errors.ts';
import { type LaunchOption } from '../../../shared/model/launch-options.ts';
import type { BootedInstance } from '../../../local/ec2/world.ts';
import { claim } from '../../contracts/cloud-provider/contract.ts';
import { ec2NodeClass, startEc2Rig, type Ec2Rig } from './ec2-setup.ts';

describe('EC2 adapter launches', () => {
  let rig: Ec2Rig;
  const booted: BootedInstance[] = [];
  beforeAll(async () => {
    rig = await startEc2Rig({ emulator: { onBoot: (b) => void booted.push(b) } });
  });
  afterAll(() => rig.close());
  beforeEach(() => {
    rig.emulator.world.instances.clear();
    rig.emulator.world.requests.length = 0;
    booted.length = 0;
  });

  it('sends an instant fleet: cheapest overrides first, price-capacity-optimized for spot, a client token, cluster tags', async () => {
    const types = await rig.provider.instanceTypes(ec2NodeClass());
    const spotClaim = claim('spot-1');
    spotClaim.spec.requirements = [{ key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot'] }];
    const { instance } = await rig.provider.create({
      claim: spotClaim,
      nodeClass: ec2NodeClass(),
      instanceTypes: types,
    });
    expect(instance).toMatchObject({ instanceType: 'm5.large', capacityType: 'spot', nodeClaim: 'spot-1' });
    const p = rig.emulator.world.requests.find((r) => r.action === 'CreateFleet')?.params as ReadonlyMap<
      string,
      string
    >;
    expect(p.get('Type')).toBe('instant');
    expect(p.get('SpotOptions.AllocationStrategy')).toBe('price-capacity-optimized');
    expect(p.get('TargetCapacitySpecification.DefaultTargetCapacityType')).toBe('spot');
    expect(p.get('ClientToken')).toMatch(/^kraftsman-[0-9a-f]{48}$/);
    expect(p.get('LaunchTemplateConfigs.1.Overrides.1.InstanceType')).toBe('m5.large');
    expect(p.get('LaunchTemplateConfigs.1.Overrides.3.InstanceType')).toBe('g5.xlarge');
    const tags = [...p.entries()]
      .filter(([k]) => /^TagSpecification\.1\.Tag\.\d+\.Key$/.test(k))
      .map(([, v]) => v);
    expect(tags).toEqual(
      expect.arrayContaining([
        'kubernetes.io/cluster/test',
        'kraftsman.dev/cluster',
        'karpenter.sh/nodepool',
        'karpenter.sh/nodeclaim',
      ]),
    );
  });

  it('uses lowest-price for on-demand and launches a gang with MinTargetCapacity on one type in one zone', async () => {
    const types = await rig.provider.instanceTypes(ec2NodeClass());
    await rig.provider.createGang(
      uniformGang('ml/train', [claim('g-1'), claim('g-2')], ec2NodeClass(), types),
    );
    const p = rig.emulator.world.requests.find((r) => r.action === 'CreateFleet')?.params as ReadonlyMap<
      string,
      string
    >;
    expect(p.get('OnDemandOptions.AllocationStrategy')).toBe('lowest-price');
    expect(p.get('OnDemandOptions.MinTargetCapacity')).toBe('2');
    expect(p.get('OnDemandOptions.SingleInstanceType')).toBe('true');
    expect(p.get('OnDemandOptions.SingleAvailabilityZone')).toBe('true');
    expect(p.get('TargetCapacitySpecification.TotalTargetCapacity')).toBe('2');
  });

  it('caps a fleet at 60 overrides, cheapest first', () => {
    const options: LaunchOption[] = Array.from({ length: 100 }, (_, i) => ({
      instanceType: `t${i}`,
      zone: 'z',
      capacityType: 'on-demand',
      price: i,
    }));
    const input = fleetInput({
      templates: [{ name: 'lt', options }],
      subnetByZone: new Map([['z', 'subnet-z']]),
      capacityType: 'on-demand',
      count: 1,
      clientToken: 't',
      tags: {},
      maxOverrides: 60,
    });
    const overrides = input.LaunchTemplateConfigs?.[0]?.Overrides ?? [];
    expect(overrides).toHaveLength(60);
    expect(overrides[0]?.InstanceType).toBe('t0');
    expect(overrides[59]?.InstanceType).toBe('t59');
  });

  it('boots the instance with user data that registers the claim labels and taints, and calls onBoot', async () => {
    const types = await rig.provider.instanceTypes(ec2NodeClass());
    const c = claim('boot-1', [
      { key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['g5.xlarge'] },
    ]);
    c.metadata.labels = { ...c.metadata.labels, team: 'ml' };
    const { instance } = await rig.provider.create({
      claim: c,
      nodeClass: ec2NodeClass({
        amiFamily: 'Kubeadm',
        userData: '#!/bin/bash\necho site-setup',
        bootstrap: { apiServerEndpoint: 'https://10.0.0.1:6443', caCertHash: `sha256:${'0'.repeat(64)}` },
      }),
      instanceTypes: types,
      join: { id: 'abcdef', secret: '0123456789abcdef' },
    });
    await expect.poll(() => booted.length).toBe(1);
    const b = booted[0] as BootedInstance;
    expect(b.providerId).toBe(instance.providerId);
    expect(b.tags['karpenter.sh/nodeclaim']).toBe('boot-1');
    expect(b.userData).toContain("export KRAFTSMAN_API_SERVER='https://10.0.0.1:6443'");
    expect(b.userData).toMatch(/KRAFTSMAN_NODE_LABELS='[^']*karpenter\.sh\/nodepool=gpu/);
    expect(b.userData).toContain('node.kubernetes.io/instance-type=g5.xlarge');
    expect(b.userData).toContain('team=ml');
    expect(b.userData).toContain('nvidia.com/gpu:NoSchedule');
    expect(b.userData).toContain('karpenter.sh/unregistered:NoExecute');
    expect(b.userData).toContain('echo site-setup');
    expect(b.userData).toContain("export KRAFTSMAN_JOIN_TOKEN='abcdef.0123456789abcdef'");
    expect(b.userData).toContain('kubeadm join "$KRAFTSMAN_JOIN_ENDPOINT"');
    expect((await rig.provider.get(instance.providerId)).state).toBe('running');
  });

  it('puts the node class instance profile and IMDSv2 into the launch template', async () => {
    const nodeClass = ec2NodeClass({ instanceProfile: 'KraftsmanNodeProfile' });
    const types = await rig.provider.instanceTypes(nodeClass);
    await rig.provider.create({ claim: claim('profile-1'), nodeClass, instanceTypes: types });
    const p = rig.emulator.world.requests.find((r) => r.action === 'CreateLaunchTemplate')?.params;
    expect(p?.get('LaunchTemplateData.IamInstanceProfile.Name')).toBe('KraftsmanNodeProfile');
    expect(p?.get('LaunchTemplateData.MetadataOptions.HttpTokens')).toBe('required');
    expect(p?.get('LaunchTemplateName')).toMatch(/^kraftsman\/test\/[0-9a-f]{24}$/);
  });

  it('offers and launches into a capacity reservation for reserved claims', async () => {
    rig.emulator.world.reservations.push({
      id: 'cr-0gpu',
      instanceType: 'g5.12xlarge',
      zone: 'us-east-1b',
      available: 1,
      tags: { team: 'ml' },
    });
    const nodeClass = ec2NodeClass({ capacityReservationSelectorTerms: [{ tags: { team: 'ml' } }] });
    const types = await rig.provider.instanceTypes(nodeClass);
    const reserved = types
      .find((t) => t.name === 'g5.12xlarge')
      ?.offerings.find((o) => o.capacityType === 'reserved');
    expect(reserved).toMatchObject({ zone: 'us-east-1b', reservationId: 'cr-0gpu', available: true });
    const c = claim('reserved-1');
    c.spec.requirements = [
      { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['reserved', 'on-demand'] },
    ];
    const { instance } = await rig.provider.create({ claim: c, nodeClass, instanceTypes: types });
    expect(instance).toMatchObject({
      instanceType: 'g5.12xlarge',
      zone: 'us-east-1b',
      capacityType: 'reserved',
    });
    expect((await rig.provider.get(instance.providerId)).capacityType).toBe('reserved');
  });

  it('reports image drift once a newer image matches the node class', async () => {
    const types = await rig.provider.instanceTypes(ec2NodeClass());
    const { instance } = await rig.provider.create({
      claim: claim('drift-1'),
      nodeClass: ec2NodeClass(),
      instanceTypes: types,
    });
    const launched = claim('drift-1');
    launched.status = { providerID: instance.providerId };
    expect(await rig.provider.isDrifted(launched, ec2NodeClass())).toBeUndefined();
    rig.emulator.world.images.push({
      imageId: 'ami-0gpu20261201',
      name: 'kraftsman-gpu-node-2026-12-01',
      owner: '123456789012',
      creationDate: '2026-12-01T00:00:00.000Z',
      arch: 'x86_64',
      tags: { 'kraftsman.dev/discovery': 'local' },
    });
    expect(await rig.provider.isDrifted(launched, ec2NodeClass())).toBe('ImageDrift');
    rig.emulator.world.images.pop();
  });

  it('refuses a node class whose selectors match no subnet, naming the node class', async () => {
    const error = await rig.provider
      .instanceTypes(ec2NodeClass({ subnetSelectorTerms: [{ tags: { nothing: 'here' } }] }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FatalCloudError);
    expect((error as Error).message).toContain('EC2NodeClass default: subnetSelectorTerms select no subnet');
  });

  it('prices offerings from the lookup it is handed and calls no price API (only the pricing function does)', async () => {
    rig.emulator.world.calls.length = 0;
    const types = await rig.provider.instanceTypes(ec2NodeClass(), {
      prices: async () => ({
        onDemand: (t) => (t === 'g5.xlarge' ? 2.5 : undefined),
        spot: (t, z) => (t === 'g5.xlarge' && z === 'us-east-1b' ? 0.75 : undefined),
      }),
    });
    const g5 = types.find((t) => t.name === 'g5.xlarge');
    expect(g5?.offerings.filter((o) => o.capacityType === 'on-demand').map((o) => o.price)).toEqual([
      2.5, 2.5,
    ]);
    expect(g5?.offerings.filter((o) => o.capacityType === 'spot')).toEqual([
      expect.objectContaining({ zone: 'us-east-1b', price: 0.75 }),
    ]);
    // A type the lookup does not price is not offered (no price, no offering).
    expect(types.find((t) => t.name === 'g5.2xlarge')).toBeUndefined();
    expect(rig.emulator.world.calls).not.toContain('GetProducts');
    expect(rig.emulator.world.calls).not.toContain('DescribeSpotPriceHistory');
  });

  it('refuses to read instance types with no prices at all, naming the node class, before any call', async () => {
    const bare = new Ec2CloudProvider({
      ec2: rig.ec2,
      config: parseEc2ProviderConfig({ clusterName: 'test', region: 'us-east-1' }),
      clock: systemClock,
    });
    rig.emulator.world.calls.length = 0;
    const error = await bare.instanceTypes(ec2NodeClass()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FatalCloudError);
    expect((error as Error).message).toBe(
      'EC2 instance types of default: no prices to read them with (pass the stored price book)',
    );
    expect(rig.emulator.world.calls).toEqual([]);
  });
});
