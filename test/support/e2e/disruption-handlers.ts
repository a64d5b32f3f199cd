// The disruption half's functions as the end-to-end tests run them: consolidate and admit with dependencies
// built the way their deps.ts build them, against the harness's servers and recording logs and metrics. The
// settling delay advances the harness's clock instead of sleeping (no real 15 s waits); lock polling sleeps
// a few real milliseconds. A fleet is grown through the provisioning handlers by steps.ts's `bringUp`.
import { randomUUID } from 'node:crypto';
import { commandIds, launchThrough, type AdmitHandlerDeps } from '../../../functions/admit/deps.ts';
import { createAdmitHandler } from '../../../functions/admit/handler.ts';
import type { ConsolidateHandlerDeps } from '../../../functions/consolidate/deps.ts';
import { createConsolidateHandler } from '../../../functions/consolidate/handler.ts';
import type { KubeObject } from '../../../local/kube-api/index.ts';
import { passOptions, type PassOptions } from '../../../shared/disruption/types.ts';
import { InstanceTypeCache } from '../../../shared/loop/instance-types.ts';
import { poolInstanceTypes, poolSpecs } from '../../../shared/loop/pool-instance-types.ts';
import { workerWalkDiscovery } from '../../../shared/adapters/workers/index.ts';
import { systemTimer } from '../../../shared/adapters/system-timer.ts';
import { launchHandler } from './functions.ts';
import { GCE_PROJECT, nodePool } from './fixtures.ts';
import { startHarness, type E2eHarness, type E2eOptions } from './harness.ts';
import { lambdaContext, scheduledEvent } from './lambda-events.ts';

const obs = (h: E2eHarness) => ({ logger: h.logger, metrics: h.metrics });
const nonce = () => randomUUID();

/** A fresh container's instance type cache, over both emulators (kept for a day: the clock jumps). */
const typeCache = (h: E2eHarness) =>
  new InstanceTypeCache({ aws: h.ec2Provider(), gcp: h.gceProvider() }, h.clock, 24 * 3_600_000);

/** A fresh container's instance types, read from both emulators. */
const typesOf = (h: E2eHarness) => {
  const cache = typeCache(h);
  return (objects: Parameters<typeof poolInstanceTypes>[1]) => poolInstanceTypes(cache, objects);
};

/** `workers`: discovery threads for the walk, as deps.ts builds them (KRAFTSMAN_DISCOVERY_WORKERS); 1 starts none. */
export function consolidateHandler(
  h: E2eHarness,
  options: Partial<PassOptions> = {},
  { workers = 1 }: { readonly workers?: number } = {},
) {
  const cache = typeCache(h);
  const deps: ConsolidateHandlerDeps = {
    loop: {
      cluster: h.cluster(),
      store: h.store(),
      invoker: h.invoker,
      instanceTypes: (objects) => poolInstanceTypes(cache, objects),
      discovery: workerWalkDiscovery({
        workers,
        instanceTypes: (objects) => poolSpecs(cache, objects),
        // From source the threads start on the adapter's source entry; a bundle entry is never used here.
        bundleEntry: import.meta.url,
      }),
      clock: h.clock,
      nonce,
      metrics: h.metrics,
    },
    settings: { clusterName: h.clusterName, options: passOptions(options), leaseTtlMs: undefined },
    obs: obs(h),
  };
  return createConsolidateHandler(() => Promise.resolve(deps));
}

export interface TestAdmitSettings {
  readonly options?: Partial<PassOptions>;
  readonly settlingDelayMs?: number;
  readonly lockWaitMs?: number;
  /** Real milliseconds between attempts at a held lock. */
  readonly lockPollMs?: number;
}

export function admitDepsFor(h: E2eHarness, s: TestAdmitSettings = {}): AdmitHandlerDeps {
  const o = obs(h);
  return {
    loop: {
      cluster: h.cluster(),
      store: h.store(),
      instanceTypes: typesOf(h),
      launch: launchThrough(h.invoker),
      newId: commandIds(nonce),
      // The settling delay passes on the harness's clock at once; polling waits real (short) time.
      sleep: async (ms) => {
        h.clock.advance(ms);
        await new Promise<void>((resolve) => setImmediate(resolve));
      },
      poll: (ms) => systemTimer.sleep(ms),
      clock: h.clock,
      nonce,
      metrics: h.metrics,
      logger: o.logger,
    },
    settings: {
      clusterName: h.clusterName,
      options: passOptions(s.options ?? {}),
      settlingDelayMs: s.settlingDelayMs ?? 15_000,
      lockWaitMs: s.lockWaitMs ?? 0,
      lockPollMs: s.lockPollMs ?? 5,
    },
    obs: o,
  };
}

export function admitHandler(h: E2eHarness, s: TestAdmitSettings = {}) {
  const deps = admitDepsFor(h, s);
  return createAdmitHandler(() => Promise.resolve(deps));
}

/** consolidate → admit → launch-aws / launch-gcp through the in-process invoker. */
export function wireDisruption(h: E2eHarness, s: TestAdmitSettings = {}): void {
  const admit = admitHandler(h, s);
  const aws = launchHandler(h, 'aws');
  const gcp = launchHandler(h, 'gcp');
  h.invoker.register('admit', (payload) => admit(payload, lambdaContext('admit')));
  h.invoker.register('launch-aws', (payload) => aws(payload, lambdaContext('launch-aws')));
  h.invoker.register('launch-gcp', (payload) => gcp(payload, lambdaContext('launch-gcp')));
}

/**
 * A harness for replacements on both clouds: a small and a large GPU type per cloud (so an underused large
 * node has a cheaper replacement), budgets of 100% (no budget holds a command back), disruption wired.
 */
export async function startReplacementHarness(
  options: Pick<E2eOptions, 'bookmarks'> = {},
): Promise<E2eHarness> {
  const h = await startHarness({
    ...options,
    objects: [
      withBudget(nodePool('aws-gpu', 'aws', { instanceTypes: ['g5.xlarge', 'g5.12xlarge'] }), '100%'),
      withBudget(nodePool('gcp-gpu', 'gcp', { instanceTypes: ['g2-standard-4', 'g2-standard-24'] }), '100%'),
    ],
  });
  wireDisruption(h);
  return h;
}

export const runConsolidate = async (h: E2eHarness, options: Partial<PassOptions> = {}) => {
  const r = await consolidateHandler(h, options)(scheduledEvent(h.clock), lambdaContext('consolidate'));
  await h.invoker.settled();
  return r;
};

/** Deletes a pod at once (no grace period), as a finished Job's pod goes. */
export function removePod(h: E2eHarness, name: string, namespace = 'default'): void {
  h.kube.store.delete(h.kube.typeOf('Pod'), namespace, name, { gracePeriodSeconds: 0 });
}

/** The node a pod is bound to. */
export const nodeOf = (h: E2eHarness, pod: string): string | undefined =>
  (h.list('Pod').find((p) => p.metadata.name === pod)?.spec as { nodeName?: string } | undefined)?.nodeName;

/** A NodePool fixture with one disruption budget (`nodes`: a count or a percentage). */
export function withBudget(pool: KubeObject, nodes: string): KubeObject {
  const spec = pool.spec as { disruption: Record<string, unknown> };
  return { ...pool, spec: { ...spec, disruption: { ...spec.disruption, budgets: [{ nodes }] } } };
}

/** A registered, initialized, empty Node of a NodePool, as lifecycle leaves it (no instance behind it). */
export function emptyNode(name: string, pool: string, type = 'g5.xlarge', zone = 'us-east-1a'): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'kubernetes.io/hostname': name,
        'node.kubernetes.io/instance-type': type,
        'topology.kubernetes.io/zone': zone,
        'karpenter.sh/capacity-type': 'on-demand',
        'karpenter.sh/nodepool': pool,
        'karpenter.sh/registered': 'true',
        'karpenter.sh/initialized': 'true',
        'kraftsman.dev/cloud': 'aws',
      },
    },
    spec: { providerID: `aws:///${zone}/i-${name}` },
    status: {
      allocatable: { cpu: '3900m', memory: '15Gi', pods: '58', 'nvidia.com/gpu': '1' },
      conditions: [{ type: 'Ready', status: 'True' }],
    },
  };
}

/** The 1-GPU node shape of each cloud's GPU pool the disruption tests use. */
export const GPU_NODE_SHAPES = {
  aws: { pool: 'aws-gpu', type: 'g5.xlarge', zone: 'us-east-1a' },
  gcp: { pool: 'gcp-gpu', type: 'g2-standard-4', zone: 'us-central1-a' },
} as const;

/** A registered, initialized, empty 1-GPU Node of the cloud's pool (no instance behind it). */
export function emptyGpuNode(cloud: keyof typeof GPU_NODE_SHAPES, name: string): KubeObject {
  const c = GPU_NODE_SHAPES[cloud];
  const n = emptyNode(name, c.pool, c.type, c.zone);
  if (cloud === 'aws') return n;
  const labels = { ...(n.metadata.labels as Record<string, string>), 'kraftsman.dev/cloud': 'gcp' };
  return {
    ...n,
    metadata: { ...n.metadata, labels },
    spec: { providerID: `gce://${GCE_PROJECT}/${c.zone}/${name}` },
  };
}

/** An emptiness proposal for these nodes, as consolidate would hand it over. */
export const deleteProposal = (node: string) =>
  ({
    method: 'emptiness',
    reason: 'Empty',
    candidates: [node],
    replacements: [],
    savingsPerHour: 1,
  }) as const;
