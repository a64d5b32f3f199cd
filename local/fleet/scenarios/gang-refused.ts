// `gang-refused`: a Volcano gang of four 8-GPU workers (PodGroup minMember 4) while each H100 offering, on
// either cloud, has only two instances left in any zone — the gang cannot be placed whole anywhere, so
// nothing of it may be launched (docs/mechanisms/gangs.md): no instance on either cloud, no NodeClaim left.
import type { Rng } from '../../../test/fixtures/fleet/rng.ts';
import { h100Gang } from './h100-gang.ts';
import { smallFleet } from './small-fleet.ts';
import { timedScenario, type TimedScenario } from './timed.ts';

export const GANG = 'train-h100';
/** The H100 8-GPU types of the training pools: p5.48xlarge (AWS) and a3-highgpu-8g (Compute Engine). */
export const GANG_TYPES = ['p5.48xlarge', 'a3-highgpu-8g'] as const;
const MEMBERS = 4;

function gang(rng: Rng): unknown[] {
  return h100Gang(GANG, 'ml-training', MEMBERS, rng);
}

export function gangRefused(): TimedScenario {
  return timedScenario({
    name: 'gang-refused',
    description: `a ${MEMBERS}-worker H100 gang while each H100 offering has 2 instances left: nothing launches`,
    minutes: 5,
    objects: (seed) =>
      smallFleet(
        seed,
        [
          { pool: 'cpu-aws', nodes: 2, types: ['m7i.2xlarge'], capacityTypes: ['on-demand'] },
          { pool: 'cpu-gcp', nodes: 2, types: ['n2-standard-8'], capacityTypes: ['on-demand'] },
          { pool: 'training-aws', nodes: 0 },
          { pool: 'training-gcp', nodes: 0 },
        ],
        // A quiet background: full nodes, each replica pinned to its cloud, so nothing else launches.
        (['aws', 'gcp'] as const).map((cloud) => ({
          name: `api-${cloud}`,
          namespace: 'web',
          requests: { cpu: '3500m', memory: '12Gi' },
          nodeSelector: { 'kraftsman.dev/cloud': cloud },
          bound: 4,
          pools: [`cpu-${cloud}`],
        })),
        gang,
      ),
    timeline: [{ at: 1, inject: { kind: 'capacity', types: GANG_TYPES, left: 2 } }],
  });
}
