// `--workers N` through the real binary (node bin/kraftsman.mjs): plan and census print the same bytes with one and
// with two workers on a ramp fleet (census in upstream mode too), and a bad value exits 2 naming the flag
// (docs/contract.md, `kraftsman plan`).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateRamp } from '../../fixtures/fleet/ramp.ts';
import { tempFile } from './run-cli.ts';

const BIN = join(import.meta.dirname, '../../../bin/kraftsman.mjs');
const NOW = '2026-11-30T00:00:00Z';

function kraftsman(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('kraftsman plan|census --workers N', () => {
  const fleet = tempFile(
    'ramp.json',
    JSON.stringify(generateRamp({ nodes: 24, pending: 60, seed: 11 }).objects),
  );

  it.each(
    [
      ['plan', '-o', 'json', '--max-commands', '3'],
      ['plan', '-o', 'table', '--max-commands', '3'],
      ['census', '-o', 'json'],
      ['census', '-o', 'json', '--upstream'],
    ].map((argv) => [argv.join(' '), argv] as const),
  )(
    '%s prints the same with two workers as with one',
    (_name, argv) => {
      const one = kraftsman(...argv, '-f', fleet, '--now', NOW);
      const two = kraftsman(...argv, '-f', fleet, '--now', NOW, '--workers', '2');
      expect(one.code, one.stderr).toBe(0);
      expect(two.code, two.stderr).toBe(0);
      expect(two.stdout).toBe(one.stdout);
      expect(two.stderr).toBe(one.stderr);
    },
    120_000,
  );

  it.each([
    ['0', '--workers must be a whole number ≥ 1, not "0"'],
    ['two', '--workers must be a whole number ≥ 1, not "two"'],
    ['1.5', '--workers must be a whole number ≥ 1, not "1.5"'],
    ['-1', '--workers must be a whole number ≥ 1, not "-1"'],
    ['65', '--workers is at most 64 (one thread per core is the most that helps), not "65"'],
  ])('--workers %s exits 2 and says why', (value, message) => {
    const r = kraftsman('census', '-f', fleet, '--workers', value);
    expect(r).toEqual({ code: 2, stdout: '', stderr: `error: ${message}\n` });
  });

  it('--workers without a value is a usage error', () => {
    const r = kraftsman('plan', '-f', fleet, '--workers');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: --workers needs a value\n/);
  });

  it('plan and census list --workers in their help', () => {
    for (const command of ['plan', 'census']) {
      const r = kraftsman(command, '--help');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/--workers N +threads that simulate candidates \(default 1; at most 64\)/);
    }
  });
});
