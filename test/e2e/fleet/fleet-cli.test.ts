// `kraftsman fleet` end to end through the CLI entry: the decay scenario on the real emulators and DynamoDB
// Local at high speed (a few simulated minutes), the contract JSON summary, the report file, the exit codes.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../../local/cli/main.ts';
import { fleetSummarySchema } from '../../../local/fleet/summary.ts';

const dir = mkdtempSync(join(tmpdir(), 'kraftsman-fleet-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  const code = await main(argv, { stdout, stderr, stdin: new PassThrough(), now: () => new Date() });
  return { code, out, err };
}

describe('kraftsman fleet', () => {
  it('runs the decay scenario to its summary, report and contract JSON', async () => {
    const report = join(dir, 'report.html');
    const json = join(dir, 'summary.json');
    const r = await cli(['fleet', '--minutes', '12', '--speed', '60000', '--report', report, '--json', json]);
    expect(r.err).toMatch(/kubeconfig: \S+kubeconfig/);
    expect(r.code).toBe(0);
    const summary = fleetSummarySchema.strict().parse(JSON.parse(readFileSync(json, 'utf8')));
    expect(summary.scenario).toBe('decay');
    expect(summary.simulatedMinutes).toBe(12);
    expect(summary.nodes.start.aws).toBeGreaterThan(0);
    expect(summary.nodes.start.gcp).toBeGreaterThan(0);
    // The decay scenario sheds load from minute 10: the bin-packing bound of the bound pods falls below
    // the fleet's cost, which stays an upper bound of it.
    expect(summary.cost.lowerBoundPerHour).toBeGreaterThan(0);
    expect(summary.cost.lowerBoundPerHour).toBeLessThanOrEqual(summary.cost.endPerHour);
    expect(r.out).toContain('cost $/h start → end');
    const html = readFileSync(report, 'utf8');
    expect(html).toContain('data-chart="cost"');
    expect(html).not.toMatch(/<script[^>]+src=/);
  }, 120_000);

  it('lists the scenarios, and refuses an unknown one with exit 2 naming them', async () => {
    const list = await cli(['fleet', '--list-scenarios']);
    expect(list.code).toBe(0);
    expect(list.out).toMatch(/^decay /m);
    const bad = await cli(['fleet', '--scenario', 'nope']);
    expect(bad.code).toBe(2);
    expect(bad.out).toBe('');
    expect(bad.err).toContain('scenarios: decay, ramp-3400');
  });
});
