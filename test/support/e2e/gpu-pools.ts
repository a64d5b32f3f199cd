// The GPU NodePools the provisioning end-to-end tests share: one per cloud over three sizes each, aws first by
// weight when a test needs a fallback to gcp to be caused by capacity alone.
import type { KubeObject } from '../../../local/kube-api/index.ts';
import type { Cloud } from '../../../shared/model/labels.ts';
import { AWS_ZONES, GCE_ZONES, nodePool } from './fixtures.ts';
import { wireLaunchers } from './functions.ts';
import { startHarness, type E2eHarness } from './harness.ts';

export const AWS_GPU_TYPES = ['g5.xlarge', 'g5.2xlarge', 'g5.12xlarge'];
export const GCP_GPU_TYPES = ['g2-standard-4', 'g2-standard-8', 'g2-standard-24'];

/** aws-gpu and gcp-gpu; `awsFirst` weights aws-gpu 10 so the scheduler tries it before gcp-gpu. */
export function gpuPools(order: 'awsFirst' | 'unweighted'): KubeObject[] {
  return [
    nodePool('aws-gpu', 'aws', {
      ...(order === 'awsFirst' ? { weight: 10 } : {}),
      instanceTypes: AWS_GPU_TYPES,
    }),
    nodePool('gcp-gpu', 'gcp', { instanceTypes: GCP_GPU_TYPES }),
  ];
}

/** A harness holding only the two GPU pools, aws first: a fallback to gcp is caused by capacity alone. */
export const startGpuHarness = (): Promise<E2eHarness> => startHarness({ objects: gpuPools('awsFirst') });

/** A harness with one small GPU type per cloud (aws-gpu g5.xlarge, gcp-gpu g2-standard-4), launchers wired. */
export async function startOneTypeGpuHarness(): Promise<E2eHarness> {
  const h = await startHarness({
    objects: [
      nodePool('aws-gpu', 'aws', { instanceTypes: ['g5.xlarge'] }),
      nodePool('gcp-gpu', 'gcp', { instanceTypes: ['g2-standard-4'] }),
    ],
  });
  wireLaunchers(h);
  return h;
}

/** One GPU pool per cloud, the `first` cloud weighted so the scheduler tries it first. */
export const weightedGpuPools = (
  first: Cloud,
  types: Readonly<Record<Cloud, readonly string[]>> = { aws: AWS_GPU_TYPES, gcp: GCP_GPU_TYPES },
): KubeObject[] =>
  (['aws', 'gcp'] as const).map((c) =>
    nodePool(`${c}-gpu`, c, { ...(c === first ? { weight: 10 } : {}), instanceTypes: [...types[c]] }),
  );

/** The cloud refuses every offering of the given types in every zone (its own capacity error). */
export function exhaustCapacity(h: E2eHarness, cloud: Cloud, types: readonly string[]): void {
  for (const t of types)
    if (cloud === 'aws') for (const z of AWS_ZONES) h.ec2.world.setCapacity(t, z, 'on-demand', 0);
    else for (const z of GCE_ZONES) h.gce.world.setCapacity(t, z, 'STANDARD', 0);
}
