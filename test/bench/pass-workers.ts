// bench:pass --workers 1,2 (docs/mechanisms/parallel-discovery.md): `kraftsman plan` and `kraftsman census` through
// the CLI's module entry on a ramp or training fleet, once per worker count: wall and process CPU (every thread),
// whether the JSON printed is byte-identical to one worker's, and how many candidates the workers answered.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { main } from '../../local/cli/main.ts';
import { SPECULATION_TOTALS } from '../../local/cli/workers/discovery-workers.ts';
import { generateRamp } from '../fixtures/fleet/ramp.ts';
import { generateTraining } from '../fixtures/fleet/training/index.ts';
import type { BenchFleet } from './ramp-snapshot.ts';

const NOW = '2026-11-30T00:00:00Z';

export interface WorkersRun {
  readonly command: 'plan' | 'census';
  readonly workers: number;
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly sameAsOne: boolean;
  readonly answered: number;
  readonly summary: string;
}

async function runOnce(argv: string[]): Promise<{ stdout: string; wallMs: number; cpuMs: number }> {
  const out: string[] = [];
  const err: string[] = [];
  const sink = (chunks: string[]) =>
    new Writable({
      write(c, _e, cb) {
        chunks.push(String(c));
        cb();
      },
    });
  const cpu = process.cpuUsage();
  const began = performance.now();
  const code = await main(argv, {
    stdout: sink(out),
    stderr: sink(err),
    stdin: Readable.from(['']),
    now: () => new Date(NOW),
  });
  const wallMs = performance.now() - began;
  const used = process.cpuUsage(cpu);
  if (code !== 0) throw new Error(`kraftsman ${argv.join(' ')} exited ${code}: ${err.join('')}`);
  return { stdout: out.join(''), wallMs, cpuMs: (used.user + used.system) / 1000 };
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

export async function workersBench(
  fleet: BenchFleet,
  nodes: number,
  pending: number,
  counts: readonly number[],
  log: (line: string) => void,
): Promise<WorkersRun[]> {
  const { objects } =
    fleet === 'ramp' ? generateRamp({ nodes, pending }) : generateTraining({ nodes, pending });
  const file = join(mkdtempSync(join(tmpdir(), 'kraftsman-bench-')), `${fleet}.json`);
  writeFileSync(file, JSON.stringify(objects));
  log(
    `--workers on ${fleet} (${nodes} nodes, ${pending} pending); load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  log('command  workers  wall       CPU (all threads)  same JSON as 1  answered  outcome');
  const runs: WorkersRun[] = [];
  for (const command of ['plan', 'census'] as const) {
    let one: string | undefined;
    for (const workers of counts) {
      const before = SPECULATION_TOTALS.answered;
      const r = await runOnce([
        command,
        '-f',
        file,
        '-o',
        'json',
        '--now',
        NOW,
        '--workers',
        String(workers),
      ]);
      one ??= r.stdout;
      const run: WorkersRun = {
        command,
        workers,
        wallMs: r.wallMs,
        cpuMs: r.cpuMs,
        sameAsOne: r.stdout === one,
        answered: SPECULATION_TOTALS.answered - before,
        summary: summarize(command, r.stdout),
      };
      runs.push(run);
      log(
        `${command.padEnd(8)} ${String(workers).padEnd(8)} ${`${(run.wallMs / 1000).toFixed(1)} s`.padEnd(10)} ${`${(run.cpuMs / 1000).toFixed(1)} s`.padEnd(18)} ${(run.sameAsOne ? 'yes' : 'NO').padEnd(15)} ${String(run.answered).padEnd(9)} ${run.summary}`,
      );
    }
  }
  log(
    `load average after: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  return runs;
}
