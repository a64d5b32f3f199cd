// Runs the CloudProvider contract against the EC2 adapter, through @aws-sdk/client-ec2, on the emulator.
import { cloudProviderContract } from './contract.ts';
import { RIG_DEPLOYMENT, ec2NodeClass, startEc2Rig } from '../../integration/clouds/ec2-setup.ts';
import { providerId } from '../../../shared/ports/cloud-provider/index.ts';
import { placeEc2Instance } from '../../support/placed-instances.ts';
import type { PlantRule } from './identity.ts';

/** The tags an instance of this rig's deployment carries, broken as `rule` says. */
function tags(rule: PlantRule, claim: string): Record<string, string> {
  const t: Record<string, string> = {
    'kraftsman.dev/cluster': rule === 'foreign-cluster' ? 'other' : 'test',
    'kraftsman.dev/deployment': rule === 'foreign-deployment' ? 'other-deployment' : RIG_DEPLOYMENT,
    'karpenter.sh/nodeclaim': claim,
    'karpenter.sh/nodepool': 'gpu',
  };
  if (rule === 'no-deployment') delete t['kraftsman.dev/deployment'];
  return t;
}

cloudProviderContract('EC2 adapter on the EC2 emulator', async () => {
  const rig = await startEc2Rig();
  const world = rig.emulator.world;
  return {
    provider: rig.provider,
    nodeClass: ec2NodeClass(),
    cheap: 'g5.xlarge',
    dear: 'g5.2xlarge',
    zones: ['us-east-1a', 'us-east-1b'],
    prices: [
      { instanceType: 'g5.xlarge', zone: 'us-east-1a', capacityType: 'on-demand', price: 1.006 },
      { instanceType: 'g5.2xlarge', zone: 'us-east-1b', capacityType: 'on-demand', price: 1.212 },
      { instanceType: 'g5.xlarge', zone: 'us-east-1b', capacityType: 'spot', price: 0.4532 },
    ],
    setCapacity: (type, zone, ct, n) => world.setCapacity(type, zone, ct, n),
    deploymentKey: 'kraftsman.dev/deployment',
    deployment: RIG_DEPLOYMENT,
    // Another account's instance: EC2 providerIDs name no account, its reservation's owner does.
    plant: async (rule, claim, zone) =>
      providerId(
        placeEc2Instance(world, {
          zone,
          tags: tags(rule, claim),
          ...(rule === 'foreign-project' ? { ownerId: '210987654321' } : {}),
        }),
      ),
    liveInstances: async () => world.live().length,
    relaxGangMinimum: () => {
      world.faults.ignoreMinTargetCapacity = true;
    },
    reset: async () => {
      world.faults.ignoreMinTargetCapacity = false;
      world.instances.clear();
      world.capacity.clear();
      world.fleets.clear();
    },
    close: () => rig.close(),
  };
});
