// Runs the CloudProvider contract against the Compute Engine adapter, through @google-cloud/compute, on the emulator.
import { cloudProviderContract } from './contract.ts';
import {
  OTHER_PROJECT,
  RIG_DEPLOYMENT,
  ZONES,
  gceNodeClass,
  startGceRig,
} from '../../integration/clouds/gce-setup.ts';
import { providerId } from '../../../shared/ports/cloud-provider/index.ts';
import { placeGceInstance } from '../../support/placed-instances.ts';
import type { PlantRule } from './identity.ts';

/** The labels an instance of this rig's deployment carries, broken as `rule` says. */
function labels(rule: PlantRule, claim: string): Record<string, string> {
  const l: Record<string, string> = {
    'kraftsman-cluster': rule === 'foreign-cluster' ? 'other' : 'test',
    'kraftsman-deployment': rule === 'foreign-deployment' ? 'other-deployment' : RIG_DEPLOYMENT,
    'kraftsman-nodeclaim': claim,
    'kraftsman-nodepool': 'gpu',
  };
  if (rule === 'no-deployment') delete l['kraftsman-deployment'];
  return l;
}

cloudProviderContract('Compute Engine adapter on the GCE emulator', async () => {
  const rig = await startGceRig();
  const world = rig.emulator.world;
  const other = rig.emulator.worldOf(OTHER_PROJECT);
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
    deploymentKey: 'kraftsman-deployment',
    deployment: RIG_DEPLOYMENT,
    plant: async (rule, claim, zone) =>
      providerId(
        placeGceInstance(rule === 'foreign-project' ? other : world, {
          zone,
          name: claim,
          labels: labels(rule, claim),
          claim,
        }),
      ),
    liveInstances: async () => world.live().length + other.live().length,
    relaxGangMinimum: () => {
      world.faults.ignoreMinCount = true;
    },
    reset: async () => {
      world.faults.ignoreMinCount = false;
      other.instances.clear();
      world.instances.clear();
      world.capacity.clear();
      world.operations.clear();
      world.requestIds.clear();
    },
    close: () => rig.close(),
  };
});
