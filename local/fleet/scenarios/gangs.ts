// `gangs`: gangs through their life on two clouds (docs/mechanisms/gangs.md). A two-worker H100 Volcano gang
// arrives while its cheapest cloud (EC2 p5.48xlarge) has no capacity: refused whole there, it fails over whole to
// Compute Engine (a3-highgpu-8g) and runs. A Kueue-style `best-effort-atomic-scale-up` ProvisioningRequest for two
// L4 pods is provisioned all at once on the cheaper cloud (Compute Engine g2-standard-4 against EC2 g6.xlarge). A
// running CPU gang spans two nodes while consolidation removes the underused node beside it: the gang is left whole
// (skip reason `gang`).
import { GPU_TOLERATION, podGroup } from '../../../test/fixtures/fleet/ramp-workloads.ts';
import type { Rng } from '../../../test/fixtures/fleet/rng.ts';
import { h100Gang } from './h100-gang.ts';
import { smallFleet } from './small-fleet.ts';
import { timedScenario, type TimedScenario } from './timed.ts';

/** The pending H100 gang and the type its cheapest cloud has no capacity for. */
export const TRAIN = 'train-failover';
export const REFUSED_TYPE = 'p5.48xlarge';
export const FAILOVER_TYPE = 'a3-highgpu-8g';
const WORKERS = 2;
/** The Kueue-style atomic request, its pods' template, and the types of its two candidate clouds. */
export const REQUEST = 'eval-l4';
export const REQUEST_TYPES = { aws: 'g6.xlarge', gcp: 'g2-standard-4' } as const;
const REQUEST_PODS = 2;
/** The running CPU gang (PodGroup minMember 2), one member on each of two cpu-aws nodes. */
export const ETL = 'etl';
export const GANGS_NAMESPACE = 'ml-training';

function trainGang(rng: Rng): unknown[] {
  return h100Gang(TRAIN, GANGS_NAMESPACE, WORKERS, rng);
}

/** What Kueue's provisioning admission check creates for a job: a PodTemplate and a ProvisioningRequest naming it. */
function kueueRequest(): unknown[] {
  const created = '2026-11-29T23:55:00Z';
  const template = {
    apiVersion: 'v1',
    kind: 'PodTemplate',
    metadata: { name: `${REQUEST}-main`, namespace: GANGS_NAMESPACE, creationTimestamp: created },
    template: {
      metadata: { labels: { app: REQUEST } },
      spec: {
        containers: [
          {
            name: 'eval',
            image: 'nvcr.io/nvidia/pytorch:25.08-py3',
            // an extended resource's request must equal its limit (the API server's pod validation)
            resources: {
              requests: { cpu: '2', memory: '8Gi', 'nvidia.com/gpu': '1' },
              limits: { 'nvidia.com/gpu': '1' },
            },
          },
        ],
        nodeSelector: { 'workload-class': 'inference' },
        tolerations: [GPU_TOLERATION],
      },
    },
  };
  const request = {
    apiVersion: 'autoscaling.x-k8s.io/v1',
    kind: 'ProvisioningRequest',
    metadata: { name: REQUEST, namespace: GANGS_NAMESPACE, creationTimestamp: created },
    spec: {
      provisioningClassName: 'best-effort-atomic-scale-up.autoscaling.x-k8s.io',
      podSets: [{ podTemplateRef: { name: `${REQUEST}-main` }, count: REQUEST_PODS }],
    },
  };
  return [template, request];
}

export function gangs(): TimedScenario {
  return timedScenario({
    name: 'gangs',
    description:
      'an H100 gang refused on EC2 fails over whole to Compute Engine; a Kueue-style atomic ProvisioningRequest is provisioned on the cheaper cloud; consolidation leaves a running gang whole around it',
    minutes: 5,
    objects: (seed) =>
      smallFleet(
        seed,
        [
          {
            pool: 'cpu-aws',
            nodes: 3,
            types: ['m7i.2xlarge', 'm7i.xlarge'],
            nodeTypes: ['m7i.2xlarge'],
            capacityTypes: ['on-demand'],
          },
          { pool: 'training-aws', nodes: 0, types: [REFUSED_TYPE], capacityTypes: ['on-demand'] },
          { pool: 'training-gcp', nodes: 0, types: [FAILOVER_TYPE], capacityTypes: ['on-demand'] },
          { pool: 'inference-aws', nodes: 0, types: [REQUEST_TYPES.aws], capacityTypes: ['on-demand'] },
          { pool: 'inference-gcp', nodes: 0, types: [REQUEST_TYPES.gcp], capacityTypes: ['on-demand'] },
        ],
        [
          // The running gang: members on the first two nodes (round-robin placement).
          {
            name: ETL,
            namespace: GANGS_NAMESPACE,
            requests: { cpu: '3', memory: '8Gi' },
            annotations: { 'scheduling.k8s.io/group-name': ETL },
            bound: 2,
            pools: ['cpu-aws'],
          },
          // Holds the first node (do-not-disrupt): the gang's two nodes can never leave together, so only the
          // gang rule keeps consolidation from taking the second node alone.
          {
            name: 'ledger',
            namespace: 'web',
            requests: { cpu: '1', memory: '2Gi' },
            annotations: { 'karpenter.sh/do-not-disrupt': 'true' },
            bound: 1,
            pools: ['cpu-aws'],
          },
          // Beside the gang and the ledger on the first node; the third node starts empty, for consolidation to
          // remove around the gang, while the second node (the gang's member alone) would be replaced by a
          // cheaper m7i.xlarge were it not for the gang.
          {
            name: 'web',
            namespace: 'web',
            requests: { cpu: '1', memory: '2Gi' },
            bound: 1,
            pools: ['cpu-aws'],
          },
        ],
        (rng) => [
          podGroup(ETL, GANGS_NAMESPACE, 2, 'Running', rng, '2026-11-29T23:00:00Z'),
          ...trainGang(rng),
          ...kueueRequest(),
        ],
      ),
    timeline: [{ at: 0, inject: { kind: 'capacity', types: [REFUSED_TYPE], left: 0 } }],
  });
}
