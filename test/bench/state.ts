// bench:state — read the ramp-3400 pass snapshot through the Kubernetes adapter against the emulator:
// cold (paginated full LIST) vs warm (WATCH catch-up after 1% of objects changed). Time and bytes, medians.
// Usage: npm run bench:state -- [--nodes 1000] [--pending 3400] [--seed 1] [--runs 3] [--page-size 500] [--json FILE]
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { defaultCrds } from '../../local/kube-api/crds.ts';
import { KubeApiEmulator } from '../../local/kube-api/server.ts';
import type { KubeObject } from '../../local/kube-api/store.ts';
import { KubeCluster, kubeConfigFor, makeClients } from '../../shared/adapters/kube/index.ts';
import { generateRamp } from '../fixtures/fleet/ramp.ts';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const v = Number(process.argv[i + 1]);
  if (!Number.isInteger(v) || v < 0)
    throw new Error(`--${name} must be a non-negative integer, got "${process.argv[i + 1]}"`);
  return v;
};
const jsonPath = process.argv.includes('--json')
  ? process.argv[process.argv.indexOf('--json') + 1]
  : undefined;
const nodes = arg('nodes', 1000);
const pending = arg('pending', 3400);
const seed = arg('seed', 1);
const runs = Math.max(1, arg('runs', 3));
const pageSize = arg('page-size', 500);

interface Sample {
  readonly ms: number;
  readonly bytes: number;
  readonly requests: number;
  readonly objects: number;
  readonly changes: number;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

/** Touches every hundredth object (an annotation bump, as a controller's status churn would): 1% changed. */
function changeOnePercent(emulator: KubeApiEmulator, objects: readonly KubeObject[], round: number): number {
  let changed = 0;
  for (let i = round % 100; i < objects.length; i += 100) {
    const o = objects[i] as KubeObject;
    const type = emulator.typeOf(String(o.kind), String(o.apiVersion));
    const ns = o.metadata.namespace as string | undefined;
    emulator.store.patch(
      type,
      ns,
      String(o.metadata.name),
      'application/merge-patch+json',
      { metadata: { annotations: { 'bench.kraftsman.dev/round': String(round) } } },
      undefined,
    );
    changed++;
  }
  return changed;
}

async function measure(emulator: KubeApiEmulator, cluster: KubeCluster): Promise<Sample> {
  const before = { ...emulator.stats };
  const t0 = performance.now();
  const read = await cluster.readSnapshot();
  const ms = performance.now() - t0;
  const reads = Object.values(read.reads);
  return {
    ms,
    bytes: emulator.stats.bytesOut - before.bytesOut,
    requests: emulator.stats.requests - before.requests,
    objects: reads.reduce((n, r) => n + r.objects, 0),
    changes: reads.reduce((n, r) => n + r.changes, 0),
  };
}

async function main(): Promise<void> {
  const fleet = generateRamp({ nodes, pending, seed }).objects as KubeObject[];
  const emulator = new KubeApiEmulator({ crds: defaultCrds(), historyLimit: 1_000_000 });
  emulator.seed(fleet);
  const url = await emulator.start();
  const clients = makeClients(kubeConfigFor(url, 'bench'));
  const cold: Sample[] = [];
  const warm: Sample[] = [];
  try {
    // Alternate: a fresh container (cold), then the same container after 1% churn (warm).
    for (let round = 0; round < runs; round++) {
      const cluster = new KubeCluster(clients, { pageSize });
      cold.push(await measure(emulator, cluster));
      changeOnePercent(emulator, fleet, round);
      warm.push(await measure(emulator, cluster));
    }
  } finally {
    await emulator.close();
  }
  const row = (mode: string, s: Sample[]) => ({
    mode,
    medianMs: Math.round(median(s.map((x) => x.ms))),
    minMs: Math.round(Math.min(...s.map((x) => x.ms))),
    bytes: median(s.map((x) => x.bytes)),
    requests: median(s.map((x) => x.requests)),
    objects: median(s.map((x) => x.objects)),
    changes: median(s.map((x) => x.changes)),
  });
  const rows = [row('cold (LIST)', cold), row('warm (WATCH catch-up)', warm)];
  const [c, w] = rows as [ReturnType<typeof row>, ReturnType<typeof row>];
  process.stdout.write(
    `bench:state  ramp nodes=${nodes} pending=${pending} seed=${seed} objects=${fleet.length} runs=${runs} page=${pageSize}\n`,
  );
  process.stdout.write(
    `${'mode'.padEnd(24)}${'median ms'.padStart(11)}${'min ms'.padStart(9)}${'MiB'.padStart(9)}${'requests'.padStart(10)}${'objects'.padStart(9)}${'changes'.padStart(9)}\n`,
  );
  for (const r of rows)
    process.stdout.write(
      `${r.mode.padEnd(24)}${String(r.medianMs).padStart(11)}${String(r.minMs).padStart(9)}${(r.bytes / 2 ** 20).toFixed(2).padStart(9)}${String(r.requests).padStart(10)}${String(r.objects).padStart(9)}${String(r.changes).padStart(9)}\n`,
    );
  process.stdout.write(
    `heap after the reads (adapter warm state + emulator store + fleet): ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MiB\n`,
  );
  process.stdout.write(
    `warm/cold: time ${(w.medianMs / c.medianMs).toFixed(3)}, bytes ${(w.bytes / c.bytes).toFixed(4)}\n`,
  );
  if (jsonPath)
    writeFileSync(
      jsonPath,
      `${JSON.stringify({ bench: 'state', nodes, pending, seed, runs, pageSize, objects: fleet.length, rows, cold, warm }, null, 2)}\n`,
    );
}

await main();
