// Runs the CloudProvider contract against the EC2 adapter, through @aws-sdk/client-ec2, on the emulator.
import { cloudProviderContract } from './contract.ts';
import { ec2NodeClass, startEc2Rig } from '../../integration/clouds/ec2-setup.ts';

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
    liveInstances: async () => world.live().length,
    reset: async () => {
      world.instances.clear();
      world.capacity.clear();
      world.fleets.clear();
    },
    close: () => rig.close(),
  };
});
