// `npm start` on a machine without Java: the CLI, spawned with a PATH that holds only `node`, runs the local
// fleet on dynalite (in-process, no transactions: the state store's two-write fencing) and says so; its
// commands are admitted and completed as on DynamoDB Local; the AWS SDK's Node-version notice is not printed.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { javaOnPath } from '../../../local/dynamodb/start.ts';
import { fleetSummarySchema } from '../../../local/fleet/summary.ts';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../../..');
const dir = mkdtempSync(join(tmpdir(), 'kraftsman-no-java-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the local fleet without Java', () => {
  it('runs on dynalite, names the store, and admits and completes its commands', async () => {
    symlinkSync(process.execPath, join(dir, 'node'));
    expect(javaOnPath(dir)).toBe(false);
    const json = join(dir, 'summary.json');
    const { stderr } = await run(
      join(dir, 'node'),
      [
        join(ROOT, 'bin/kraftsman.mjs'),
        'fleet',
        '--scenario',
        'decay-bound',
        '--minutes',
        '4',
        '--json',
        json,
        '--report',
        join(dir, 'report.html'),
      ],
      { cwd: ROOT, env: { PATH: dir, HOME: dir } },
    );
    // The AWS SDK's notice about Node 22 does not reach the user (bin/kraftsman.mjs; README, "Set up").
    expect(stderr).not.toContain('NodeVersionSupportWarning');
    expect(stderr).toMatch(/^state store: dynalite at http:\/\/127\.0\.0\.1:\d+ \(no Java on PATH/m);
    const summary = fleetSummarySchema.strict().parse(JSON.parse(readFileSync(json, 'utf8')));
    // Admission records each command with the lease fence in two writes here: a store wired for transactions
    // would reject every proposal at its "record" stage, and nothing would complete.
    expect(summary.commands.filter((c) => c.outcome === 'completed').length).toBeGreaterThan(0);
    expect(summary.invariants).toEqual({
      strandedTaints: 0,
      orphanInstances: 0,
      lostPods: 0,
      budgetOverspends: 0,
    });
  });

  it('finds java where a PATH directory holds an executable of that name', () => {
    const withJava = mkdtempSync(join(dir, 'jdk-'));
    symlinkSync('/bin/true', join(withJava, 'java'));
    expect(javaOnPath(`${dir}:${withJava}`)).toBe(true);
    expect(javaOnPath('')).toBe(false);
  });
});
