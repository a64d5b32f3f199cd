// A pending Volcano training gang of 8-GPU H100 workers (a PodGroup with minMember = its workers, and the pods a
// Volcano Job stamps out), as the gang scenarios seed it (docs/fleet-scenarios.md).
import { uid } from '../../../test/fixtures/fleet/ids.ts';
import { stampPod, template } from '../../../test/fixtures/fleet/pods.ts';
import { GPU_TOLERATION, podGroup, TRAINING_REQUESTS } from '../../../test/fixtures/fleet/ramp-workloads.ts';
import type { Rng } from '../../../test/fixtures/fleet/rng.ts';

export function h100Gang(name: string, namespace: string, workers: number, rng: Rng): unknown[] {
  const tpl = template({
    namespace,
    prefix: `${name}-worker`,
    indexed: true,
    labels: { 'volcano.sh/job-name': name, 'volcano.sh/task-spec': 'worker', app: name },
    annotations: { 'scheduling.k8s.io/group-name': name },
    owner: { apiVersion: 'batch.volcano.sh/v1alpha1', kind: 'Job', name, uid: uid(rng) },
    image: 'nvcr.io/nvidia/pytorch:25.08-py3',
    requests: { ...(TRAINING_REQUESTS['h100-80gb'] as object), 'nvidia.com/gpu': '8' },
    nodeSelector: { 'kraftsman.dev/gpu-model': 'h100-80gb' },
    tolerations: [GPU_TOLERATION],
    schedulerName: 'volcano',
    priorityClassName: 'training',
    priority: 1000,
  });
  const after = '2026-11-29T23:50:00Z';
  const pods = Array.from({ length: workers }, () => stampPod(tpl, { after }, rng));
  return [podGroup(name, namespace, workers, 'Pending', rng, after), ...pods];
}
