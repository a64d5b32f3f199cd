// The hostile-input suite: every case runs the real CLI as a child process under a 512 MB heap cap and must
// end with exit 0, 1 or 2 (never a crash), within 5 s of CPU and 512 MB of memory, with errors on stderr
// only, naming what and where, and no raw control character on the terminal (docs/input-bounds.md).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { HostileCase } from './cases.ts';
import { cliCases } from './cases-cli.ts';
import { karpenterCases } from './cases-karpenter.ts';
import { objectCases } from './cases-objects.ts';
import { parsingCases } from './cases-parsing.ts';
import { HEAP_MB, limiter, runChild, WALL_KILL_MS, type ChildInput } from './run-child.ts';
import { Readable, Writable } from 'node:stream';
import { main } from '../../../local/cli/main.ts';

const CASES: readonly HostileCase[] = [...parsingCases, ...objectCases, ...karpenterCases, ...cliCases];
const CPU_BOUND_MS = 5_000;
// a terminal must never receive these raw (newline and tab are the only controls the CLI prints)
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

const dir = mkdtempSync(join(tmpdir(), 'kraftsman-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// two cores in CI: a few children at once keeps the suite's wall time modest without starving them
const batch = limiter(Number(process.env.KRAFTSMAN_HOSTILE_CONCURRENCY ?? 3));

const CHILD_CASES = CASES.filter((c) => !c.inProcess);

function expectOutcome(
  c: HostileCase,
  r: { code: number | null; stdout: string; stderr: string },
  seen: string,
): void {
  expect([0, 1, 2], seen).toContain(r.code);
  expect(r.code, seen).toBe(c.code);
  if (c.code === 2) expect(r.stdout, 'nothing on stdout after an error').toBe('');
  for (const pattern of c.stderr) expect(r.stderr).toMatch(pattern);
  if (c.stdout) expect(r.stdout).toMatch(c.stdout);
  expect(r.stderr).not.toMatch(RAW_CONTROL);
  expect(r.stdout).not.toMatch(RAW_CONTROL);
}

/** main() in this process, with captured output (for the cheap variants). */
async function runInProcess(input: ChildInput): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const sink = (into: string[]) =>
    new Writable({
      write(chunk, _enc, done) {
        into.push(String(chunk));
        done();
      },
    });
  const code = await main(input.args, {
    stdout: sink(out),
    stderr: sink(err),
    stdin: Readable.from([input.stdin ?? '']),
    now: () => new Date('2026-12-01T12:00:00Z'),
  });
  return { code, stdout: out.join(''), stderr: err.join('') };
}

describe('hostile input', () => {
  it('has at least 100 cases run as child processes, each case named once', () => {
    expect(CHILD_CASES.length).toBeGreaterThanOrEqual(100);
    expect(new Set(CASES.map((c) => c.name)).size).toBe(CASES.length);
  });

  CASES.forEach((c, i) => {
    if (c.inProcess) {
      it(`${c.name}: exit ${c.code} (in-process)`, async () => {
        const r = await runInProcess(c.setup(dir));
        expectOutcome(c, r, `exit ${r.code}\nstderr: ${r.stderr.slice(0, 2000)}`);
      });
      return;
    }
    it.concurrent(
      `${c.name}: exit ${c.code}`,
      async () => {
        const r = await batch(() => runChild(c.setup(dir), dir, `case-${i}`));
        const seen = `exit ${r.code} (signal ${r.signal})\nstderr: ${r.stderr.slice(0, 2000)}\nstdout: ${r.stdout.slice(0, 500)}`;
        expect(r.killed, `still running after ${WALL_KILL_MS} ms`).toBe(false);
        expectOutcome(c, r, seen);
        expect(r.cpuMs, 'CPU time (ms)').toBeLessThan(CPU_BOUND_MS);
        expect(r.maxRssKb, 'peak resident memory (KB)').toBeLessThan(HEAP_MB * 1024);
      },
      3 * WALL_KILL_MS, // room for the wait in the batch queue on a loaded machine
    );
  });
});
