// The EC2 adapter under injected faults: throttling retried with backoff, partial fleets cleaned up,
// capacity error codes turned into unavailable offerings, slow calls, a retried gang.
import { uniformGang } from '../../../shared/ports/cloud-provider/index.ts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  InsufficientCapacityError,
  RetryableCloudError,
} from '../../../shared/ports/cloud-provider/errors.ts';
import { claim } from '../../contracts/cloud-provider/contract.ts';
import { ec2NodeClass, startEc2Rig, type Ec2Rig } from './ec2-setup.ts';

describe('EC2 adapter under faults', () => {
  let rig: Ec2Rig;
  beforeAll(async () => {
    rig = await startEc2Rig();
  });
  afterAll(() => rig.close());
  beforeEach(() => rig.reset());
  const onlyG5 = [
    { key: 'node.kubernetes.io/instance-type', operator: 'In' as const, values: ['g5.xlarge', 'g5.2xlarge'] },
  ];

  it('retries throttled calls with backoff and then launches', async () => {
    const types = await rig.provider.instanceTypes(ec2NodeClass());
    rig.emulator.world.faults.throttle = { remaining: 2, action: 'CreateFleet' };
    const { instance } = await rig.provider.create({
      claim: claim('throttled-1', onlyG5),
      nodeClass: ec2NodeClass(),
      instanceTypes: types,
    });
    expect(instance.instanceType).toBe('g5.xlarge');
    expect(rig.emulator.world.calls.filter((c) => c === 'CreateFleet')).toHaveLength(3);
    expect(rig.sleeps).toHaveLength(2);
  });

  it('gives up as RetryableCloudError when throttling outlasts the retries, naming the call', async () => {
    const types = await rig.provider.instanceTypes(ec2NodeClass());
    rig.emulator.world.faults.throttle = { remaining: 10, action: 'CreateFleet' };
    const error = await rig.provider
      .create({ claim: claim('throttled-2', onlyG5), nodeClass: ec2NodeClass(), instanceTypes: types })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetryableCloudError);
    expect((error as Error).message).toContain('EC2 CreateFleet failed: RequestLimitExceeded');
    expect(rig.emulator.world.live()).toHaveLength(0);
  });

  it('terminates a partial fleet that ignored MinTargetCapacity, so a gang leaks nothing', async () => {
    const types = await rig.provider.instanceTypes(ec2NodeClass());
    const w = rig.emulator.world;
    w.faults.ignoreMinTargetCapacity = true;
    for (const z of ['us-east-1a', 'us-east-1b']) w.setCapacity('g5.2xlarge', z, 'on-demand', 0);
    w.setCapacity('g5.xlarge', 'us-east-1a', 'on-demand', 2);
    w.setCapacity('g5.xlarge', 'us-east-1b', 'on-demand', 0);
    const claims = ['p-1', 'p-2', 'p-3'].map((n) => claim(n, onlyG5));
    const error = await rig.provider
      .createGang(uniformGang('ml/partial', claims, ec2NodeClass(), types))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsufficientCapacityError);
    expect(w.calls).toContain('TerminateInstances');
    expect(w.instances.size).toBe(2);
    expect(w.live()).toHaveLength(0);
  });

  it('turns MaxSpotInstanceCountExceeded and UnfulfillableCapacity into unavailable offerings', async () => {
    const types = await rig.provider.instanceTypes(ec2NodeClass());
    const w = rig.emulator.world;
    w.setCapacity('g5.xlarge', 'us-east-1a', 'spot', 0, 'MaxSpotInstanceCountExceeded');
    w.setCapacity('g5.xlarge', 'us-east-1b', 'spot', 0, 'UnfulfillableCapacity');
    const c = claim('spot-ice', onlyG5);
    c.spec.requirements = [
      { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot'] },
      ...onlyG5,
    ];
    const { instance, unavailableOfferings } = await rig.provider.create({
      claim: c,
      nodeClass: ec2NodeClass(),
      instanceTypes: types,
    });
    expect(instance).toMatchObject({ instanceType: 'g5.2xlarge', capacityType: 'spot' });
    expect(unavailableOfferings.map((o) => `${o.zone}:${o.reason}:${o.capacityType}`).sort()).toEqual([
      'us-east-1a:MaxSpotInstanceCountExceeded:spot',
      'us-east-1b:UnfulfillableCapacity:spot',
    ]);
  });

  it('launches through slow EC2 calls', async () => {
    const types = await rig.provider.instanceTypes(ec2NodeClass());
    rig.emulator.world.faults.delayMs = { CreateFleet: 150, DescribeInstances: 50 };
    const { instance } = await rig.provider.create({
      claim: claim('slow-1', onlyG5),
      nodeClass: ec2NodeClass(),
      instanceTypes: types,
    });
    expect(instance.state).toBe('pending');
  });

  it('cleans up a partial gang left by a crashed attempt before launching again', async () => {
    const types = await rig.provider.instanceTypes(ec2NodeClass());
    const claims = ['r-1', 'r-2'].map((n) => claim(n, onlyG5));
    const first = await rig.provider.createGang(uniformGang('ml/crash', claims, ec2NodeClass(), types));
    await rig.provider.delete(first.instances[0]!.instance.providerId);
    await expect(
      rig.provider.createGang(uniformGang('ml/crash', claims, ec2NodeClass(), types)),
    ).rejects.toBeInstanceOf(RetryableCloudError);
    expect(rig.emulator.world.live()).toHaveLength(0);
  });

  it('reports a claim whose offerings are all marked unavailable as insufficient capacity without calling EC2', async () => {
    const types = (await rig.provider.instanceTypes(ec2NodeClass())).map((t) => ({
      ...t,
      offerings: t.offerings.map((o) => ({ ...o, available: false })),
    }));
    const error = await rig.provider
      .create({ claim: claim('none-left', onlyG5), nodeClass: ec2NodeClass(), instanceTypes: types })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsufficientCapacityError);
    expect(rig.emulator.world.calls).not.toContain('CreateFleet');
  });
});
