// The GPU NodePools the provisioning end-to-end tests share: one per cloud over three sizes each, aws first by
// weight when a test needs a fallback to gcp to be caused by capacity alone.
import type { KubeObject } from '../../../local/kube-api/index.ts';
import { nodePool } from './fixtures.ts';
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
