// `spot-interruption`: one spot node on each cloud is interrupted at minute 1 — EC2's two-minute warning (the
// EventBridge event lifecycle takes from the interruption queue) and a Compute Engine preemption (the zonal
// operation lifecycle reads). Every node is full, so the displaced pods need a replacement node.
import { smallFleet } from './small-fleet.ts';
import { timedScenario, type TimedScenario } from './timed.ts';

/** 2 × 3.5 CPU / 12 GiB fill an 8-CPU, 32 GiB node: no displaced replica fits on a node already there. */
const REPLICA = { cpu: '3500m', memory: '12Gi' };

export function spotInterruption(): TimedScenario {
  return timedScenario({
    name: 'spot-interruption',
    description: 'a spot interruption on each cloud (EC2 warning, Compute Engine preemption) on 6 full nodes',
    minutes: 6,
    objects: (seed) =>
      smallFleet(
        seed,
        [
          { pool: 'cpu-aws', nodes: 3, types: ['m7i.2xlarge'], capacityTypes: ['spot'] },
          { pool: 'cpu-gcp', nodes: 3, types: ['n2-standard-8'], capacityTypes: ['spot'] },
        ],
        (['aws', 'gcp'] as const).map((cloud) => ({
          name: `web-${cloud}`,
          namespace: 'web',
          requests: REPLICA,
          // Pinned to its cloud, so a replica is replaced where it ran (cross-cloud is its own scenario).
          nodeSelector: { 'kraftsman.dev/cloud': cloud },
          bound: 6,
          pools: [`cpu-${cloud}`],
        })),
      ),
    timeline: [
      { at: 1, inject: { kind: 'spot-interruption', cloud: 'aws' } },
      { at: 1, inject: { kind: 'spot-interruption', cloud: 'gcp' } },
    ],
  });
}
