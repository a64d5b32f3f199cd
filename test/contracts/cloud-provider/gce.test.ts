// Runs the CloudProvider contract against the Compute Engine adapter, through @google-cloud/compute, on the emulator.
import { cloudProviderContract } from './contract.ts';
import { ZONES, gceNodeClass, startGceRig } from '../../integration/clouds/gce-setup.ts';

cloudProviderContract('Compute Engine adapter on the GCE emulator', async () => {
  const rig = await startGceRig();
  const world = rig.emulator.world;
  return {
    provider: rig.provider,
    nodeClass: gceNodeClass(),
    cheap: 'g2-standard-4',
    dear: 'g2-standard-8',
    zones: ZONES,
    prices: [
      // Cloud Billing SKUs of the emulator: cores × core + GiB × RAM + GPUs × GPU.
      {
        instanceType: 'g2-standard-4',
        zone: 'us-central1-a',
        capacityType: 'on-demand',
        price: 4 * 0.024988 + 16 * 0.002927 + 0.560321,
      },
      {
        instanceType: 'g2-standard-8',
        zone: 'us-central1-b',
        capacityType: 'on-demand',
        price: 8 * 0.024988 + 32 * 0.002927 + 0.560321,
      },
      {
        instanceType: 'g2-standard-4',
        zone: 'us-central1-b',
        capacityType: 'spot',
        price: 4 * 0.009995 + 16 * 0.001171 + 0.224128,
      },
    ],
    setCapacity: (type, zone, ct, n) => world.setCapacity(type, zone, ct === 'spot' ? 'SPOT' : 'STANDARD', n),
    liveInstances: async () => world.live().length,
    reset: async () => {
      world.instances.clear();
      world.capacity.clear();
      world.operations.clear();
      world.requestIds.clear();
    },
    close: () => rig.close(),
  };
});
