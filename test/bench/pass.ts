// bench:pass (docs/benchmarks.md): one consolidation pass on ramp-3400 or the training fleet (--fleet), upstream mode vs kraftsman, in one run and
// alternating. Whole walks (every candidate, no budget, no stop at a command) and whole censuses — no sample
// extrapolated — at each backlog; per-candidate median and p99, stage split, peak memory, JSON with --json.
// Usage: npm run bench:pass -- [--fleet ramp|training] [--nodes N] [--pending 0,1000,3400] [--upstream-pending 0,1000] [--census 3400]
//   [--candidates K] [--skip-extras] [--json FILE]
//        npm run bench:pass -- --workers 1,2 [--fleet ramp|training] [--nodes N[,N…]] [--pending N[,N…]]
//   [--commands plan,census]   (only plan and census through the CLI per worker count, each in a fresh process;
//   --nodes 1000,5000 --pending 3400,15000 pairs the sizes and prints the growth from the first to the last;
//   pass-workers.ts)
// (--candidates K simulates an evenly spaced K of the walk, for quick checks only; reported goals need 0 = all.
// Upstream walks only at --upstream-pending: a whole upstream walk at 3,400 pending takes hours, and is reported
// as not measured rather than extrapolated.)
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { buildCandidates } from '../../shared/disruption/candidates.ts';
import { consolidationFilter, sortCandidates } from '../../shared/disruption/method.ts';
import { passContext, STAGES } from '../../shared/disruption/pass-context.ts';
import { passOptions } from '../../shared/disruption/types.ts';
import { measureCoverage } from './coverage-measure.ts';
import { negativeCacheBench } from './pass-negative.ts';
import { byCascade, median, NOW, p99, walk, type Walk } from './pass-walk.ts';
import { BENCH_FLEETS, fleetSnapshot, type BenchFleet } from './ramp-snapshot.ts';
import { workersBench } from './pass-workers.ts';

const { values } = parseArgs({
  options: {
    nodes: { type: 'string' },
    pending: { type: 'string' },
    census: { type: 'string' },
    candidates: { type: 'string' },
    'upstream-pending': { type: 'string' },
    'skip-extras': { type: 'boolean' },
    json: { type: 'string' },
    fleet: { type: 'string' },
    workers: { type: 'string' },
    commands: { type: 'string' },
  },
});
const FLEET = (values.fleet ?? 'ramp') as BenchFleet;
if (!BENCH_FLEETS.includes(FLEET))
  throw new Error(`--fleet must be one of ${BENCH_FLEETS.join(', ')}, got "${values.fleet}"`);
const NODES = Number(values.nodes ?? 1000);
const BACKLOGS = (values.pending ?? '0,1000,3400').split(',').map(Number);
const CENSUS = (values.census ?? '3400').split(',').filter(Boolean).map(Number);
const LIMIT = Number(values.candidates ?? 0);
const UPSTREAM = new Set(
  (values['upstream-pending'] ?? (LIMIT ? BACKLOGS.join(',') : '0,1000'))
    .split(',')
    .filter(Boolean)
    .map(Number),
);
const HOURS =
  'upstream not walked (not in --upstream-pending; a whole upstream walk at 3,400 pending takes hours on a shared 2-core machine): no figure extrapolated';
const log = (line: string) => process.stdout.write(`${line}\n`);
const ms = (x: number) => `${x.toFixed(0)} ms`;
const s1 = (x: number) => `${(x / 1000).toFixed(1)} s`;
const decidedReplaced = (x: Walk) => x.replaced.filter((r): r is number => r !== undefined);
const MODES = { upstream: passOptions({ upstream: true }), kraftsman: passOptions({}) } as const;
type Mode = keyof typeof MODES;
/** Alternate which mode goes first, so neither always runs on the warmer (or busier) machine. */
const order = (i: number): Mode[] => (i % 2 === 0 ? ['upstream', 'kraftsman'] : ['kraftsman', 'upstream']);
const results: Record<string, unknown> = { nodes: NODES, candidates: LIMIT || 'all' };

/** --workers mode: --nodes and --pending as lists paired by position (one --pending serves every size). */
function workerSizes(): [number, number][] {
  const nodes = (values.nodes ?? '1000').split(',').map(Number);
  const pending = (values.pending ?? '3400').split(',').map(Number);
  if ([...nodes, ...pending].some((n) => !Number.isInteger(n) || n < 0))
    throw new Error(
      `--nodes and --pending must list whole numbers, got "${values.nodes}" and "${values.pending}"`,
    );
  if (pending.length !== 1 && pending.length !== nodes.length)
    throw new Error(
      `--pending must give one backlog or one per --nodes size (${nodes.length}), got ${pending.length}`,
    );
  return nodes.map((n, i) => [n, pending[pending.length === 1 ? 0 : i] as number]);
}

function workerCommands(): ('plan' | 'census')[] {
  const list = (values.commands ?? 'plan,census').split(',');
  const bad = list.filter((c) => c !== 'plan' && c !== 'census');
  if (bad.length > 0) throw new Error(`--commands lists plan and census only, got "${bad.join(',')}"`);
  return list as ('plan' | 'census')[];
}

if (values.workers) {
  const counts = values.workers.split(',').map(Number);
  if (counts.some((n) => !Number.isInteger(n) || n < 1))
    throw new Error(`--workers must list whole numbers >= 1, got "${values.workers}"`);
  const runs = workersBench({ fleet: FLEET, sizes: workerSizes(), counts, commands: workerCommands() }, log);
  if (values.json) writeFileSync(values.json, JSON.stringify({ ...results, workers: runs }, null, 2));
  process.exit(0);
}

// 1 + 2: whole walks at each backlog (same nodes: the generator draws nodes before the backlog).
const walks: Record<number, Partial<Record<Mode, Walk>>> = {};
BACKLOGS.forEach((pending, i) => {
  const s = fleetSnapshot(FLEET, NODES, pending);
  walks[pending] = {};
  for (const mode of order(i)) {
    if (mode === 'upstream' && !UPSTREAM.has(pending)) {
      log(`walk @${pending} pending: ${HOURS}`);
      continue;
    }
    const w = walk(s, MODES[mode], LIMIT);
    (walks[pending] as Partial<Record<Mode, Walk>>)[mode] = w;
    log(
      `walk @${pending} pending, ${mode}: ${w.candidates} candidates in ${s1(w.totalMs)} (CPU ${s1(w.cpuMs)}), median ${ms(median(w.perCandidate))}, p99 ${ms(p99(w.perCandidate))}; outcomes ${JSON.stringify(w.outcomes)}${mode === 'kraftsman' ? `; delta decided ${w.delta.decided}, fell back ${JSON.stringify(w.delta.fallbacks)}; backlog pods re-placed per decided candidate median ${median(decidedReplaced(w))}, p99 ${p99(decidedReplaced(w))}` : ''}`,
    );
  }
});
const w = (pending: number, mode: Mode): Walk | undefined => walks[pending]?.[mode];
log(`fleet: ${FLEET} (${NODES} nodes; --fleet ramp|training)`);
log('\n1. whole single-node walk (no time budget), by backlog');
log(`backlog  mode        candidates  total      CPU        median/cand  p99/cand   ${STAGES.join(' / ')}`);
for (const pending of BACKLOGS)
  for (const mode of ['upstream', 'kraftsman'] as const) {
    const x = w(pending, mode);
    if (!x) {
      log(`${String(pending).padEnd(8)} ${mode.padEnd(11)} ${HOURS}`);
      continue;
    }
    log(
      `${String(pending).padEnd(8)} ${mode.padEnd(11)} ${String(x.candidates).padEnd(11)} ${s1(x.totalMs).padStart(8)}   ${s1(x.cpuMs).padStart(8)}   ${ms(median(x.perCandidate)).padEnd(12)} ${ms(p99(x.perCandidate)).padEnd(10)} ${STAGES.map((st) => ms(x.stages[st])).join(' / ')}`,
    );
  }
results.walk = walks;
log(
  "\n1b. kraftsman's cost by the first-fit cascade a candidate's pods set off (backlog pods its full simulation re-places)",
);
const cascade: Record<number, ReturnType<typeof byCascade>> = {};
for (const pending of BACKLOGS) {
  const k = w(pending, 'kraftsman');
  if (!k) continue;
  cascade[pending] = byCascade(k);
  const rows = cascade[pending].map((b) => `${b.range}: ${b.candidates}, median ${b.medianMs.toFixed(1)} ms`);
  log(`${String(pending).padEnd(8)} ${rows.length ? rows.join('; ') : 'no candidate decided by the delta'}`);
}
results.cascade = cascade;

// Census in a fresh process per mode, so its peak resident set is the pass's own.
interface CensusRun {
  readonly mode: Mode;
  readonly censusMs: number;
  /** CPU time of the census (user + system of its process). */
  readonly cpuMs: number;
  readonly reached: number;
  readonly truncated: boolean;
  readonly peakRssMb: number;
  readonly fleetRssMb: number;
}
const censuses: Record<number, Partial<Record<Mode, CensusRun>>> = {};
CENSUS.forEach((pending, i) => {
  censuses[pending] = {};
  for (const mode of order(i)) {
    const out = execFileSync(
      process.execPath,
      // --fleet: until session 32 this census ran on the ramp whatever --fleet said
      [
        '--import',
        'tsx',
        'test/bench/pass-memory.ts',
        String(NODES),
        String(pending),
        mode,
        '--fleet',
        FLEET,
      ],
      { encoding: 'utf8', maxBuffer: 1 << 20 },
    );
    const run = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as CensusRun;
    (censuses[pending] as Partial<Record<Mode, CensusRun>>)[mode] = run;
    log(
      `census @${pending} pending, ${mode}: ${s1(run.censusMs)} (CPU ${s1(run.cpuMs)}; ${run.reached} candidates judged${run.truncated ? ', CUT OFF' : ''}), peak RSS ${run.peakRssMb.toFixed(0)} MB (fleet alone ${run.fleetRssMb.toFixed(0)} MB)`,
    );
  }
});
results.census = censuses;

if (!values['skip-extras']) extras();
if (values.json) writeFileSync(values.json, JSON.stringify(results, null, 2));
goals();

// 3–5 are about decisions and memory across passes, not speed: measured on a sample of the walk.
function extras(): void {
  log(
    '\n3. multiple_replacements_required skips per evaluated candidate (the fork reported ~0, 0.045, 0.222 without attribution)',
  );
  const rates: Record<number, Record<string, number>> = {};
  for (const pending of [100, 2049, 2781]) {
    const s = fleetSnapshot(FLEET, NODES, pending);
    rates[pending] = {};
    for (const [label, options] of [
      ['with attribution', passOptions({})],
      ['without attribution', passOptions({ attributeReplacements: false })],
    ] as const) {
      const x = walk(s, options, 8);
      const rate = (x.outcomes['multiple-replacements-required'] ?? 0) / Math.max(1, x.candidates);
      (rates[pending] as Record<string, number>)[label] = rate;
      log(
        `backlog ${String(pending).padEnd(5)} ${label.padEnd(20)} ${rate.toFixed(3)}  (${x.candidates} sampled)`,
      );
    }
  }
  results.multipleReplacements = rates;
  const last = BACKLOGS.at(-1) ?? 3400;
  const k = w(last, 'kraftsman') as Walk;
  const s = fleetSnapshot(FLEET, NODES, last);
  const ctx = passContext(s, NOW, MODES.kraftsman);
  const sorted = sortCandidates(
    buildCandidates({ snapshot: s, pdbs: ctx.pdbs(), now: NOW }).candidates.filter(
      (c) => consolidationFilter(c) === true,
    ),
  );
  const cost = k.totalMs / Math.max(1, k.candidates);
  const cov = measureCoverage({ sorted, costMs: () => cost });
  log(
    `\n4. coverage at a budget of a tenth of a walk (${sorted.length} candidates): upstream ${cov.upstream.passes ?? `never (${(cov.upstream.reached * 100).toFixed(0)}% reached)`} passes, coverage cycle ${cov.coverageCycle.passes} passes (goal: <= ${cov.bound})`,
  );
  results.coverage = {
    bound: cov.bound,
    upstream: cov.upstream.passes ?? null,
    coverageCycle: cov.coverageCycle.passes ?? null,
  };
  const neg = negativeCacheBench();
  log(
    `\n5. negative cache over 10 passes on an unchanged ${neg.nodes}-node fleet: hit rate ${neg.hitRate.toFixed(2)}; simulation time skipping off ${ms(neg.offMs)}, on ${ms(neg.onMs)}`,
  );
  results.negativeCache = neg;
}

// Closing note: the issue's goals from this run's figures, both modes side by side.
function goals(): void {
  const verdict = (ok: boolean) => (ok ? 'met' : 'not met');
  const last = BACKLOGS.at(-1) ?? 3400;
  log(`\ngoals (this run, ${NODES} nodes${LIMIT ? `, ONLY ${LIMIT} candidates: not a goal figure` : ''}):`);
  const k0 = w(0, 'kraftsman');
  const kl = w(last, 'kraftsman') as Walk;
  const u0 = w(0, 'upstream');
  const ul = w(last, 'upstream');
  if (k0) {
    const ratio = median(kl.perCandidate) / Math.max(1e-9, median(k0.perCandidate));
    const ur =
      ul && u0
        ? `${(median(ul.perCandidate) / Math.max(1e-9, median(u0.perCandidate))).toFixed(2)}x`
        : 'not walked';
    log(
      `  per-candidate median at ${last} vs 0 pending <= 1.5x: kraftsman ${ms(median(kl.perCandidate))} vs ${ms(median(k0.perCandidate))} = ${ratio.toFixed(2)}x (upstream ${ur}) — ${verdict(ratio <= 1.5)}`,
    );
  }
  for (const pending of BACKLOGS) {
    const k = w(pending, 'kraftsman') as Walk;
    const u = w(pending, 'upstream');
    if (!u) {
      log(`  whole walk at ${pending}, kraftsman vs upstream >= 20x: kraftsman ${s1(k.totalMs)}; ${HOURS}`);
      continue;
    }
    const speedup = u.totalMs / Math.max(1e-9, k.totalMs);
    const cpu = u.cpuMs / Math.max(1e-9, k.cpuMs);
    log(
      `  whole walk at ${pending}, kraftsman vs upstream >= 20x: ${s1(k.totalMs)} vs ${s1(u.totalMs)} = ${speedup.toFixed(1)}x (CPU ${s1(k.cpuMs)} vs ${s1(u.cpuMs)} = ${cpu.toFixed(1)}x) — ${verdict(speedup >= 20)}`,
    );
  }
  const c = censuses[last];
  if (c?.kraftsman && c.upstream) {
    const cs = c.upstream.censusMs / Math.max(1e-9, c.kraftsman.censusMs);
    const cc = c.upstream.cpuMs / Math.max(1e-9, c.kraftsman.cpuMs);
    log(
      `  whole census at ${last}, kraftsman vs upstream >= 20x: ${s1(c.kraftsman.censusMs)} vs ${s1(c.upstream.censusMs)} = ${cs.toFixed(1)}x (CPU ${s1(c.kraftsman.cpuMs)} vs ${s1(c.upstream.cpuMs)} = ${cc.toFixed(1)}x) — ${verdict(cs >= 20)}`,
    );
    log(
      `  peak memory of a pass (census) < 1 GB: kraftsman ${c.kraftsman.peakRssMb.toFixed(0)} MB, upstream ${c.upstream.peakRssMb.toFixed(0)} MB — ${verdict(c.kraftsman.peakRssMb < 1024)}`,
    );
  } else log(`  whole census at ${last} and peak memory: not measured this run (--census)`);
  for (const pending of BACKLOGS) {
    const k = w(pending, 'kraftsman') as Walk;
    const perThousand = (k.cpuMs / Math.max(1, k.candidates)) * 1000;
    log(
      `  1,000-candidate walk < 30 s on one core at ${pending} pending (this walk's CPU per candidate x 1,000): ${s1(perThousand)} — ${verdict(perThousand < 30_000)}`,
    );
  }
  log(
    `  delta simulation decided ${kl.delta.decided} of ${kl.candidates} candidates at ${last}; the rest ran the full simulation`,
  );
}
