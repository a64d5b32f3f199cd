// bench:schedule (docs/benchmarks.md): pods per second of one provisioning solve on Karpenter's benchmark mix
// (one NodePool, 400 instance types, no nodes) at 1,000 / 5,000 / 20,000 pods; nodes opened; peak memory.
// Usage: npm run bench:schedule [-- --sizes 1000,5000 --runs 3 --json FILE]
import { writeFileSync } from 'node:fs';
import { catalogSchema } from '../../shared/model/catalog.ts';
import { simulateProvisioning } from '../../shared/provisioning/simulate.ts';
import { buildInstanceTypes } from '../../shared/scheduling/instance-type.ts';
import { recognize } from '../../shared/state/recognize.ts';
import { buildSnapshot } from '../../shared/state/snapshot.ts';
import { generateKarpenterMix } from '../fixtures/fleet/karpenter-mix.ts';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const sizes = (arg('sizes') ?? '1000,5000,20000').split(',').map(Number);
const runs = Number(arg('runs') ?? 3);
const rows: {
  pods: number;
  podsPerSecond: number;
  medianMs: number;
  nodes: number;
  peakHeapMB: number;
  peakRssMB: number;
}[] = [];

for (const pods of sizes) {
  const mix = generateKarpenterMix({ pods, seed: 1 });
  const { objects } = recognize(mix.objects.map((value) => ({ source: 'karpenter-mix', value })));
  const types = buildInstanceTypes(catalogSchema.parse(mix.catalog).instanceTypes);
  const times: number[] = [];
  let nodes = 0;
  let peakHeap = 0;
  let peakRss = 0;
  for (let r = 0; r < runs; r++) {
    global.gc?.();
    const start = performance.now();
    const snapshot = buildSnapshot(objects, types);
    const result = simulateProvisioning(snapshot, { upstream: false });
    times.push(performance.now() - start);
    nodes = result.nodeClaims.length;
    const m = process.memoryUsage();
    peakHeap = Math.max(peakHeap, m.heapUsed);
    peakRss = Math.max(peakRss, m.rss);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] as number;
  rows.push({
    pods,
    podsPerSecond: Math.round((pods / median) * 1000),
    medianMs: Math.round(median),
    nodes,
    peakHeapMB: Math.round(peakHeap / 2 ** 20),
    peakRssMB: Math.round(peakRss / 2 ** 20),
  });
}

console.log(
  'bench:schedule — karpenter-mix (1 NodePool, 400 instance types, no existing nodes), median of',
  runs,
  'runs',
);
console.log('pods      pods/s    median ms  nodes  peak heap MB  peak RSS MB');
for (const r of rows) {
  console.log(
    `${String(r.pods).padEnd(10)}${String(r.podsPerSecond).padEnd(10)}${String(r.medianMs).padEnd(11)}${String(r.nodes).padEnd(7)}${String(r.peakHeapMB).padEnd(14)}${r.peakRssMB}`,
  );
}
const json = arg('json');
if (json) writeFileSync(json, JSON.stringify({ bench: 'schedule', rows }, null, 2));
