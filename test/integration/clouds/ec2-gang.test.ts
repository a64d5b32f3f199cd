// Gangs on the EC2 adapter beyond the contract (docs/mechanisms/gangs.md#mixed-shapes): one instant fleet per
// shape, each asking MinTargetCapacity = TotalTargetCapacity = the shape's size on one type in one zone (a fleet
// of one needs no minimum); an empty gang refused as fatal; a later shape's failure, thrown or short, rolls the
// earlier shapes back and carries every shape's refused offerings; partial and empty fleets; the claim and Name
// tags, a Kubeadm gang's join token, and EC2's eventual consistency after the launch; what a crashed attempt left terminated before a retry; a retry whose claim tags never landed
// matches each claim to an instance of its own shape. More retries: ec2-gang-retry.test.ts.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { InstanceTypeSpec } from '../../../shared/model/catalog.ts';
import { uniformGang, type GangLaunchRequest } from '../../../shared/ports/cloud-provider/index.ts';
import {
  FatalCloudError,
  InsufficientCapacityError,
  RetryableCloudError,
} from '../../../shared/ports/cloud-provider/errors.ts';
import { claim } from '../../contracts/cloud-provider/contract.ts';
import { ec2NodeClass, startEc2Rig, type Ec2Rig } from './ec2-setup.ts';

const only = (type: string) => [
  { key: 'node.kubernetes.io/instance-type', operator: 'In' as const, values: [type] },
];

describe('EC2 gangs', () => {
  let rig: Ec2Rig;
  beforeAll(async () => {
    rig = await startEc2Rig();
  });
  afterAll(() => rig?.close());
  let seen = 0;
  beforeEach(() => {
    rig.reset();
    seen = rig.emulator.world.requests.length;
  });
  const fleets = () =>
    rig.emulator.world.requests
      .slice(seen)
      .filter((r) => r.action === 'CreateFleet')
      .map((r) => ({
        min: r.params.get('OnDemandOptions.MinTargetCapacity'),
        total: r.params.get('TargetCapacitySpecification.TotalTargetCapacity'),
        singleType: r.params.get('OnDemandOptions.SingleInstanceType'),
        singleZone: r.params.get('OnDemandOptions.SingleAvailabilityZone'),
      }));

  it('asks one fleet per shape for the whole shape: MinTargetCapacity and the total both its size', async () => {
    const types = await rig.provider.instanceTypes(ec2NodeClass());
    const request: GangLaunchRequest = {
      gang: 'ml/mixed',
      members: [
        { claim: claim('m-master', only('g5.xlarge')), nodeClass: ec2NodeClass(), instanceTypes: types },
        ...['m-w1', 'm-w2', 'm-w3'].map((n) => ({
          claim: claim(n, only('g5.2xlarge')),
          nodeClass: ec2NodeClass(),
          instanceTypes: types,
        })),
      ],
    };
    const { instances } = await rig.provider.createGang(request);
    expect(instances.map((x) => x.instance.instanceType)).toEqual([
      'g5.xlarge',
      'g5.2xlarge',
      'g5.2xlarge',
      'g5.2xlarge',
    ]);
    // The largest shape goes first; a fleet of one is all or nothing without a minimum.
    expect(fleets()).toEqual([
      { min: '3', total: '3', singleType: 'true', singleZone: 'true' },
      { min: undefined, total: '1', singleType: undefined, singleZone: undefined },
    ]);
  });

  /** Two workers on g5.2xlarge (the first shape, refused us-east-1a) and a master on g5.xlarge. */
  const mixed = (
    gang: string,
    types: readonly InstanceTypeSpec[],
    masterTypes: readonly InstanceTypeSpec[] = types,
  ): GangLaunchRequest => ({
    gang,
    members: [
      { claim: claim(`${gang}-m`, only('g5.xlarge')), nodeClass: ec2NodeClass(), instanceTypes: masterTypes },
      ...[1, 2].map((k) => ({
        claim: claim(`${gang}-w${k}`, only('g5.2xlarge')),
        nodeClass: ec2NodeClass(),
        instanceTypes: types,
      })),
    ],
  });
  const workersRefused = {
    instanceType: 'g5.2xlarge',
    zone: 'us-east-1a',
    capacityType: 'on-demand',
    reason: 'InsufficientInstanceCapacity',
  };

  it('fails a gang whose later shape has no offering left with every shape refused offerings, rolled back', async () => {
    const types = await rig.provider.instanceTypes(ec2NodeClass());
    rig.emulator.world.setCapacity('g5.2xlarge', 'us-east-1a', 'on-demand', 0);
    // The master's offerings are all cached as unavailable: its launch throws before any CreateFleet.
    const gone = types.map((t) => ({
      ...t,
      offerings: t.offerings.map((o) => ({ ...o, available: false })),
    }));
    const error = await rig.provider.createGang(mixed('ml/none-left', types, gone)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsufficientCapacityError);
    expect((error as InsufficientCapacityError).offerings).toEqual([workersRefused]);
    // The master's own refusal is kept as the cause.
    expect((error as Error).cause).toBeInstanceOf(InsufficientCapacityError);
    expect((error as Error).message).toContain('no available offering');
    expect(fleets()).toHaveLength(1);
    expect(rig.emulator.world.live()).toEqual([]);
  });

  it('rolls the earlier shapes back when a later shape CreateFleet is refused outright, the error as EC2 gave it', async () => {
    const types = await rig.provider.instanceTypes(ec2NodeClass());
    rig.emulator.world.setCapacity('g5.2xlarge', 'us-east-1a', 'on-demand', 0);
    rig.emulator.world.faults.failNext['CreateFleet'] = {
      code: 'UnauthorizedOperation',
      message: 'You are not authorized to perform this operation.',
      status: 403,
      after: 1,
    };
    const error = await rig.provider.createGang(mixed('ml/refused', types)).catch((e: unknown) => e);
    // Not a lack of capacity (the workers' refused offering must not turn it into one): a broken account.
    expect(error).toBeInstanceOf(FatalCloudError);
    expect((error as Error).message).toContain('UnauthorizedOperation');
    expect(fleets()).toHaveLength(2);
    expect(rig.emulator.world.instances.size).toBe(2);
    expect(rig.emulator.world.live()).toEqual([]);
  });

  it('answers each claim with its own instance, tagged with its name, and the offerings refused on the way', async () => {
    const types = await rig.provider.instanceTypes(ec2NodeClass());
    const clean = await rig.provider.createGang(mixed('ml/clean', types));
    expect(clean.unavailableOfferings).toEqual([]);
    expect(clean.instances.map((x) => [x.claim, x.instance.nodeClaim])).toEqual(
      ['ml/clean-m', 'ml/clean-w1', 'ml/clean-w2'].map((n) => [n, n]),
    );
    // Named for the console after the NodePool and the gang.
    expect([...rig.emulator.world.instances.values()].map((i) => i.tags['Name'])).toEqual([
      'gpu/ml/clean',
      'gpu/ml/clean',
      'gpu/ml/clean',
    ]);
    rig.reset();
    rig.emulator.world.setCapacity('g5.2xlarge', 'us-east-1a', 'on-demand', 0);
    const request = mixed('ml/refusals', types);
    const first = await rig.provider.createGang(request);
    expect(first.unavailableOfferings).toEqual([workersRefused]);
    expect(first.instances.map((x) => x.instance.zone)).toEqual(['us-east-1b', 'us-east-1b', 'us-east-1b']);
    // A retry finds the whole gang: nothing launched, so nothing refused this time.
    const again = await rig.provider.createGang(request);
    expect(again.instances).toEqual(
      first.instances.map((x) => ({
        ...x,
        instance: expect.objectContaining({ providerId: x.instance.providerId }),
      })),
    );
    expect(again.unavailableOfferings).toEqual([]);
  });

  it('fails a later shape that comes up empty with every shape refused offerings, naming the shape', async () => {
    const types = await rig.provider.instanceTypes(ec2NodeClass());
    rig.emulator.world.setCapacity('g5.2xlarge', 'us-east-1a', 'on-demand', 0);
    for (const zone of ['us-east-1a', 'us-east-1b'])
      rig.emulator.world.setCapacity('g5.xlarge', zone, 'on-demand', 0);
    const error = await rig.provider.createGang(mixed('ml/short', types)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsufficientCapacityError);
    expect((error as Error).message).toBe(
      'gang ml/short, shape 2 (1 × NodePool gpu): no offering had capacity',
    );
    const master = { ...workersRefused, instanceType: 'g5.xlarge' };
    expect((error as InsufficientCapacityError).offerings).toEqual([
      workersRefused,
      { ...master, zone: 'us-east-1b' },
      master,
    ]);
    expect(rig.emulator.world.live()).toEqual([]);
  });

  it('reads a fleet EC2 filled only in part as a shortfall, and an answer with neither instances nor errors as none', async () => {
    const types = await rig.provider.instanceTypes(ec2NodeClass());
    const pair = (gang: string) =>
      uniformGang(
        gang,
        [1, 2].map((k) => claim(`${gang}-${k}`, only('g5.xlarge'))),
        ec2NodeClass(),
        types,
      );
    const w = rig.emulator.world;
    // A partial fleet (what an EC2 ignoring MinTargetCapacity would leave): one of two, no error given.
    w.faults.ignoreMinTargetCapacity = true;
    w.setCapacity('g5.xlarge', 'us-east-1a', 'on-demand', 1);
    w.setCapacity('g5.xlarge', 'us-east-1b', 'on-demand', 0);
    const partial = await rig.provider.createGang(pair('ml/partial')).catch((e: unknown) => e);
    expect(partial).toBeInstanceOf(InsufficientCapacityError);
    expect((partial as Error).message).toBe(
      'gang ml/partial, shape 1 (2 × NodePool gpu): EC2 launched 1 of 2',
    );
    expect((partial as Error).cause).toBeInstanceOf(RetryableCloudError);
    expect(w.live()).toEqual([]);
    // The same, with the other zone refused for a reason that is not capacity: that reason decides. (Once the
    // rollback's termination has given its capacity back, so it cannot land on the capacity set below.)
    await expect.poll(() => [...w.instances.values()].every((i) => i.state === 'terminated')).toBe(true);
    rig.reset();
    w.faults.ignoreMinTargetCapacity = true;
    w.setCapacity('g5.xlarge', 'us-east-1a', 'on-demand', 0, 'Unsupported');
    w.setCapacity('g5.xlarge', 'us-east-1b', 'on-demand', 1);
    const unsupported = await rig.provider.createGang(pair('ml/unsupported')).catch((e: unknown) => e);
    expect(unsupported).toBeInstanceOf(FatalCloudError);
    expect((unsupported as Error).message).toContain('CreateFleet refused with Unsupported');
    expect(w.live()).toEqual([]);
    await expect.poll(() => [...w.instances.values()].every((i) => i.state === 'terminated')).toBe(true);
    // No instances and no errors is no answer: retryable, not a lack of capacity.
    rig.reset();
    w.faults.emptyFleet = true;
    const empty = await rig.provider.createGang(pair('ml/empty-answer')).catch((e: unknown) => e);
    expect(empty).toBeInstanceOf(RetryableCloudError);
    expect(empty).not.toBeInstanceOf(InsufficientCapacityError);
  });

  it('names a gang without a NodePool after kraftsman, and says so when it falls short', async () => {
    const types = await rig.provider.instanceTypes(ec2NodeClass());
    const poolless = (gang: string) =>
      uniformGang(
        gang,
        [1, 2].map((k) => {
          const c = claim(`${gang}-${k}`, only('g5.xlarge'));
          return { ...c, metadata: { ...c.metadata, labels: {} } };
        }),
        ec2NodeClass(),
        types,
      );
    await rig.provider.createGang(poolless('ml/poolless'));
    expect(new Set([...rig.emulator.world.instances.values()].map((i) => i.tags['Name']))).toEqual(
      new Set(['kraftsman/ml/poolless']),
    );
    for (const zone of ['us-east-1a', 'us-east-1b'])
      rig.emulator.world.setCapacity('g5.xlarge', zone, 'on-demand', 0);
    const error = await rig.provider.createGang(poolless('ml/poolless-short')).catch((e: unknown) => e);
    expect((error as Error).message).toContain('gang ml/poolless-short, shape 1 (2 × NodePool ?)');
  });

  it('hands a Kubeadm gang its join token: every member joins with it', async () => {
    const nodeClass = ec2NodeClass({
      amiFamily: 'Kubeadm',
      bootstrap: { apiServerEndpoint: 'https://10.0.0.1:6443', caCertHash: `sha256:${'0'.repeat(64)}` },
    });
    const types = await rig.provider.instanceTypes(nodeClass);
    await rig.provider.createGang({
      ...uniformGang(
        'ml/kubeadm',
        [claim('k-1', only('g5.xlarge')), claim('k-2', only('g5.xlarge'))],
        nodeClass,
        types,
      ),
      join: { id: 'abcdef', secret: '0123456789abcdef' },
    });
    const userData = [...rig.emulator.world.instances.values()].map((i) =>
      Buffer.from(i.userData ?? '', 'base64').toString('utf8'),
    );
    expect(userData).toHaveLength(2);
    for (const u of userData) expect(u).toContain("export KRAFTSMAN_JOIN_TOKEN='abcdef.0123456789abcdef'");
  });

  it('keeps its instances retried while DescribeInstances lags behind the launch, after CreateTags landed', async () => {
    const types = await rig.provider.instanceTypes(ec2NodeClass());
    Object.assign(rig.emulator.world.faults, { unseenRequests: 3, unseenBy: ['DescribeInstances'] });
    const { instances } = await rig.provider.createGang(
      uniformGang(
        'ml/lagging',
        ['l-1', 'l-2'].map((n) => claim(n, only('g5.xlarge'))),
        ec2NodeClass(),
        types,
      ),
    );
    // One DescribeInstances went by (is the fleet already dead?); the next two still miss the instance, and the
    // provider reads that as the lag because it launched the instance a moment ago, not as "gone".
    const got = await rig.provider.get(instances[0]!.instance.providerId);
    expect(got.nodeClaim).toBe('l-1');
    expect(rig.sleeps.length).toBeGreaterThan(0);
  });

  it('names CreateTags when the claim tag never lands on an instance EC2 keeps missing', async () => {
    const types = await rig.provider.instanceTypes(ec2NodeClass());
    Object.assign(rig.emulator.world.faults, { unseenRequests: 50, unseenBy: ['CreateTags'] });
    const error = await rig.provider
      .createGang(uniformGang('ml/untaggable', [claim('t-1', only('g5.xlarge'))], ec2NodeClass(), types))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain('CreateTags');
  });

  it('refuses a gang with no members as fatal, naming it, without calling EC2', async () => {
    const error = await rig.provider.createGang({ gang: 'ml/empty', members: [] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FatalCloudError);
    expect((error as Error).message).toContain('gang ml/empty has no NodeClaims');
    expect(fleets()).toEqual([]);
  });

  it('terminates what a crashed attempt left of a gang and asks for a retry', async () => {
    const types = await rig.provider.instanceTypes(ec2NodeClass());
    const request = uniformGang(
      'ml/crash',
      ['c-1', 'c-2'].map((n) => claim(n, only('g5.xlarge'))),
      ec2NodeClass(),
      types,
    );
    const first = await rig.provider.createGang(request);
    await rig.provider.delete(first.instances[0]!.instance.providerId);
    const error = await rig.provider.createGang(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetryableCloudError);
    expect((error as Error).message).toContain('terminated 1 of 2 instances left by an earlier attempt');
    expect(rig.emulator.world.live()).toHaveLength(0);
  });

  it('launches a new gang on the retry after that cleanup, not the dead fleet its client token names', async () => {
    const types = await rig.provider.instanceTypes(ec2NodeClass());
    const request = uniformGang(
      'ml/relaunch',
      ['r-1', 'r-2'].map((n) => claim(n, only('g5.xlarge'))),
      ec2NodeClass(),
      types,
    );
    const first = await rig.provider.createGang(request);
    await rig.provider.delete(first.instances[0]!.instance.providerId);
    await expect(rig.provider.createGang(request)).rejects.toBeInstanceOf(RetryableCloudError);
    // EC2 answers a repeated CreateFleet client token with that fleet's instances, terminated now: the retry must
    // ask for a new fleet, and return only live instances.
    const retry = await rig.provider.createGang(request);
    const ids = (r: typeof first) => r.instances.map((x) => x.instance.providerId);
    for (const id of ids(retry)) expect(ids(first)).not.toContain(id);
    expect(
      rig.emulator.world
        .live()
        .map((i) => i.instanceId)
        .sort(),
    ).toEqual(
      ids(retry)
        .map((p) => p.split('/').pop())
        .sort(),
    );
    // The retry of that retry is idempotent again: the same live gang.
    expect(ids(await rig.provider.createGang(request))).toEqual(ids(retry));
  });

  it('finds the whole gang on a retry whose claim tags never landed, each claim an instance of its own shape', async () => {
    const types = await rig.provider.instanceTypes(ec2NodeClass());
    const request: GangLaunchRequest = {
      gang: 'ml/untagged',
      members: [
        { claim: claim('u-master', only('g5.xlarge')), nodeClass: ec2NodeClass(), instanceTypes: types },
        ...['u-w1', 'u-w2'].map((n) => ({
          claim: claim(n, only('g5.2xlarge')),
          nodeClass: ec2NodeClass(),
          instanceTypes: types,
        })),
      ],
    };
    const first = await rig.provider.createGang(request);
    // The CreateTags after the fleet never landed (the Lambda timed out): no instance names its claim.
    for (const i of rig.emulator.world.instances.values()) delete i.tags['karpenter.sh/nodeclaim'];
    const again = await rig.provider.createGang(request);
    const typeOf = (r: typeof first) => r.instances.map((x) => [x.claim, x.instance.instanceType]);
    expect(typeOf(again)).toEqual(typeOf(first));
    expect(new Set(again.instances.map((x) => x.instance.providerId))).toEqual(
      new Set(first.instances.map((x) => x.instance.providerId)),
    );
    expect(rig.emulator.world.live()).toHaveLength(3);
  });
});
