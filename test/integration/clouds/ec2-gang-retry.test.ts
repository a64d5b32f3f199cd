// Retries of an EC2 gang (docs/mechanisms/gangs.md#mixed-shapes): the client tokens that keep a retry idempotent
// and a re-created gang new, the dead fleets a token names after a cleanup, and how a retry matches the instances
// it finds to the gang's claims (by claim tag, else by shape). The first launches: ec2-gang.test.ts.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { InstanceTypeSpec } from '../../../shared/model/catalog.ts';
import type { NodeClaim } from '../../../shared/model/nodeclaim.ts';
import {
  uniformGang,
  type GangLaunchRequest,
  type GangLaunchResult,
} from '../../../shared/ports/cloud-provider/index.ts';
import { RetryableCloudError } from '../../../shared/ports/cloud-provider/errors.ts';
import { claim } from '../../contracts/cloud-provider/contract.ts';
import { ec2NodeClass, startEc2Rig, type Ec2Rig } from './ec2-setup.ts';

const only = (type: string) => [
  { key: 'node.kubernetes.io/instance-type', operator: 'In' as const, values: [type] },
];
const ids = (r: GangLaunchResult) => r.instances.map((x) => x.instance.providerId);
const byClaim = (r: GangLaunchResult) => r.instances.map((x) => [x.claim, x.instance.providerId]);

describe('EC2 gang retries', () => {
  let rig: Ec2Rig;
  let types: readonly InstanceTypeSpec[];
  beforeAll(async () => {
    rig = await startEc2Rig();
    types = await rig.provider.instanceTypes(ec2NodeClass());
  });
  afterAll(() => rig?.close());
  beforeEach(() => rig.reset());
  const world = () => rig.emulator.world;
  const liveIds = () =>
    world()
      .live()
      .map((i) => i.instanceId)
      .sort();
  const instanceIds = (r: GangLaunchResult) =>
    ids(r)
      .map((p) => p.split('/').pop())
      .sort();
  const member = (c: NodeClaim) => ({ claim: c, nodeClass: ec2NodeClass(), instanceTypes: types });
  /** A worker shape of two and a master, both on g5.xlarge: only their labels tell the shapes apart. */
  const sameTypes = (gang: string): GangLaunchRequest => {
    const labelled = (name: string, role: string): NodeClaim => {
      const c = claim(name, only('g5.xlarge'));
      return { ...c, metadata: { ...c.metadata, labels: { ...c.metadata.labels, role } } };
    };
    return {
      gang,
      members: [
        member(labelled(`${gang}-m`, 'master')),
        member(labelled(`${gang}-w1`, 'worker')),
        member(labelled(`${gang}-w2`, 'worker')),
      ],
    };
  };
  /** A crash between CreateFleet and the end of the launch: one instance gone, the retry cleans the rest up. */
  const crashAndCleanUp = async (request: GangLaunchRequest, launched: GangLaunchResult): Promise<void> => {
    await rig.provider.delete(launched.instances[0]!.instance.providerId);
    await expect(rig.provider.createGang(request)).rejects.toBeInstanceOf(RetryableCloudError);
    expect(world().live()).toEqual([]);
  };

  it('relaunches every shape of a mixed gang after a cleanup, each under a token of its own', async () => {
    const request: GangLaunchRequest = {
      gang: 'ml/mixed-relaunch',
      members: [
        member(claim('mr-m', only('g5.xlarge'))),
        ...['mr-w1', 'mr-w2'].map((n) => member(claim(n, only('g5.2xlarge')))),
      ],
    };
    const first = await rig.provider.createGang(request);
    await crashAndCleanUp(request, first);
    const retry = await rig.provider.createGang(request);
    expect(retry.instances.map((x) => x.instance.instanceType)).toEqual([
      'g5.xlarge',
      'g5.2xlarge',
      'g5.2xlarge',
    ]);
    for (const id of ids(retry)) expect(ids(first)).not.toContain(id);
    expect(liveIds()).toEqual(instanceIds(retry));
  });

  it('follows a chain of dead fleets up to its limit, and then asks for a retry instead of returning dead instances', async () => {
    const request = uniformGang(
      'ml/chain',
      ['ch-1', 'ch-2'].map((n) => claim(n, only('g5.xlarge'))),
      ec2NodeClass(),
      types,
    );
    let launched = await rig.provider.createGang(request);
    // Each crash and cleanup leaves one more dead fleet before a live one: three are stepped past.
    for (let cycle = 1; cycle <= 3; cycle++) {
      await crashAndCleanUp(request, launched);
      launched = await rig.provider.createGang(request);
      expect(liveIds()).toEqual(instanceIds(launched));
    }
    await crashAndCleanUp(request, launched);
    const error = await rig.provider.createGang(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetryableCloudError);
    expect((error as Error).message).toContain(
      'gang ml/chain, shape 1: EC2 answered 4 client tokens in a row',
    );
    expect(world().live()).toEqual([]);
  });

  it('launches a gang re-created under the same claim names anew, even while EC2 does not list the old one yet', async () => {
    Object.assign(world().faults, { unseenRequests: 50, unseenBy: ['DescribeInstances'] });
    const names = ['rc-1', 'rc-2'];
    const gang = () =>
      uniformGang(
        'ml/recreated',
        names.map((n) => claim(n, only('g5.xlarge'))),
        ec2NodeClass(),
        types,
      );
    const old = await rig.provider.createGang(gang());
    // The claims were deleted and created again (new uids): their client tokens differ, so EC2 launches a new
    // fleet instead of answering with the old one's instances.
    const renewed = await rig.provider.createGang(gang());
    for (const id of ids(renewed)) expect(ids(old)).not.toContain(id);
    expect(world().live()).toHaveLength(4);
  });

  it('matches a retry by claim tag where it landed and by shape where it did not, for shapes of one type', async () => {
    const request = sameTypes('ml/same');
    const first = await rig.provider.createGang(request);
    // The Lambda timed out among the CreateTags: only the first worker's tag landed.
    const untag = new Set(['ml/same-m', 'ml/same-w2']);
    for (const i of world().instances.values())
      if (untag.has(i.tags['karpenter.sh/nodeclaim'] ?? '')) delete i.tags['karpenter.sh/nodeclaim'];
    const again = await rig.provider.createGang(request);
    // The master is the only member of its shape: its instance is the one launched for it, whatever the type.
    expect(byClaim(again)).toEqual(byClaim(first));
    expect(world().live()).toHaveLength(3);
  });

  it('asks for a retry naming the member that has no instance of its shape, never one of another shape', async () => {
    const request = sameTypes('ml/remaster');
    await rig.provider.createGang(request);
    // The workers' claim tags never landed; the master was re-created under a new name while the old master's
    // instance (tagged with the old name) lives on.
    for (const i of world().instances.values())
      if (i.tags['karpenter.sh/nodeclaim'] !== 'ml/remaster-m') delete i.tags['karpenter.sh/nodeclaim'];
    const [old, ...workers] = request.members;
    const c = old!.claim;
    const master = {
      ...old!,
      claim: { ...c, metadata: { ...c.metadata, name: 'ml/remaster-m2', uid: 'uid-m2' } },
    };
    const error = await rig.provider
      .createGang({ ...request, members: [master, ...workers] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetryableCloudError);
    expect((error as Error).message).toBe('gang ml/remaster: no instance found for NodeClaim ml/remaster-m2');
  });

  it('asks for a retry, naming the claim, when the gang instances found belong to other claims', async () => {
    const first = await rig.provider.createGang(
      uniformGang(
        'ml/renamed',
        ['old-1', 'old-2'].map((n) => claim(n, only('g5.xlarge'))),
        ec2NodeClass(),
        types,
      ),
    );
    const error = await rig.provider
      .createGang(
        uniformGang(
          'ml/renamed',
          ['new-1', 'new-2'].map((n) => claim(n, only('g5.xlarge'))),
          ec2NodeClass(),
          types,
        ),
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetryableCloudError);
    expect((error as Error).message).toBe('gang ml/renamed: no instance found for NodeClaim new-1');
    // The old claims' instances are theirs: left alone.
    expect(liveIds()).toEqual(instanceIds(first));
  });
});
