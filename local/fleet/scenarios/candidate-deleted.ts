// `candidate-deleted`: half-empty nodes on both clouds invite consolidation; the moment a command has tainted
// a candidate, its instance is terminated out of band (EC2 TerminateInstances, Compute Engine instances.delete),
// as an operator might. The command must still finish or roll back: no taint left, no instance orphaned.
import { smallFleet } from './small-fleet.ts';
import { timedScenario, type TimedScenario } from './timed.ts';

export function candidateDeleted(): TimedScenario {
  return timedScenario({
    name: 'candidate-deleted',
    description:
      "a consolidation candidate's instance terminated out of band on each cloud while its command runs",
    // Long enough for the commands consolidation starts after the injected ones to finish too.
    minutes: 12,
    objects: (seed) =>
      smallFleet(
        seed,
        [
          { pool: 'cpu-aws', nodes: 4, types: ['m7i.2xlarge'], capacityTypes: ['on-demand'] },
          { pool: 'cpu-gcp', nodes: 4, types: ['n2-standard-8'], capacityTypes: ['on-demand'] },
        ],
        (['aws', 'gcp'] as const).map((cloud) => ({
          name: `jobs-${cloud}`,
          namespace: 'batch-jobs',
          requests: { cpu: '1', memory: '2Gi' },
          nodeSelector: { 'kraftsman.dev/cloud': cloud },
          // One replica per node: three of the four nodes of each cloud could go.
          bound: 4,
          pools: [`cpu-${cloud}`],
        })),
      ),
    timeline: [
      { at: 1, inject: { kind: 'terminate-candidate', cloud: 'aws' } },
      { at: 1, inject: { kind: 'terminate-candidate', cloud: 'gcp' } },
    ],
  });
}
