// The EC2 emulator's CreateFleet (instant) with several launch template configs, through the real SDK client, as
// the EC2 API reference describes it: the overrides of every config form one pool, MinTargetCapacity counts the
// fleet's whole capacity (no config gets a share of its own), and SingleAvailabilityZone alone keeps one zone
// while mixing types. This is why a gang of mixed shapes takes one fleet per shape (docs/mechanisms/gangs.md).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CreateFleetCommand,
  CreateLaunchTemplateCommand,
  type CreateFleetCommandInput,
  type OnDemandOptionsRequest,
} from '@aws-sdk/client-ec2';
import { startEc2Rig, type Ec2Rig } from './ec2-setup.ts';

describe('EC2 emulator: a fleet of several launch template configs', () => {
  let rig: Ec2Rig;
  beforeAll(async () => {
    rig = await startEc2Rig();
    for (const name of ['lt-master', 'lt-worker'])
      await rig.ec2.send(
        new CreateLaunchTemplateCommand({
          LaunchTemplateName: name,
          LaunchTemplateData: { ImageId: 'ami-0gpu20261101' },
        }),
      );
  });
  beforeEach(() => rig.reset());
  afterAll(() => rig.close());

  /** A master config on the cheap g5.xlarge, a worker config on the dear g5.12xlarge, both in us-east-1a. */
  const fleet = (token: string, total: number, options: OnDemandOptionsRequest): CreateFleetCommandInput => ({
    Type: 'instant',
    ClientToken: token,
    LaunchTemplateConfigs: [
      {
        LaunchTemplateSpecification: { LaunchTemplateName: 'lt-master', Version: '$Latest' },
        Overrides: [{ InstanceType: 'g5.xlarge', SubnetId: 'subnet-us-east-1a' }],
      },
      {
        LaunchTemplateSpecification: { LaunchTemplateName: 'lt-worker', Version: '$Latest' },
        Overrides: [{ InstanceType: 'g5.12xlarge', SubnetId: 'subnet-us-east-1a' }],
      },
    ],
    TargetCapacitySpecification: { TotalTargetCapacity: total, DefaultTargetCapacityType: 'on-demand' },
    OnDemandOptions: { AllocationStrategy: 'lowest-price', ...options },
  });
  const launched = () =>
    rig.emulator.world
      .live()
      .map((i) => i.instanceType)
      .sort();

  it('meets MinTargetCapacity from any config: a 1 + 2 gang comes back as three of the cheapest type', async () => {
    const out = await rig.ec2.send(
      new CreateFleetCommand(fleet('multi-1', 3, { MinTargetCapacity: 3, SingleInstanceType: true })),
    );
    expect(out.Instances?.map((s) => s.InstanceType)).toEqual(['g5.xlarge']);
    expect(launched()).toEqual(['g5.xlarge', 'g5.xlarge', 'g5.xlarge']);
  });

  it('with SingleAvailabilityZone alone, fills one zone across types, cheapest first', async () => {
    rig.emulator.world.setCapacity('g5.xlarge', 'us-east-1a', 'on-demand', 1);
    await rig.ec2.send(
      new CreateFleetCommand(fleet('multi-2', 3, { MinTargetCapacity: 3, SingleAvailabilityZone: true })),
    );
    expect(launched()).toEqual(['g5.12xlarge', 'g5.12xlarge', 'g5.xlarge']);
  });

  it('launches nothing when the whole fleet cannot reach MinTargetCapacity in one group', async () => {
    rig.emulator.world.setCapacity('g5.xlarge', 'us-east-1a', 'on-demand', 1);
    rig.emulator.world.setCapacity('g5.12xlarge', 'us-east-1a', 'on-demand', 1);
    const out = await rig.ec2.send(
      new CreateFleetCommand(fleet('multi-3', 3, { MinTargetCapacity: 3, SingleAvailabilityZone: true })),
    );
    expect(out.Instances ?? []).toEqual([]);
    expect(out.Errors?.length).toBe(2);
    expect(launched()).toEqual([]);
  });

  it('refuses MinTargetCapacity without SingleInstanceType or SingleAvailabilityZone', async () => {
    await expect(
      rig.ec2.send(new CreateFleetCommand(fleet('multi-4', 3, { MinTargetCapacity: 3 }))),
    ).rejects.toMatchObject({ name: 'InvalidParameterCombination' });
  });
});
