// Runs the CloudProvider contract against the in-memory recording fake.
import type { InstanceTypeSpec } from '../../../shared/model/catalog.ts';
import { providerId } from '../../../shared/ports/cloud-provider/index.ts';
import { nodeClaimName } from '../../../shared/model/names.ts';
import { FAKE_DEPLOYMENT_TAG, FakeCloudProvider } from '../../fakes/cloud-provider.ts';
import { cloudProviderContract } from './contract.ts';

const ZONES = ['us-east-1a', 'us-east-1b'] as const;
const type = (name: string, price: number): InstanceTypeSpec => ({
  name,
  cloud: 'aws',
  arch: 'amd64',
  capacity: { cpu: '4', memory: '16Gi', 'nvidia.com/gpu': '1' },
  offerings: ZONES.map((zone) => ({ zone, capacityType: 'on-demand' as const, price, available: true })),
});

cloudProviderContract('in-memory fake', async () => {
  let fake = new FakeCloudProvider([type('g5.xlarge', 1.006), type('g5.2xlarge', 1.212)]);
  const holder = { provider: fake };
  return {
    get provider() {
      return holder.provider;
    },
    nodeClass: {
      apiVersion: 'karpenter.k8s.aws/v1',
      kind: 'EC2NodeClass',
      metadata: { name: 'default' },
      spec: {},
    },
    cheap: 'g5.xlarge',
    dear: 'g5.2xlarge',
    zones: ZONES,
    prices: [
      { instanceType: 'g5.xlarge', zone: 'us-east-1a', capacityType: 'on-demand', price: 1.006 },
      { instanceType: 'g5.2xlarge', zone: 'us-east-1b', capacityType: 'on-demand', price: 1.212 },
    ],
    setCapacity: (t, z, ct, n) => holder.provider.setCapacity(t, z, ct, n),
    deploymentKey: FAKE_DEPLOYMENT_TAG,
    deployment: fake.deployment,
    plant: async (rule, claim, zone) => {
      const id = providerId(`aws:///${zone}/i-planted${claim.replace(/[^a-z0-9]/g, '')}`);
      const tags: Record<string, string> = {
        'kraftsman.dev/cluster': rule === 'foreign-cluster' ? 'other' : 'test',
        [FAKE_DEPLOYMENT_TAG]: rule === 'foreign-deployment' ? 'other-deployment' : fake.deployment,
        'karpenter.sh/nodeclaim': claim,
      };
      if (rule === 'no-deployment') delete tags[FAKE_DEPLOYMENT_TAG];
      const instance = {
        providerId: id,
        cloud: 'aws' as const,
        instanceType: 'g5.xlarge',
        zone,
        capacityType: 'on-demand' as const,
        state: 'running' as const,
        nodeClaim: nodeClaimName(claim),
        tags,
      };
      holder.provider.plant(instance, rule === 'foreign-project');
      return id;
    },
    liveInstances: async () =>
      [...holder.provider.instances.values()].filter((i) => i.state !== 'terminated').length,
    // The fake takes a gang's count whole or not at all: it has no minimum to relax.
    relaxGangMinimum: () => undefined,
    reset: async () => {
      fake = new FakeCloudProvider([type('g5.xlarge', 1.006), type('g5.2xlarge', 1.212)]);
      holder.provider = fake;
    },
    close: async () => undefined,
  };
});
