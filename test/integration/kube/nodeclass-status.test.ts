// Node-class status as lifecycle publishes it (shared/loop/nodeclass-status.ts), through the real kube client against
// the Kubernetes emulator and the real EC2 / SSM / Compute Engine clients against theirs: the resolved images, subnets,
// security groups and instance profile with Karpenter's conditions, written only on change (PATCHes counted from
// the emulator's audit), re-resolved at most every 5 minutes, and Ready=False with Karpenter's reason.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { publishNodeClassStatuses } from '../../../shared/loop/nodeclass-status.ts';
import { poolNotReady } from '../../../shared/state/pool-readiness.ts';
import type { NodeClass } from '../../../shared/model/nodeclass.ts';
import type { NodePool } from '../../../shared/model/nodepool.ts';
import type { KubeObject } from '../../../local/kube-api/store.ts';
import type { ClusterEvent } from '../../../shared/ports/cluster/index.ts';
import { STATUS_TTL_MS } from '../../../shared/adapters/aws-ec2/provider.ts';
import { LOCAL_CA_BUNDLE } from '../../../local/kube-api/index.ts';
import { nodePool, startHarness, type Harness } from '../../contracts/cluster/harness.ts';
import { ec2NodeClass, startEc2Rig, type Ec2Rig } from '../clouds/ec2-setup.ts';
import { gceNodeClass, startGceRig, type GceRig } from '../clouds/gce-setup.ts';

let h: Harness;
let aws: Ec2Rig;
let gcp: GceRig;
let now = new Date('2026-11-30T00:00:00Z');
const logs: string[] = [];
const events: ClusterEvent[] = [];

beforeAll(async () => {
  h = await startHarness();
  aws = await startEc2Rig({ ssm: { kubernetesVersion: '1.33' }, now: () => now });
  gcp = await startGceRig();
});
afterAll(async () => {
  await Promise.all([h.close(), aws.close(), gcp.close()]);
});
beforeEach(() => {
  now = new Date(now.getTime() + 60 * 60_000); // past every cached resolution of the last test
  logs.length = 0;
  events.length = 0;
});

function deps() {
  const cluster = h.cluster();
  return {
    cluster: {
      patchStatus: cluster.patchStatus.bind(cluster),
      recordEvent: (e: ClusterEvent) => {
        events.push(e);
        return Promise.resolve();
      },
    },
    clock: { now: () => now },
    logger: {
      debug: () => undefined,
      info: () => undefined,
      warn: (m: string) => void logs.push(m),
      error: () => undefined,
    },
    metrics: { count: () => undefined, gauge: () => undefined, observe: () => undefined },
    providers: { aws: aws.provider, gcp: gcp.provider },
  };
}

// Through JSON, as kubectl would send them: a key set to undefined is no key.
const seed = (objects: readonly unknown[]) =>
  h.emulator.seed(JSON.parse(JSON.stringify(objects)) as KubeObject[]);
async function classes(): Promise<readonly NodeClass[]> {
  return (await h.cluster().readSnapshot()).objects.nodeClasses;
}
const statusOf = async (name: string) =>
  (
    (await classes()).find((c) => c.metadata.name === name) as unknown as {
      status?: Record<string, unknown> & { conditions?: { type: string; status: string; reason?: string }[] };
    }
  )?.status;
const condition = (s: Awaited<ReturnType<typeof statusOf>>, type: string) =>
  s?.conditions?.find((c) => c.type === type);
const patches = () =>
  h.emulator.audit.count('patch', 'ec2nodeclasses/status') +
  h.emulator.audit.count('patch', 'gcenodeclasses/status');

describe('EC2NodeClass status', () => {
  it('publishes the resolved images, subnets, security groups and instance profile, Ready=True, once', async () => {
    const alias = ec2NodeClass({
      amiSelectorTerms: [{ alias: 'al2023@latest' }],
      amiFamily: undefined,
      userData: undefined,
      bootstrap: {
        apiServerEndpoint: 'https://10.0.0.1:6443',
        caBundle: LOCAL_CA_BUNDLE,
        serviceCIDR: '10.100.0.0/16',
      },
    });
    seed([{ ...alias, metadata: { name: 'ready' } }]);
    const before = patches();
    expect(await publishNodeClassStatuses(deps(), { ...(await h.cluster().readSnapshot()).objects })).toBe(1);
    const s = await statusOf('ready');
    expect(s?.instanceProfile).toBe('KraftsmanNodeProfile');
    expect(s?.subnets).toEqual([
      { id: 'subnet-us-east-1a', zone: 'us-east-1a', zoneID: 'use1-az1' },
      { id: 'subnet-us-east-1b', zone: 'us-east-1b', zoneID: 'use1-az2' },
    ]);
    expect(s?.securityGroups).toEqual([{ id: 'sg-0node', name: 'kraftsman-nodes' }]);
    const amis = s?.amis as { id: string; name: string; requirements: { key: string; operator: string }[] }[];
    expect(amis.length).toBeGreaterThanOrEqual(3); // x86_64 standard / nvidia / neuron, arm64 …
    const nvidia = amis.find((a) => a.name.includes('nvidia'));
    expect(nvidia?.requirements).toContainEqual({
      key: 'karpenter.k8s.aws/instance-gpu-count',
      operator: 'Exists',
    });
    for (const type of [
      'AMIsReady',
      'SubnetsReady',
      'SecurityGroupsReady',
      'InstanceProfileReady',
      'ValidationSucceeded',
      'Ready',
    ])
      expect(condition(s, type)?.status, type).toBe('True');
    // The transition events operatorpkg's status controller publishes.
    expect(events.map((e) => `${e.involved.kind}/${e.reason}`)).toContain('EC2NodeClass/Ready');
    expect(patches() - before).toBe(1);

    // A second run with nothing changed writes nothing, and reads no cloud API within the 5 minutes.
    const calls = aws.emulator.world.calls.length;
    now = new Date(now.getTime() + 60_000);
    expect(await publishNodeClassStatuses(deps(), (await h.cluster().readSnapshot()).objects)).toBe(0);
    expect(patches() - before).toBe(1);
    expect(aws.emulator.world.calls.length).toBe(calls);
    // After the TTL it resolves again, and still writes nothing when nothing changed.
    now = new Date(now.getTime() + STATUS_TTL_MS);
    expect(await publishNodeClassStatuses(deps(), (await h.cluster().readSnapshot()).objects)).toBe(0);
    expect(aws.emulator.world.calls.length).toBeGreaterThan(calls);
    expect(patches() - before).toBe(1);
  });

  it('goes Ready=False with SubnetsNotFound when no subnet matches, and its NodePool NotReady with that reason', async () => {
    const none = ec2NodeClass({ subnetSelectorTerms: [{ tags: { 'no-such-tag': 'x' } }] });
    seed([{ ...none, metadata: { name: 'nosubnets' } }]);
    await publishNodeClassStatuses(deps(), (await h.cluster().readSnapshot()).objects);
    const s = await statusOf('nosubnets');
    expect(condition(s, 'SubnetsReady')).toMatchObject({ status: 'False', reason: 'SubnetsNotFound' });
    expect(condition(s, 'Ready')).toMatchObject({ status: 'False', reason: 'UnhealthyDependents' });
    expect(s?.subnets).toBeUndefined();
    expect(condition(s, 'SecurityGroupsReady')?.status).toBe('True');
    const base = nodePool('p') as unknown as NodePool;
    const ref = { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'nosubnets' } as const;
    const pool = {
      ...base,
      spec: { ...base.spec, template: { spec: { ...base.spec.template.spec, nodeClassRef: ref } } },
    };
    const nc = (await classes()).find((c) => c.metadata.name === 'nosubnets');
    expect(poolNotReady(pool, nc)).toMatchObject({ reason: 'UnhealthyDependents' });
  });

  it('says what is wrong with the instance profile and the join (InstanceProfileNotReady, BootstrapIncomplete)', async () => {
    const both = ec2NodeClass({
      role: 'KarpenterNodeRole',
      bootstrap: {},
      amiFamily: 'Kubeadm',
      userData: undefined,
    });
    seed([{ ...both, metadata: { name: 'broken' } }]);
    await publishNodeClassStatuses(deps(), (await h.cluster().readSnapshot()).objects);
    const s = await statusOf('broken');
    expect(condition(s, 'InstanceProfileReady')).toMatchObject({
      status: 'False',
      reason: 'InstanceProfileNotReady',
    });
    expect(condition(s, 'ValidationSucceeded')).toMatchObject({
      status: 'False',
      reason: 'BootstrapIncomplete',
    });
    expect(s?.instanceProfile).toBeUndefined();
  });
});

describe('GCENodeClass status', () => {
  it('publishes the image of each kind of machine, subnetwork and service account with ImagesReady and Ready', async () => {
    const good = gceNodeClass({ serviceAccount: 'nodes@kraftsman-test.iam.gserviceaccount.com' });
    const bad = gceNodeClass({ imageSelectorTerms: [{ alias: 'windows@latest' }] });
    seed([
      { ...good, metadata: { name: 'gce-ready' } },
      { ...bad, metadata: { name: 'gce-noimage' } },
    ]);
    const before = patches();
    await publishNodeClassStatuses(deps(), (await h.cluster().readSnapshot()).objects);
    const s = await statusOf('gce-ready');
    // an id term boots the same image on every kind of machine; matching its architecture is the user's job
    const image = 'projects/kraftsman-test/global/images/gpu-node-2026-11-01';
    expect(s?.images).toEqual([
      { image, arch: 'amd64', accelerator: 'nvidia', driver: 'user' },
      { image, arch: 'amd64', accelerator: 'none', driver: 'none' },
      { image, arch: 'arm64', accelerator: 'nvidia', driver: 'user' },
      { image, arch: 'arm64', accelerator: 'none', driver: 'none' },
    ]);
    expect(s).toMatchObject({
      subnetwork: 'regions/us-central1/subnetworks/nodes',
      serviceAccount: 'nodes@kraftsman-test.iam.gserviceaccount.com',
    });
    expect(condition(s, 'Ready')?.status).toBe('True');
    const b = await statusOf('gce-noimage');
    expect(condition(b, 'ImagesReady')).toMatchObject({ status: 'False', reason: 'ImageNotFound' });
    expect(condition(b, 'Ready')?.status).toBe('False');
    expect(patches() - before).toBe(2);
    await publishNodeClassStatuses(deps(), (await h.cluster().readSnapshot()).objects);
    expect(patches() - before).toBe(2);
  });
});
