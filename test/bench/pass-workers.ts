// bench:pass --workers 1,2 (docs/mechanisms/parallel-discovery.md, docs/benchmarks.md "5,000 nodes"): `kraftsman
// plan` and `kraftsman census` through the CLI's module entry on ramp or training fleets, each run in a fresh
// process (pass-workers-run.ts): wall, CPU of every thread, peak resident set (all threads), whether the JSON is
// byte-identical to one worker's, how many candidates the workers answered; and the growth from the first fleet
// size to the last (plan and census CPU ratios against the issue's goal of at most 6× from 1,000 to 5,000 nodes).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateRamp } from '../fixtures/fleet/ramp.ts';
import { generateTraining } from '../fixtures/fleet/training/index.ts';
import type { WorkersRunLine } from './pass-workers-run.ts';
import type { BenchFleet } from './ramp-snapshot.ts';

const NOW = '2026-11-30T00:00:00Z';
const RUNNER = join(import.meta.dirname, 'pass-workers-run.ts');
/** The issue's goal: walk CPU from 1,000 to 5,000 nodes at most 6× (1.2× linear). */
const GROWTH_GOAL = 6;

export interface WorkersRun {
  readonly command: 'plan' | 'census';
  readonly nodes: number;
  readonly pending: number;
  readonly workers: number;
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly peakRssMb: number;
  readonly sameAsOne: boolean;
  readonly answered: number;
  readonly summary: string;
}

export interface WorkersBenchOptions {
  readonly fleet: BenchFleet;
  /** Fleet sizes as [nodes, pending] pairs, smallest first (the growth is read from the first to the last). */
  readonly sizes: readonly (readonly [number, number])[];
  readonly counts: readonly number[];
  readonly commands: readonly ('plan' | 'census')[];
}

function runOnce(command: string, workers: number, file: string): WorkersRunLine {
  const out = execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      RUNNER,
      '--command',
      command,
      '--workers',
      String(workers),
      '--file',
      file,
      '--now',
      NOW,
    ],
    { encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return JSON.parse(out.trim().split('\n').pop() ?? '') as WorkersRunLine;
}

function summarize(command: string, stdout: string): string {
  const j = JSON.parse(stdout) as {
    commands?: { method: string }[];
    pass?: { candidates: number; evaluated: number; timedOut: boolean };
    reached?: number;
    truncated?: boolean;
  };
  if (command === 'census') return `${j.reached} candidates judged${j.truncated ? ', truncated' : ''}`;
  const methods = [...new Set((j.commands ?? []).map((c) => c.method))].join(',') || 'none';
  return `${j.commands?.length ?? 0} commands (${methods}), ${j.pass?.evaluated} evaluated${j.pass?.timedOut ? ', timed out' : ''}`;
}

const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

function fleetFile(fleet: BenchFleet, nodes: number, pending: number): string {
  const { objects } =
    fleet === 'ramp' ? generateRamp({ nodes, pending }) : generateTraining({ nodes, pending });
  const file = join(mkdtempSync(join(tmpdir(), 'kraftsman-bench-')), `${fleet}-${nodes}.json`);
  writeFileSync(file, JSON.stringify(objects));
  return file;
}

export function workersBench(o: WorkersBenchOptions, log: (line: string) => void): WorkersRun[] {
  const runs: WorkersRun[] = [];
  for (const [nodes, pending] of o.sizes) {
    const file = fleetFile(o.fleet, nodes, pending);
    log(`--workers on ${o.fleet} (${nodes} nodes, ${pending} pending); load average ${load()}`);
    log('command  workers  wall       CPU (all threads)  peak RSS   same JSON as 1  answered  outcome');
    for (const command of o.commands) {
      let one: string | undefined;
      for (const workers of o.counts) {
        const r = runOnce(command, workers, file);
        one ??= r.sha256;
        const run: WorkersRun = {
          command,
          nodes,
          pending,
          workers,
          wallMs: r.wallMs,
          cpuMs: r.cpuMs,
          peakRssMb: r.peakRssMb,
          sameAsOne: r.sha256 === one,
          answered: r.answered,
          summary: summarize(command, r.stdout),
        };
        runs.push(run);
        log(
          `${command.padEnd(8)} ${String(workers).padEnd(8)} ${`${(run.wallMs / 1000).toFixed(1)} s`.padEnd(10)} ${`${(run.cpuMs / 1000).toFixed(1)} s`.padEnd(18)} ${`${run.peakRssMb.toFixed(0)} MB`.padEnd(10)} ${(run.sameAsOne ? 'yes' : 'NO').padEnd(15)} ${String(run.answered).padEnd(9)} ${run.summary}`,
        );
      }
    }
    log(`load average after: ${load()}`);
  }
  logGrowth(o, runs, log);
  return runs;
}

/** CPU with one worker at the last size over the first, against nodes' own ratio and the goal. */
function logGrowth(o: WorkersBenchOptions, runs: readonly WorkersRun[], log: (line: string) => void): void {
  const first = o.sizes[0];
  const last = o.sizes[o.sizes.length - 1];
  if (!first || !last || first === last) return;
  for (const command of o.commands) {
    const at = (nodes: number) =>
      runs.find((r) => r.command === command && r.nodes === nodes && r.workers === 1);
    const a = at(first[0]);
    const b = at(last[0]);
    if (!a || !b) continue;
    const ratio = b.cpuMs / a.cpuMs;
    const linear = last[0] / first[0];
    // The goal is stated for 1,000 → 5,000 nodes: other sizes print the ratio only.
    const goal =
      first[0] === 1000 && last[0] === 5000
        ? `goal ≤ ${GROWTH_GOAL}× ${ratio <= GROWTH_GOAL ? 'met' : 'NOT met'}`
        : `the goal (≤ ${GROWTH_GOAL}×) is for 1,000 → 5,000 nodes: not judged`;
    log(
      `growth ${command} ${first[0]} → ${last[0]} nodes (1 worker CPU): ${ratio.toFixed(2)}× (${(ratio / linear).toFixed(2)}× linear); ${goal}`,
    );
  }
}
