// Instance profiles for EC2NodeClass spec.role (docs/mechanisms/instance-profiles.md), against the IAM and EC2
// emulators through the real SDK clients: Karpenter's name, path and tags, the role made the profile's only one,
// spec.instanceProfile used as given, no launch without a profile, IAM's propagation lag retried, and garbage
// collection that deletes only what it proved is this cluster's.
import {
  AddRoleToInstanceProfileCommand,
  CreateInstanceProfileCommand,
  type IAMClient,
} from '@aws-sdk/client-iam';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createIamClient } from '../../../shared/adapters/aws-ec2/clients.ts';
import {
  InstanceProfiles,
  instanceProfileName,
  instanceProfilePath,
} from '../../../shared/adapters/aws-ec2/instance-profiles.ts';
import { parseEc2ProviderConfig } from '../../../shared/config/aws-ec2.ts';
import { neededProfiles } from '../../../shared/loop/instance-profile-gc.ts';
import { FatalCloudError, RetryableCloudError } from '../../../shared/ports/cloud-provider/errors.ts';
import type { ClusterObjects } from '../../../shared/state/objects.ts';
import { claim } from '../../contracts/cloud-provider/contract.ts';
import { credentials, ec2NodeClass, startEc2Rig, type Ec2Rig } from './ec2-setup.ts';

const ROLE = 'KraftsmanNodeRole';
const roleClass = (name = 'gpu', role = ROLE) => {
  const nc = ec2NodeClass({ role, instanceProfile: undefined, tags: { team: 'ml' } });
  delete nc.spec.instanceProfile;
  return { ...nc, metadata: { name } };
};

describe('instance profiles for spec.role', () => {
  let rig: Ec2Rig;
  let iam: IAMClient;
  beforeAll(async () => {
    rig = await startEc2Rig({ iam: { roles: [ROLE, 'OtherRole'] } });
    iam = createIamClient(parseEc2ProviderConfig({ clusterName: 'test', region: 'us-east-1' }), {
      endpoint: rig.iam?.endpoint ?? '',
      credentials,
    });
  });
  afterAll(async () => {
    iam.destroy();
    await rig.close();
  });
  beforeEach(() => {
    rig.reset();
    rig.emulator.world.requests.length = 0;
    const w = rig.iam!.world;
    w.profiles.clear();
    w.calls.length = 0;
    w.propagation = {};
  });
  const launch = async (name: string, nodeClass = roleClass()) =>
    rig.provider.create({
      claim: claim(name),
      nodeClass,
      instanceTypes: await rig.provider.instanceTypes(nodeClass),
    });

  it('hashes names with FNV-1a 64 as Karpenter does: <cluster>_<hash(region + node class)>', () => {
    // FNV-1a 64 test vectors: "" → 0xcbf29ce484222325, "a" → 0xaf63dc4c8601ec8c.
    expect(instanceProfileName('c', '', '')).toBe(`c_${0xcbf29ce484222325n.toString(10)}`);
    expect(instanceProfileName('c', 'a', '')).toBe(`c_${0xaf63dc4c8601ec8cn.toString(10)}`);
    expect(instanceProfileName('c', 'us-east-1', 'gpu')).toBe(instanceProfileName('c', 'us-east-', '1gpu'));
    expect(instanceProfileName('c', 'us-east-1', 'gpu')).not.toBe(
      instanceProfileName('c', 'us-east-1', 'cpu'),
    );
  });

  it('creates the profile with Karpenter’s name, path and tags, gives it the role, and launches with it', async () => {
    const { instance } = await launch('p-1', roleClass('gpu'));
    const name = instanceProfileName('test', 'us-east-1', 'gpu');
    const profile = rig.iam!.world.profiles.get(name);
    expect(profile).toMatchObject({ path: '/karpenter/us-east-1/test/', roles: [ROLE] });
    expect(profile?.tags).toEqual({
      team: 'ml',
      'kubernetes.io/cluster/test': 'owned',
      'eks:eks-cluster-name': 'test',
      'karpenter.k8s.aws/ec2nodeclass': 'gpu',
      'topology.kubernetes.io/region': 'us-east-1',
    });
    const template = [...rig.emulator.world.launchTemplates.values()].find((t) => t.instanceProfile === name);
    expect(template, 'the launch template names the profile').toBeDefined();
    expect(rig.emulator.world.instances.get(instance.providerId.split('/').pop() ?? '')).toBeDefined();
  });

  it('is idempotent: a warm launcher asks IAM nothing more, a cold one only reads the profile', async () => {
    await launch('p-1', roleClass('warm'));
    rig.iam!.world.calls.length = 0;
    await launch('p-2', roleClass('warm'));
    expect(rig.iam!.world.calls).toEqual([]);
    const cold = await startEc2Rig({ iam: { roles: [ROLE] } });
    try {
      // The cold rig's IAM holds the profile already (made by "another launcher").
      const w = cold.iam!.world;
      const name = instanceProfileName('test', 'us-east-1', 'warm');
      const made = rig.iam!.world.profiles.get(name)!;
      w.profiles.set(name, { ...made, roles: [...made.roles], tags: { ...made.tags }, unseenLaunches: 0 });
      await cold.provider.create({
        claim: claim('p-3'),
        nodeClass: roleClass('warm'),
        instanceTypes: await cold.provider.instanceTypes(roleClass('warm')),
      });
      expect(w.calls).toEqual(['GetInstanceProfile']);
    } finally {
      await cold.close();
    }
  });

  it('replaces a different role with the node class’s (a profile holds one role)', async () => {
    const name = instanceProfileName('test', 'us-east-1', 'swap');
    await iam.send(
      new CreateInstanceProfileCommand({
        InstanceProfileName: name,
        Path: instanceProfilePath('us-east-1', 'test'),
      }),
    );
    await iam.send(new AddRoleToInstanceProfileCommand({ InstanceProfileName: name, RoleName: 'OtherRole' }));
    rig.iam!.world.calls.length = 0;
    await launch('p-1', roleClass('swap'));
    expect(rig.iam!.world.profiles.get(name)?.roles).toEqual([ROLE]);
    expect(rig.iam!.world.calls).toEqual([
      'GetInstanceProfile',
      'RemoveRoleFromInstanceProfile',
      'AddRoleToInstanceProfile',
    ]);
  });

  it('refuses a role IAM does not have, naming it, and launches nothing', async () => {
    await expect(launch('p-1', roleClass('norole', 'MissingRole'))).rejects.toThrow(
      /role MissingRole does not exist/,
    );
    expect(rig.emulator.world.calls).not.toContain('CreateFleet');
  });

  it('uses spec.instanceProfile as given, with no IAM call', async () => {
    const nodeClass = ec2NodeClass({ instanceProfile: 'TeamProfile' });
    rig.iam!.world.addRole('unused');
    rig.iam!.world.profiles.set('TeamProfile', {
      name: 'TeamProfile',
      id: 'AIPA1',
      path: '/',
      createDate: new Date(0),
      roles: ['unused'],
      tags: {},
      changedAt: 0,
      unseenLaunches: 0,
    });
    await launch('p-1', nodeClass);
    expect(rig.iam!.world.calls).toEqual([]);
    expect([...rig.emulator.world.launchTemplates.values()].map((t) => t.instanceProfile)).toContain(
      'TeamProfile',
    );
  });

  it('never launches without a profile: both or neither field is refused before any EC2 launch call', async () => {
    const neither = ec2NodeClass();
    delete neither.spec.instanceProfile;
    const both = ec2NodeClass({ role: ROLE, instanceProfile: 'TeamProfile' });
    for (const [nodeClass, text] of [
      [neither, /neither spec.role nor spec.instanceProfile/],
      [both, /spec.role and spec.instanceProfile are both set/],
    ] as const) {
      rig.emulator.world.calls.length = 0;
      const err = await launch('p-x', nodeClass).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(FatalCloudError);
      expect(String(err)).toMatch(text);
      expect(rig.emulator.world.calls).not.toContain('CreateFleet');
    }
  });

  it('launches again while IAM propagates a new profile, under a new client token each time', async () => {
    rig.iam!.world.propagation = { launches: 2 };
    const { instance } = await launch('p-1', roleClass('lagging'));
    expect(instance.nodeClaim).toBe('p-1');
    const tokens = rig.emulator.world.requests
      .filter((r) => r.action === 'CreateFleet')
      .map((r) => r.params.get('ClientToken'));
    expect(tokens).toHaveLength(3);
    expect(new Set(tokens).size).toBe(3);
    expect(rig.sleeps.length).toBeGreaterThanOrEqual(2);
  });

  it('gives up retryably when the profile stays invisible, and fatally for a spec.instanceProfile EC2 cannot find', async () => {
    rig.iam!.world.propagation = { launches: 100 };
    await expect(launch('p-1', roleClass('stuck'))).rejects.toBeInstanceOf(RetryableCloudError);
    const missing = ec2NodeClass({ instanceProfile: 'NoSuchProfile' });
    const err = await launch('p-2', missing).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FatalCloudError);
    expect(String(err)).toMatch(/instance profile NoSuchProfile \(spec.instanceProfile\) not found/);
  });
});

describe('instance profile garbage collection', () => {
  let rig: Ec2Rig;
  let iam: IAMClient;
  let profiles: InstanceProfiles;
  const now = new Date('2026-12-07T12:00:00Z');
  beforeAll(async () => {
    rig = await startEc2Rig({ iam: { roles: [ROLE] }, now: () => new Date('2026-12-01T00:00:00Z') });
    iam = createIamClient(parseEc2ProviderConfig({ clusterName: 'test', region: 'us-east-1' }), {
      endpoint: rig.iam?.endpoint ?? '',
      credentials,
    });
    profiles = new InstanceProfiles(
      iam,
      { clusterName: 'test', region: 'us-east-1', now: () => now.getTime() },
      (_w, op) => op(),
    );
  });
  afterAll(async () => {
    iam.destroy();
    await rig.close();
  });

  const make = async (
    name: string,
    tags: Record<string, string>,
    path = instanceProfilePath('us-east-1', 'test'),
  ) => {
    await iam.send(
      new CreateInstanceProfileCommand({
        InstanceProfileName: name,
        Path: path,
        Tags: Object.entries(tags).map(([Key, Value]) => ({ Key, Value })),
      }),
    );
    await iam.send(new AddRoleToInstanceProfileCommand({ InstanceProfileName: name, RoleName: ROLE }));
  };
  const tagsFor = (nodeClass: string, cluster = 'test') => ({
    [`kubernetes.io/cluster/${cluster}`]: 'owned',
    'eks:eks-cluster-name': cluster,
    'karpenter.k8s.aws/ec2nodeclass': nodeClass,
    'topology.kubernetes.io/region': 'us-east-1',
  });

  it('deletes the profiles of deleted node classes only, after proving each is this cluster’s', async () => {
    const p = (nc: string) => instanceProfileName('test', 'us-east-1', nc);
    await make(p('gone'), tagsFor('gone'));
    await make(p('current'), tagsFor('current'));
    await make(p('claimed'), tagsFor('claimed'));
    // Under this cluster's path, named as ours, but tagged for another cluster: never ours to delete.
    await make(p('forged'), tagsFor('forged', 'other'));
    // Tagged for this cluster but named otherwise (not how kraftsman names a profile).
    await make('test_123', tagsFor('renamed'));
    // Outside this cluster's path: never even listed.
    await make(instanceProfileName('test', 'us-east-1', 'elsewhere'), tagsFor('elsewhere'), '/team/');
    const objects = {
      nodeClasses: [
        roleClass('current'),
        { ...roleClass('gone'), spec: { ...roleClass('gone').spec, role: undefined } },
      ],
      nodeClaims: [
        {
          ...claim('c-1'),
          spec: {
            ...claim('c-1').spec,
            nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'claimed' },
          },
        },
      ],
    } as unknown as ClusterObjects;
    expect([...neededProfiles(objects)].sort()).toEqual(['claimed', 'current']);
    const counts = await profiles.collect({ needed: neededProfiles(objects), now, graceMs: 60_000 });
    expect(counts).toEqual({ deleted: 1, kept: 2, refused: 2 });
    expect([...rig.iam!.world.profiles.keys()].sort()).toEqual(
      [
        p('current'),
        p('claimed'),
        p('forged'),
        'test_123',
        instanceProfileName('test', 'us-east-1', 'elsewhere'),
      ].sort(),
    );
  });

  it('keeps a profile younger than the grace period: its node class may be newer than the read', async () => {
    rig.iam!.world.profiles.clear();
    await make(instanceProfileName('test', 'us-east-1', 'fresh'), tagsFor('fresh'));
    const counts = await profiles.collect({
      needed: new Set(),
      now: new Date('2026-12-01T00:00:30Z'),
      graceMs: 60_000,
    });
    expect(counts).toEqual({ deleted: 0, kept: 1, refused: 0 });
  });
});
