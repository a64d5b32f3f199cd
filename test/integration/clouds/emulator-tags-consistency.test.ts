// The EC2 emulator through the real SDK client, as local/ec2/README.md states it: tag keys EC2 refuses (empty,
// over 127 characters, beginning with aws:) are InvalidParameterValue in CreateTags and CreateFleet; eventual
// consistency per API (faults.unseenBy: CreateTags may see an instance DescribeInstances does not list yet); a
// one-shot fault that lets `after` calls of its action through first.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CreateFleetCommand,
  CreateLaunchTemplateCommand,
  CreateTagsCommand,
  DescribeInstancesCommand,
  type CreateFleetCommandInput,
} from '@aws-sdk/client-ec2';
import { startEc2Rig, type Ec2Rig } from './ec2-setup.ts';

describe('EC2 emulator: tag keys, per-API consistency, delayed faults', () => {
  let rig: Ec2Rig;
  beforeAll(async () => {
    rig = await startEc2Rig();
    await rig.ec2.send(
      new CreateLaunchTemplateCommand({
        LaunchTemplateName: 'lt',
        LaunchTemplateData: { ImageId: 'ami-0gpu20261101' },
      }),
    );
  });
  beforeEach(() => rig.reset());
  afterAll(() => rig.close());

  const fleet = (token: string, tags: { Key: string; Value: string }[] = []): CreateFleetCommandInput => ({
    Type: 'instant',
    ClientToken: token,
    LaunchTemplateConfigs: [
      {
        LaunchTemplateSpecification: { LaunchTemplateName: 'lt', Version: '$Latest' },
        Overrides: [{ InstanceType: 'g5.xlarge', SubnetId: 'subnet-us-east-1a' }],
      },
    ],
    TargetCapacitySpecification: { TotalTargetCapacity: 1, DefaultTargetCapacityType: 'on-demand' },
    TagSpecifications: [{ ResourceType: 'instance', Tags: tags }],
  });
  const launch = async (token: string): Promise<string> => {
    const out = await rig.ec2.send(new CreateFleetCommand(fleet(token)));
    return out.Instances?.[0]?.InstanceIds?.[0] ?? '';
  };

  it('refuses the tag keys EC2 refuses, naming the key', async () => {
    const id = await launch('tags-1');
    for (const Key of ['', 'aws:owner', 'AWS:owner', 'k'.repeat(128)])
      await expect(
        rig.ec2.send(new CreateTagsCommand({ Resources: [id], Tags: [{ Key, Value: 'v' }] })),
      ).rejects.toMatchObject({
        name: 'InvalidParameterValue',
        message: expect.stringContaining(`'${Key}'`),
      });
    await rig.ec2.send(
      new CreateTagsCommand({ Resources: [id], Tags: [{ Key: 'k'.repeat(127), Value: '' }] }),
    );
    await expect(
      rig.ec2.send(
        new CreateFleetCommand(fleet('tags-2', [{ Key: 'aws:cloudformation:stack', Value: 's' }])),
      ),
    ).rejects.toMatchObject({ name: 'InvalidParameterValue' });
    expect(rig.emulator.world.live()).toHaveLength(1);
  });

  it('lags only the calls faults.unseenBy names: CreateTags sees a new instance DescribeInstances misses', async () => {
    Object.assign(rig.emulator.world.faults, { unseenRequests: 2, unseenBy: ['DescribeInstances'] });
    const id = await launch('lag-1');
    const describe = () => rig.ec2.send(new DescribeInstancesCommand({ InstanceIds: [id] }));
    await rig.ec2.send(new CreateTagsCommand({ Resources: [id], Tags: [{ Key: 'a', Value: '1' }] }));
    await rig.ec2.send(new CreateTagsCommand({ Resources: [id], Tags: [{ Key: 'b', Value: '2' }] }));
    // Two CreateTags went by, but they do not age a lag they do not have: DescribeInstances still misses it twice.
    await expect(describe()).rejects.toMatchObject({ name: 'InvalidInstanceID.NotFound' });
    await expect(describe()).rejects.toMatchObject({ name: 'InvalidInstanceID.NotFound' });
    const out = await describe();
    expect(out.Reservations?.[0]?.Instances?.[0]?.Tags).toEqual(
      expect.arrayContaining([
        { Key: 'a', Value: '1' },
        { Key: 'b', Value: '2' },
      ]),
    );
  });

  it('fails the call after `after` calls of the action went through, once', async () => {
    rig.emulator.world.faults.failNext['CreateFleet'] = {
      code: 'UnauthorizedOperation',
      message: 'You are not authorized to perform this operation.',
      status: 403,
      after: 1,
    };
    await launch('after-1');
    await expect(launch('after-2')).rejects.toMatchObject({ name: 'UnauthorizedOperation' });
    await launch('after-3');
    expect(rig.emulator.world.live()).toHaveLength(2);
  });
});
