// The EC2 adapter never mistakes a failure for an answer, against the stricter emulator through the
// real @aws-sdk/client-ec2: non-capacity fleet errors are fatal even among capacity errors, an empty
// fleet answer is not "no capacity", every Describe pages, a fresh instance EC2 does not know yet is
// retried; and the emulator refuses what EC2 refuses (unknown filters, bad MaxResults/NextToken).
import { uniformGang } from '../../../shared/ports/cloud-provider/index.ts';
import {
  CreateFleetCommand,
  DescribeInstanceTypeOfferingsCommand,
  DescribeInstancesCommand,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  FatalCloudError,
  InsufficientCapacityError,
  InstanceNotFoundError,
  RetryableCloudError,
} from '../../../shared/ports/cloud-provider/errors.ts';
import { claim } from '../../contracts/cloud-provider/contract.ts';
import { ec2NodeClass, startEc2Rig, type Ec2Rig } from './ec2-setup.ts';

const onlyG5 = [
  { key: 'node.kubernetes.io/instance-type', operator: 'In' as const, values: ['g5.xlarge', 'g5.2xlarge'] },
];
const codeOf = (e: unknown): string => (e as { name?: string }).name ?? '';

describe('EC2 adapter against the strict emulator', () => {
  let rig: Ec2Rig;
  beforeAll(async () => {
    rig = await startEc2Rig();
  });
  afterAll(() => rig.close());
  beforeEach(() => rig.reset());
  const launch = async (name: string) =>
    rig.provider.create({
      claim: claim(name, onlyG5),
      nodeClass: ec2NodeClass(),
      instanceTypes: await rig.provider.instanceTypes(ec2NodeClass()),
    });

  it.each([
    ['UnauthorizedOperation', 'You are not authorized to perform this operation.'],
    ['InvalidLaunchTemplateName.NotFoundException', 'The specified launch template does not exist.'],
  ])('surfaces %s as FatalCloudError even when other overrides had no capacity', async (code, message) => {
    const w = rig.emulator.world;
    w.setCapacity('g5.xlarge', 'us-east-1a', 'on-demand', 0);
    w.faults.refuseOverrides = { code, message };
    const err = await launch('refused-1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FatalCloudError);
    expect(err).not.toBeInstanceOf(InsufficientCapacityError);
    expect((err as Error).message).toContain(code);
    expect((err as Error).message).toContain('had no capacity');
  });

  it('surfaces a non-capacity refusal of a gang as fatal too, not as a short fleet', async () => {
    rig.emulator.world.faults.refuseOverrides = { code: 'UnauthorizedOperation', message: 'no iam:PassRole' };
    const types = await rig.provider.instanceTypes(ec2NodeClass());
    const err = await rig.provider
      .createGang(
        uniformGang('ml/train', [claim('g-0', onlyG5), claim('g-1', onlyG5)], ec2NodeClass(), types),
      )
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FatalCloudError);
    expect((err as Error).message).toContain('UnauthorizedOperation');
  });

  it('reads a fleet whose only errors are capacity errors as insufficient capacity, with the offerings', async () => {
    const w = rig.emulator.world;
    for (const t of ['g5.xlarge', 'g5.2xlarge'])
      for (const z of ['us-east-1a', 'us-east-1b']) w.setCapacity(t, z, 'on-demand', 0);
    const err = await launch('ice-1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InsufficientCapacityError);
    expect((err as InsufficientCapacityError).offerings).toHaveLength(4);
  });

  it('does not read an empty CreateFleet answer as insufficient capacity', async () => {
    rig.emulator.world.faults.emptyFleet = true;
    const err = await launch('empty-1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetryableCloudError);
    expect(err).not.toBeInstanceOf(InsufficientCapacityError);
    expect((err as Error).message).toContain('neither instances nor errors');
  });

  it('reports a launch template EC2 cannot find in errorSet, as an instant fleet does', async () => {
    const out = await rig.ec2.send(
      new CreateFleetCommand({
        Type: 'instant',
        LaunchTemplateConfigs: [
          {
            LaunchTemplateSpecification: { LaunchTemplateName: 'nope', Version: '$Latest' },
            Overrides: [{ InstanceType: 'g5.xlarge', SubnetId: rig.emulator.world.subnets[0]?.subnetId }],
          },
        ],
        TargetCapacitySpecification: { TotalTargetCapacity: 1, DefaultTargetCapacityType: 'on-demand' },
      }),
    );
    expect(out.Instances ?? []).toEqual([]);
    expect(out.Errors?.[0]?.ErrorCode).toBe('InvalidLaunchTemplateName.NotFoundException');
  });

  it('reads every page: offerings of every type, every cluster instance', async () => {
    const raw = await rig.ec2.send(
      new DescribeInstanceTypeOfferingsCommand({ LocationType: 'availability-zone' }),
    );
    expect(raw.NextToken).toBeTruthy();
    const types = await rig.provider.instanceTypes(ec2NodeClass());
    for (const t of types)
      expect(new Set(t.offerings.map((o) => o.zone)), t.name).toEqual(new Set(['us-east-1a', 'us-east-1b']));
    expect(types.length).toBeGreaterThan(4);
    const names = ['p-1', 'p-2', 'p-3', 'p-4', 'p-5', 'p-6'];
    for (const n of names)
      await rig.provider.create({ claim: claim(n, onlyG5), nodeClass: ec2NodeClass(), instanceTypes: types });
    expect((await rig.provider.list()).map((i) => i.nodeClaim).sort()).toEqual(names);
  });

  it('refuses MaxResults out of range, a foreign NextToken and unknown filter names with InvalidParameterValue', async () => {
    const fail = (p: Promise<unknown>) =>
      p.then(
        () => 'answered',
        (e: unknown) => e,
      );
    const small = await fail(rig.ec2.send(new DescribeInstanceTypeOfferingsCommand({ MaxResults: 3 })));
    expect(codeOf(small)).toBe('InvalidParameterValue');
    const token = await fail(rig.ec2.send(new DescribeInstancesCommand({ NextToken: 'forged' })));
    expect(codeOf(token)).toBe('InvalidParameterValue');
    const filter = await fail(
      rig.ec2.send(
        new DescribeInstancesCommand({ Filters: [{ Name: 'instance-state', Values: ['running'] }] }),
      ),
    );
    expect(codeOf(filter)).toBe('InvalidParameterValue');
    expect((filter as Error).message).toContain("The filter 'instance-state' is invalid");
  });

  it('terminates as EC2 does: shutting-down first; the adapter treats it as gone and lists it no more', async () => {
    const { instance } = await launch('term-1');
    const id = instance.providerId.split('/').pop() as string;
    const raw = await rig.ec2.send(new TerminateInstancesCommand({ InstanceIds: [id] }));
    expect(raw.TerminatingInstances?.[0]?.CurrentState?.Name).toBe('shutting-down');
    await expect(rig.provider.get(instance.providerId)).rejects.toBeInstanceOf(InstanceNotFoundError);
    expect(await rig.provider.list()).toEqual([]);
    await new Promise((r) => setTimeout(r, 5));
    expect(rig.emulator.world.instances.get(id)?.state).toBe('terminated');
  });

  it('retries an instance EC2 does not know yet right after CreateFleet (eventual consistency)', async () => {
    rig.emulator.world.faults.unseenRequests = 2;
    const types = await rig.provider.instanceTypes(ec2NodeClass());
    const { instance } = await rig.provider.create({
      claim: claim('fresh-1', onlyG5),
      nodeClass: ec2NodeClass(),
      instanceTypes: types,
    });
    const got = await rig.provider.get(instance.providerId);
    expect(got.nodeClaim).toBe('fresh-1');
    expect(rig.sleeps.length).toBeGreaterThan(0);
  });

  it('retries CreateTags on gang members EC2 does not know yet', async () => {
    rig.emulator.world.faults.unseenRequests = 1;
    const types = await rig.provider.instanceTypes(ec2NodeClass());
    const { instances } = await rig.provider.createGang(
      uniformGang('ml/fresh', [claim('fg-0', onlyG5), claim('fg-1', onlyG5)], ec2NodeClass(), types),
    );
    expect(instances.map((i) => i.claim)).toEqual(['fg-0', 'fg-1']);
    const tagged = [...rig.emulator.world.instances.values()]
      .map((i) => i.tags['karpenter.sh/nodeclaim'])
      .sort();
    expect(tagged).toEqual(['fg-0', 'fg-1']);
  });

  it('does not retry a "not found" about an instance it did not just launch', async () => {
    const err = await rig.provider
      .get('aws:///us-east-1a/i-00000000000000dead' as never)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InstanceNotFoundError);
    expect(rig.sleeps).toEqual([]);
  });
});
