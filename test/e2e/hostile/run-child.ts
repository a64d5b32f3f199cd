// Runs the real CLI (`node bin/kraftsman.mjs`) as a child process under a heap cap, with a probe that reports
// its peak memory and CPU time, and a wall-clock kill for anything that hangs.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PROBE = new URL('./probe.mjs', import.meta.url).href;
/** The heap cap every case runs under (V8's old space; the probe checks the whole process's peak RSS). */
export const HEAP_MB = 512;
/** A hang detector: a case still running after this long (wall clock) is killed and fails. The 5 s bound is
 * checked on the child's CPU time, which a loaded machine does not inflate. */
export const WALL_KILL_MS = Number(process.env.KRAFTSMAN_HOSTILE_WALL_MS ?? 45_000);

export interface ChildRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly killed: boolean;
  readonly maxRssKb: number | undefined;
  readonly cpuMs: number | undefined;
}

export interface ChildInput {
  readonly args: readonly string[];
  readonly stdin?: string;
  /** A FIFO the harness feeds without end (`yes`) while the CLI reads it. */
  readonly endlessFifo?: string;
}

function collect(child: ChildProcess): { out: Buffer[]; err: Buffer[] } {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout?.on('data', (b: Buffer) => out.push(b));
  child.stderr?.on('data', (b: Buffer) => err.push(b));
  return { out, err };
}

/** Feeds `path` (a FIFO) with endless lines until killed; the shell's open blocks until the CLI opens it. */
function feedFifo(path: string): ChildProcess {
  return spawn('sh', ['-c', 'exec yes "# hostile: a stream without end" > "$0" 2>/dev/null', path], {
    stdio: 'ignore',
  });
}

export async function runChild(input: ChildInput, dir: string, id: string): Promise<ChildRun> {
  const probeFile = join(dir, `${id}.probe.json`);
  const child = spawn(
    process.execPath,
    [`--max-old-space-size=${HEAP_MB}`, '--import', PROBE, join(ROOT, 'bin/kraftsman.mjs'), ...input.args],
    {
      cwd: ROOT,
      env: { ...process.env, KRAFTSMAN_PROBE_FILE: probeFile, NODE_OPTIONS: '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  const feeder = input.endlessFifo ? feedFifo(input.endlessFifo) : undefined;
  const { out, err } = collect(child);
  child.stdin?.on('error', () => undefined); // the CLI may exit before reading all of stdin
  child.stdin?.end(input.stdin ?? '');
  let killed = false;
  const timer = setTimeout(() => {
    killed = true;
    child.kill('SIGKILL');
  }, WALL_KILL_MS);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.on('close', (c, s) => resolve([c, s])),
  );
  clearTimeout(timer);
  feeder?.kill('SIGKILL');
  const probe = await readFile(probeFile, 'utf8').then(
    (t) => JSON.parse(t) as { maxRssKb: number; cpuMs: number },
    () => undefined,
  );
  await rm(probeFile, { force: true });
  return {
    code,
    signal,
    killed,
    stdout: Buffer.concat(out).toString('utf8'),
    stderr: Buffer.concat(err).toString('utf8'),
    maxRssKb: probe?.maxRssKb,
    cpuMs: probe?.cpuMs,
  };
}

/** At most `limit` calls of `fn` at once (cases run concurrently in small batches). */
export function limiter(limit: number): <T>(fn: () => Promise<T>) => Promise<T> {
  let active = 0;
  const queue: (() => void)[] = [];
  return async (fn) => {
    if (active >= limit) await new Promise<void>((resolve) => queue.push(resolve));
    active++;
    try {
      return await fn();
    } finally {
      active--;
      queue.shift()?.();
    }
  };
}
