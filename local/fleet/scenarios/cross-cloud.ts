// `cross-cloud`: an oversized on-demand EC2 node (m7i.8xlarge) runs three small pods that do not pin a cloud;
// the cheapest node that holds them is a Compute Engine n2-standard-4 ($0.194/h against m7i.xlarge's $0.202/h),
// so consolidation replaces the EC2 node with a node on the other cloud. The Compute Engine node is full and
// its pod may not be disrupted.
import { smallFleet } from './small-fleet.ts';
import { timedScenario, type TimedScenario } from './timed.ts';

export function crossCloud(): TimedScenario {
  return timedScenario({
    name: 'cross-cloud',
    description:
      'an oversized EC2 node whose pods allow either cloud is replaced by a cheaper Compute Engine node',
    minutes: 6,
    objects: (seed) =>
      smallFleet(
        seed,
        [
          {
            pool: 'cpu-aws',
            nodes: 1,
            types: ['m7i.8xlarge', 'm7i.xlarge'],
            nodeTypes: ['m7i.8xlarge'],
            capacityTypes: ['on-demand'],
          },
          {
            pool: 'cpu-gcp',
            nodes: 1,
            types: ['n2-standard-4', 'n2-standard-8'],
            nodeTypes: ['n2-standard-4'],
            capacityTypes: ['on-demand'],
          },
        ],
        [
          // No cloud-pinning affinity: the pods may run on either cloud's NodePool.
          {
            name: 'web',
            namespace: 'web',
            requests: { cpu: '1', memory: '3Gi' },
            bound: 3,
            pools: ['cpu-aws'],
          },
          {
            name: 'cache',
            namespace: 'web',
            requests: { cpu: '3500m', memory: '12Gi' },
            nodeSelector: { 'kraftsman.dev/cloud': 'gcp' },
            // Keeps the Compute Engine node out of consolidation, so the EC2 node is replaced on its own.
            annotations: { 'karpenter.sh/do-not-disrupt': 'true' },
            bound: 1,
            pools: ['cpu-gcp'],
          },
        ],
      ),
    timeline: [],
  });
}
