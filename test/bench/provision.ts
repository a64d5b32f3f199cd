// bench:provision — pod pending → NodeClaim created, through the provision handler against the Kubernetes, EC2
// and Compute Engine emulators and DynamoDB Local, on the real clock with the production batching (1 s idle,
// 10 s max, 500 ms polls: provisionConfig's defaults). Per burst size, ONE invocation watches while the burst's
// pods arrive over --arrival ms; the bench stamps each pod's arrival and each claim's creation (a recording
// wrapper around the real adapters) and prints latency p50/p99/max and pods per second.
// Usage: npm run bench:provision -- [--sizes 100,1000,3400] [--arrival 2000] [--json FILE]
import { writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createProvisionHandler } from '../../functions/provision/handler.ts';
import type { ProvisionHandlerDeps } from '../../functions/provision/deps.ts';
import { provisionConfig } from '../../shared/config/provision.ts';
import { InstanceTypeCache } from '../../shared/loop/instance-types.ts';
import type { Cluster } from '../../shared/ports/cluster/index.ts';
import type { StateStore } from '../../shared/ports/state-store/index.ts';
import {
  lambdaContext,
  nodePool,
  pod,
  scheduledEvent,
  startHarness,
  type E2eHarness,
} from '../support/e2e/index.ts';

const argValue = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? undefined : process.argv[i + 1];
};
const sizes = (argValue('sizes') ?? '100,1000,3400').split(',').map((s) => {
  const n = Number(s);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--sizes: "${s}" is not a positive integer`);
  return n;
});
const arrivalMs = Number(argValue('arrival') ?? 2000);
if (!Number.isFinite(arrivalMs) || arrivalMs < 0) throw new Error(`--arrival must be milliseconds ≥ 0`);
const jsonPath = argValue('json');
const CHUNKS = 10;

/** The production defaults, read the way the function reads them (only the endpoints are the harness's). */
const defaults = provisionConfig({
  KRAFTSMAN_CLUSTER_NAME: 'bench',
  AWS_REGION: 'us-east-1',
  KRAFTSMAN_TABLE_NAME: 'unused',
  KRAFTSMAN_KUBE_SERVER: 'https://127.0.0.1:6443',
  KRAFTSMAN_KUBE_TOKEN: 'unused',
  KRAFTSMAN_LAUNCH_AWS_FUNCTION: 'launch-aws',
  KRAFTSMAN_LAUNCH_GCP_FUNCTION: 'launch-gcp',
});

interface Stamps {
  readonly claimCreated: Map<string, number>;
  readonly podClaim: Map<string, string>;
}

/** Forwards every call to the real adapter; after the named ones resolve, `after` sees arguments and result. */
function recording<T extends object>(real: T, after: Partial<Record<keyof T, (args: unknown[]) => void>>): T {
  return new Proxy(real, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      const hook = after[prop as keyof T];
      const fn = value as (...a: unknown[]) => unknown;
      if (!hook) return fn.bind(target);
      return async (...args: unknown[]) => {
        const out = await fn.apply(target, args);
        hook(args);
        return out;
      };
    },
  });
}

/** One warm container for every burst: its adapters and instance-type cache outlive an invocation. */
function deps(h: E2eHarness, stamps: Stamps, windowMs: number): ProvisionHandlerDeps {
  const cluster = recording<Cluster>(h.cluster(), {
    createNodeClaim: (args) =>
      stamps.claimCreated.set(
        String((args[0] as { metadata: { name: string } }).metadata.name),
        performance.now(),
      ),
  });
  const store = recording<StateStore>(h.store(), {
    putNominations: (args) => {
      for (const n of args[1] as { podKey: string; claimName?: string }[])
        if (n.claimName) stamps.podClaim.set(n.podKey, n.claimName);
    },
  });
  const obs = { logger: h.logger.container(), metrics: h.metrics };
  return {
    loop: {
      cluster,
      store,
      invoker: h.invoker,
      instanceTypes: new InstanceTypeCache({ aws: h.ec2Provider(), gcp: h.gceProvider() }, h.clock, 60_000),
      clock: h.clock,
      timer: h.timer,
      nonce: randomUUID,
      ...obs,
    },
    settings: { ...defaults, clusterName: h.clusterName, watch: { ...defaults.watch, windowMs } },
    obs,
  };
}

const quantile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;

/** Half GPU trainers (one GPU each), half CPU services: the claims span several instance types. */
const burstPods = (burst: number, from: number, to: number) =>
  Array.from({ length: to - from }, (_, k) => {
    const i = from + k;
    return i % 2 === 0
      ? pod(`b${burst}-gpu-${i}`, { gpus: 1, cpu: '2', memory: '8Gi' })
      : pod(`b${burst}-svc-${i}`, { cpu: '500m', memory: '1Gi' });
  });

type Handler = ReturnType<typeof createProvisionHandler>;

async function burst(h: E2eHarness, handler: Handler, stamps: Stamps, size: number, index: number) {
  stamps.claimCreated.clear();
  stamps.podClaim.clear();
  const samplesBefore = h.metrics.samples.length;
  const arrived = new Map<string, number>();
  const run = handler(scheduledEvent(h.clock), lambdaContext('provision'));
  for (let c = 0; c < CHUNKS; c++) {
    const pods = burstPods(index, Math.floor((c * size) / CHUNKS), Math.floor(((c + 1) * size) / CHUNKS));
    h.seed(pods);
    const now = performance.now();
    for (const p of pods) arrived.set(`default/${String(p.metadata.name)}`, now);
    if (c < CHUNKS - 1) await new Promise((r) => setTimeout(r, arrivalMs / (CHUNKS - 1)));
  }
  const result = await run;
  await h.invoker.settled();
  const latencies: number[] = [];
  for (const [key, at] of arrived) {
    const claim = stamps.podClaim.get(key);
    const created = claim ? stamps.claimCreated.get(claim) : undefined;
    if (created !== undefined) latencies.push(created - at);
  }
  latencies.sort((a, b) => a - b);
  const lastClaim = Math.max(...stamps.claimCreated.values());
  const firstArrival = Math.min(...arrived.values());
  const solveMs = h.metrics.samples
    .slice(samplesBefore)
    .filter((s) => s.name === 'karpenter_provisioner_scheduling_duration_seconds')
    .reduce((t, s) => t + s.value * 1000, 0);
  return {
    pods: size,
    placed: latencies.length,
    claims: stamps.claimCreated.size,
    p50Ms: Math.round(quantile(latencies, 0.5)),
    p99Ms: Math.round(quantile(latencies, 0.99)),
    maxMs: Math.round(latencies.at(-1) ?? Number.NaN),
    burstMs: Math.round(lastClaim - firstArrival),
    podsPerSecond: Math.round((latencies.length / (lastClaim - firstArrival)) * 1000),
    solveMs: Math.round(solveMs),
    batches: 'batches' in result ? result.batches : 0,
  };
}

/** Each burst starts from an empty cluster: no in-flight claim of an earlier burst can take its pods. */
function clear(h: E2eHarness): void {
  for (const kind of ['Pod', 'NodeClaim'] as const)
    for (const o of h.list(kind))
      h.kube.store.delete(
        h.kube.typeOf(kind),
        o.metadata.namespace as string | undefined,
        String(o.metadata.name),
      );
}

async function main(): Promise<void> {
  const h = await startHarness({
    clusterName: 'bench',
    registerNodes: false,
    objects: [
      nodePool('bench-aws', 'aws', { weight: 10, capacityTypes: ['on-demand', 'spot'] }),
      nodePool('bench-gcp', 'gcp', { capacityTypes: ['on-demand', 'spot'] }),
    ],
  });
  // The launchers are other functions: provision records each launch and invokes; the launch is not timed here.
  h.invoker.register('launch-aws', async () => undefined);
  h.invoker.register('launch-gcp', async () => undefined);
  const stamps: Stamps = { claimCreated: new Map(), podClaim: new Map() };
  // Long enough for a burst to arrive and its batch to close (1 s idle); the batch itself may run past it.
  const warm = deps(h, stamps, arrivalMs + defaults.watch.idleMs + 2_000);
  const handler = createProvisionHandler(() => Promise.resolve(warm));
  const rows = [];
  try {
    // A small unreported burst first: the cold start (catalogs of both clouds, the first LIST) is not a batch's.
    await burst(h, handler, stamps, 10, 0);
    clear(h);
    for (const [i, size] of sizes.entries()) {
      rows.push(await burst(h, handler, stamps, size, i + 1));
      clear(h);
    }
  } finally {
    await h.close();
  }
  console.log(
    `bench:provision — ${arrivalMs} ms arrival per burst, batching ${defaults.watch.idleMs} ms idle / ${defaults.watch.maxMs} ms max, polls every ${defaults.watch.pollMs} ms`,
  );
  console.table(rows);
  if (jsonPath) writeFileSync(jsonPath, JSON.stringify({ arrivalMs, watch: defaults.watch, rows }, null, 2));
}

await main();
