// The emulators' idempotency, driven through the real SDK clients: EC2 ClientToken (same request →
// same answer, different request → IdempotentParameterMismatch) and Compute Engine requestId.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CreateFleetCommand,
  CreateLaunchTemplateCommand,
  type CreateFleetCommandInput,
} from '@aws-sdk/client-ec2';
import { startEc2Rig, type Ec2Rig } from './ec2-setup.ts';
import { startGceRig, type GceRig } from './gce-setup.ts';

/** A body Compute Engine accepts for a G2: a boot disk, and TERMINATE on maintenance (its GPU cannot migrate). */
const G2_BODY = {
  machineType: 'zones/us-central1-a/machineTypes/g2-standard-4',
  disks: [{ boot: true, initializeParams: { diskType: 'zones/us-central1-a/diskTypes/pd-balanced' } }],
  scheduling: { onHostMaintenance: 'TERMINATE' },
};

describe('EC2 emulator ClientToken', () => {
  let rig: Ec2Rig;
  beforeAll(async () => {
    rig = await startEc2Rig();
    await rig.ec2.send(
      new CreateLaunchTemplateCommand({
        LaunchTemplateName: 'lt-idem',
        LaunchTemplateData: { ImageId: 'ami-0gpu20261101' },
      }),
    );
  });
  afterAll(() => rig.close());

  const fleet = (token: string, type: 'g5.xlarge' | 'g5.2xlarge'): CreateFleetCommandInput => ({
    Type: 'instant',
    ClientToken: token,
    LaunchTemplateConfigs: [
      {
        LaunchTemplateSpecification: { LaunchTemplateName: 'lt-idem', Version: '$Latest' },
        Overrides: [{ InstanceType: type, SubnetId: 'subnet-us-east-1a' }],
      },
    ],
    TargetCapacitySpecification: { TotalTargetCapacity: 1, DefaultTargetCapacityType: 'on-demand' },
  });

  it('answers a repeated request with the same instances and launches nothing new', async () => {
    const first = await rig.ec2.send(new CreateFleetCommand(fleet('tok-1', 'g5.xlarge')));
    const again = await rig.ec2.send(new CreateFleetCommand(fleet('tok-1', 'g5.xlarge')));
    expect(again.Instances?.[0]?.InstanceIds).toEqual(first.Instances?.[0]?.InstanceIds);
    expect(rig.emulator.world.live()).toHaveLength(1);
  });

  it('refuses a different request under a used token', async () => {
    await expect(rig.ec2.send(new CreateFleetCommand(fleet('tok-1', 'g5.2xlarge')))).rejects.toMatchObject({
      name: 'IdempotentParameterMismatch',
    });
  });
});

describe('Compute Engine emulator requestId', () => {
  let rig: GceRig;
  beforeAll(async () => {
    rig = await startGceRig();
  });
  afterAll(() => rig.close());

  it('returns the first operation for a repeated requestId and creates one instance', async () => {
    const request = {
      project: 'kraftsman-test',
      zone: 'us-central1-a',
      requestId: '3f2b9c1e-0d4a-4f6b-9a8e-1c2d3e4f5a6b',
      instanceResource: { name: 'idem-1', ...G2_BODY },
    };
    const [first] = await rig.clients.instances.insert(request);
    const [again] = await rig.clients.instances.insert(request);
    expect((again.latestResponse as { name?: string }).name).toBe(
      (first.latestResponse as { name?: string }).name,
    );
    expect(rig.emulator.world.live().map((i) => i.name)).toEqual(['idem-1']);
  });

  it('refuses a second instance of the same name with alreadyExists', async () => {
    const error = await rig.clients.instances
      .insert({
        project: 'kraftsman-test',
        zone: 'us-central1-a',
        instanceResource: { name: 'idem-1', ...G2_BODY },
      })
      .catch((e: unknown) => e);
    expect(String((error as Error).message)).toContain('alreadyExists');
  });
});
