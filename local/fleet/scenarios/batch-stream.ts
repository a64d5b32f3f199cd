// A stream of short GPU batch jobs (docs/fleet-scenarios.md, decay): from `from` to `until` a Job of `pods`
// one-GPU workers arrives every minute — its workers on separate nodes (hostname anti-affinity), so they need new
// nodes — and each Job completes `runs` minutes after it arrived, its bound workers leaving as a finished Job
// lets them go. While a wave is pending and not yet provisioned, Karpenter's disruption simulation schedules
// it with every candidate's pods (docs/mechanisms/attribution.md).
import type { KubeApiEmulator, KubeObject } from '../../kube-api/index.ts';
import type { PodLedger } from '../pods.ts';
import { remove } from './load.ts';

export interface BatchStream {
  readonly from: number;
  readonly until: number;
  readonly pods: number;
  /** Minutes from a Job's arrival to its completion. */
  readonly runs: number;
  /** The GPU model its workers name, and their requests besides the GPU. */
  readonly model: string;
  readonly requests: Readonly<Record<string, string>>;
}

const NAMESPACE = 'batch-jobs';
const JOB_LABEL = 'job-name';

function worker(stream: BatchStream, job: string, index: number): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${job}-${index}`,
      namespace: NAMESPACE,
      labels: { [JOB_LABEL]: job, app: 'embed-batch' },
      ownerReferences: [
        { apiVersion: 'batch/v1', kind: 'Job', name: job, uid: `job-${job}`, controller: true },
      ],
    },
    spec: {
      containers: [
        {
          name: 'worker',
          image: 'registry.example.internal/embed-batch:2.4',
          // An extended resource cannot be overcommitted: its limit equals its request.
          resources: {
            requests: { ...stream.requests, 'nvidia.com/gpu': '1' },
            limits: { 'nvidia.com/gpu': '1' },
          },
        },
      ],
      nodeSelector: { 'kraftsman.dev/gpu-model': stream.model },
      tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
      affinity: {
        podAntiAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { labelSelector: { matchLabels: { [JOB_LABEL]: job } }, topologyKey: 'kubernetes.io/hostname' },
          ],
        },
      },
      restartPolicy: 'Never',
    },
    status: { phase: 'Pending' },
  };
}

const jobOf = (p: KubeObject): string | undefined =>
  (p.metadata.labels as Record<string, string> | undefined)?.[JOB_LABEL];

/** One minute of the stream: the Jobs due complete (their bound workers leave), then a new Job arrives. */
export function batchMinute(
  stream: BatchStream,
  minute: number,
  e: KubeApiEmulator,
  ledger: PodLedger,
): void {
  const podType = e.typeOf('Pod');
  const done = new Set<string>();
  for (let m = stream.from; m <= Math.min(stream.until, minute - stream.runs); m++) done.add(`embed-${m}`);
  const finished = e.store.all(podType).filter((p) => {
    const job = jobOf(p);
    return job !== undefined && done.has(job) && (p.spec as { nodeName?: string } | undefined)?.nodeName;
  });
  remove(e, ledger, finished);
  if (minute < stream.from || minute > stream.until) return;
  if (!e.store.all(e.typeOf('Namespace')).some((n) => n.metadata.name === NAMESPACE))
    e.store.create(e.typeOf('Namespace'), undefined, {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: NAMESPACE },
    });
  for (let i = 0; i < stream.pods; i++) {
    const pod = worker(stream, `embed-${minute}`, i);
    e.store.create(podType, NAMESPACE, pod);
    ledger.added(pod);
  }
}
