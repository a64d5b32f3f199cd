// Peak memory of one pass (docs/benchmarks.md, bench:pass): run in a fresh process so the figure is this pass's
// alone — the fleet is generated, one whole census (or walk) simulated in the given mode, and the process's peak
// resident set and CPU time printed as JSON. Usage:
//   tsx test/bench/pass-memory.ts <nodes> <pending> <upstream|kraftsman> [--fleet ramp|training] [--walk]
//     [--entries FILE] (the census's entries, to compare decisions across builds)
//     [--heap-snapshot FILE --snapshot-at K] (a census's heap written when its K-th candidate starts, the pass's
//     context still alive: what holds the memory, read with test/bench/heap-retainers.ts)
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { getHeapStatistics, writeHeapSnapshot } from 'node:v8';
import { runCensus } from '../../shared/disruption/census.ts';
import { passOptions } from '../../shared/disruption/types.ts';
import { NOW, walk } from './pass-walk.ts';
import { BENCH_FLEETS, fleetSnapshot, type BenchFleet } from './ramp-snapshot.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    fleet: { type: 'string' },
    walk: { type: 'boolean' },
    entries: { type: 'string' },
    'heap-snapshot': { type: 'string' },
    'snapshot-at': { type: 'string' },
  },
});
const [nodes, pending, mode] = positionals;
if (!nodes || !pending || (mode !== 'upstream' && mode !== 'kraftsman'))
  throw new Error(
    'usage: pass-memory.ts <nodes> <pending> <upstream|kraftsman> [--fleet ramp|training] [--walk]',
  );
const fleet = (values.fleet ?? 'ramp') as BenchFleet;
if (!BENCH_FLEETS.includes(fleet))
  throw new Error(`pass-memory.ts --fleet must be one of ${BENCH_FLEETS.join(', ')}, got "${values.fleet}"`);

/** The V8 heap as each candidate starts: the most in use (live and not yet collected) and the most reserved. */
const heap = { usedMb: 0, totalMb: 0 };

const s = fleetSnapshot(fleet, Number(nodes), Number(pending));
const before = process.resourceUsage().maxRSS;
const options = passOptions({ upstream: mode === 'upstream' });
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const result = values.walk ? walkFigures() : censusFigures();
const cpu = process.cpuUsage(cpu0);
const elapsedMs = performance.now() - t0;
process.stdout.write(
  `${JSON.stringify({ fleet, mode, what: values.walk ? 'walk' : 'census', ...result, censusMs: elapsedMs, cpuMs: (cpu.user + cpu.system) / 1000, peakRssMb: process.resourceUsage().maxRSS / 1024, fleetRssMb: before / 1024 })}\n`,
);

function censusFigures() {
  const at = Number(values['snapshot-at'] ?? 0);
  let started = 0;
  const work = () => {
    if (++started === at && values['heap-snapshot']) writeHeapSnapshot(values['heap-snapshot']);
    const h = getHeapStatistics();
    heap.usedMb = Math.max(heap.usedMb, h.used_heap_size / 1048576);
    heap.totalMb = Math.max(heap.totalMb, h.total_heap_size / 1048576);
  };
  const r = runCensus(s, NOW, options, { elapsedMs: () => performance.now(), work }, { timeoutMs: Infinity });
  if (values.entries) writeFileSync(values.entries, JSON.stringify(r, null, 1));
  const decisions: Record<string, number> = {};
  for (const e of r.candidates) decisions[e.decision] = (decisions[e.decision] ?? 0) + 1;
  return { reached: r.reached, truncated: r.truncated, decisions, heap };
}

function walkFigures() {
  const w = walk(s, options);
  return { reached: w.candidates, truncated: false, outcomes: w.outcomes, delta: w.delta };
}
