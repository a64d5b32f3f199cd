// EC2NodeClass spec.role through the handlers (docs/mechanisms/instance-profiles.md): provision → launch-aws makes
// the node class's instance profile in IAM (tagged as Karpenter tags it), waits out IAM's propagation lag, and the
// instance runs with it; lifecycle deletes the profile of a node class that is gone and keeps everything else.
// Against the Kubernetes, EC2 and IAM emulators and DynamoDB Local, through the real SDK clients.
import {
  AddRoleToInstanceProfileCommand,
  CreateInstanceProfileCommand,
  IAMClient,
} from '@aws-sdk/client-iam';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_CREDENTIALS } from '../../../local/dynamodb/credentials.ts';
import {
  instanceProfileName,
  instanceProfilePath,
} from '../../../shared/adapters/aws-ec2/instance-profiles.ts';
import {
  lambdaContext,
  lifecycleHandler,
  nodePool,
  pod,
  scheduledEvent,
  startHarness,
  wireLaunchers,
  type E2eHarness,
} from '../../support/e2e/index.ts';
import { provisionOnce } from '../../support/e2e/steps.ts';

describe('instance profiles for spec.role, through the handlers', () => {
  let h: E2eHarness;
  let iam: IAMClient;
  beforeAll(async () => {
    h = await startHarness({
      objects: [nodePool('aws-gpu', 'aws', { instanceTypes: ['g5.xlarge'] })],
      // IAM's lag: EC2 refuses the new profile for the first launch that names it.
      iamPropagation: { launches: 1 },
    });
    wireLaunchers(h);
    iam = new IAMClient({
      endpoint: h.iam.endpoint,
      region: 'us-east-1',
      credentials: LOCAL_CREDENTIALS,
      maxAttempts: 1,
    });
  });
  afterAll(async () => {
    iam?.destroy();
    await h?.close();
  });
  const lifecycle = () => lifecycleHandler(h)(scheduledEvent(h.clock), lambdaContext('lifecycle'));
  const profileOf = (nodeClass: string) => instanceProfileName(h.clusterName, 'us-east-1', nodeClass);

  it('launch-aws makes the profile, tagged for the cluster and node class, and launches with it past IAM’s lag', async () => {
    h.seed([pod('train', { gpus: 1, nodeSelector: { 'kraftsman.dev/cloud': 'aws' } })]);
    expect((await provisionOnce(h)).result).toMatchObject({ outcome: 'ran', claimsCreated: 1 });
    await h.invoker.settled();
    expect(h.invoker.records.map((r) => r.outcome)).toEqual(['succeeded']);
    const profile = h.iam.world.profiles.get(profileOf('aws-gpu'));
    expect(profile).toMatchObject({
      path: `/karpenter/us-east-1/${h.clusterName}/`,
      roles: ['KraftsmanNodeRole'],
      tags: {
        [`kubernetes.io/cluster/${h.clusterName}`]: 'owned',
        'eks:eks-cluster-name': h.clusterName,
        'karpenter.k8s.aws/ec2nodeclass': 'aws-gpu',
        'topology.kubernetes.io/region': 'us-east-1',
      },
    });
    const fleets = h.ec2.world.requests.filter((r) => r.action === 'CreateFleet');
    expect(fleets).toHaveLength(2); // refused once while IAM propagated, then launched
    const instances = [...h.ec2.world.instances.values()];
    expect(instances).toHaveLength(1);
    const template = [...h.ec2.world.launchTemplates.values()].find(
      (t) => t.instanceProfile === profileOf('aws-gpu'),
    );
    expect(template).toBeDefined();
  });

  it('lifecycle deletes the profile of a node class that is gone, keeps the current one and what is not this cluster’s', async () => {
    const tags = (nodeClass: string, cluster = h.clusterName) => [
      { Key: `kubernetes.io/cluster/${cluster}`, Value: 'owned' },
      { Key: 'eks:eks-cluster-name', Value: cluster },
      { Key: 'karpenter.k8s.aws/ec2nodeclass', Value: nodeClass },
      { Key: 'topology.kubernetes.io/region', Value: 'us-east-1' },
    ];
    const make = async (name: string, t: { Key: string; Value: string }[]) => {
      await iam.send(
        new CreateInstanceProfileCommand({
          InstanceProfileName: name,
          Path: instanceProfilePath('us-east-1', h.clusterName),
          Tags: t,
        }),
      );
      await iam.send(
        new AddRoleToInstanceProfileCommand({ InstanceProfileName: name, RoleName: 'KraftsmanNodeRole' }),
      );
    };
    await make(profileOf('retired'), tags('retired'));
    await make(profileOf('foreign'), tags('foreign', 'another-cluster'));
    // Past the grace period: the profiles are older than any read that could miss their node class.
    h.clock.advance(5 * 60_000);
    const result = await lifecycle();
    expect(result).toMatchObject({ failed: 0 });
    // The operator's profile (path /, the harness's) is outside this cluster's path: never even listed.
    expect([...h.iam.world.profiles.keys()].sort()).toEqual(
      [profileOf('aws-gpu'), profileOf('foreign'), 'KraftsmanNodeProfile'].sort(),
    );
    expect(h.iam.world.calls).toContain('DeleteInstanceProfile');
  });
});
