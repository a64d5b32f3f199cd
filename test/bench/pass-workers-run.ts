// One bench:pass --workers run in a fresh process (pass-workers.ts spawns it): `kraftsman plan|census` through the
// CLI's module entry, then one JSON line with wall, CPU of every thread, the process's peak resident set (its
// threads included) and what the workers answered, so each worker count's peak memory is its own.
import { createHash } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { main } from '../../local/cli/main.ts';
import { SPECULATION_TOTALS } from '../../shared/adapters/workers/index.ts';

export interface WorkersRunLine {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly peakRssMb: number;
  readonly answered: number;
  readonly taken: number;
  readonly sha256: string;
  readonly stdout: string;
}

const { values } = parseArgs({
  options: {
    command: { type: 'string' },
    workers: { type: 'string' },
    file: { type: 'string' },
    now: { type: 'string' },
  },
});
const { command, workers, file, now } = values;
if ((command !== 'plan' && command !== 'census') || !workers || !file || !now)
  throw new Error('usage: pass-workers-run.ts --command plan|census --workers N --file F --now ISO');

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
const code = await main([command, '-f', file, '-o', 'json', '--now', now, '--workers', workers], {
  stdout: sink(out),
  stderr: sink(err),
  stdin: Readable.from(['']),
  now: () => new Date(now),
});
const wallMs = performance.now() - began;
const used = process.cpuUsage(cpu);
if (code !== 0) throw new Error(`kraftsman ${command} exited ${code}: ${err.join('')}`);
const stdout = out.join('');
const line: WorkersRunLine = {
  wallMs,
  cpuMs: (used.user + used.system) / 1000,
  // maxRSS is in kilobytes: the whole process, every worker thread's heap included.
  peakRssMb: process.resourceUsage().maxRSS / 1024,
  answered: SPECULATION_TOTALS.answered,
  taken: SPECULATION_TOTALS.taken,
  sha256: createHash('sha256').update(stdout).digest('hex'),
  stdout,
};
process.stdout.write(`${JSON.stringify(line)}\n`);
process.exit(0);
