// Runs bin/kraftsman.mjs as a user would: its own process with only the environment given (PATH, a fresh HOME, and
// `env`), so no credential or endpoint of the test's process reaches it.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BIN = new URL('../../../bin/kraftsman.mjs', import.meta.url).pathname;

/** `env` may name files under the fresh HOME: it is given the HOME's path first. */
export function isolatedKraftsman(
  args: string[],
  env: (home: string) => Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const home = mkdtempSync(join(tmpdir(), 'kraftsman-home-'));
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: home, ...env(home) },
  });
  const out: string[] = [];
  const err: string[] = [];
  child.stdout.on('data', (c) => out.push(String(c)));
  child.stderr.on('data', (c) => err.push(String(c)));
  return new Promise((resolve) =>
    child.on('close', (code) => resolve({ code: code ?? -1, stdout: out.join(''), stderr: err.join('') })),
  );
}
