// `kraftsman fleet` end to end: a small decay fleet through the real handlers (provision, launch-aws,
// launch-gcp, lifecycle) against the emulators and DynamoDB Local, its counted summary checked against the
// emulators' own state; then the CLI entry: one minute of the default scenario to the contract JSON and
// the report, and the scenario listing and its exit 2.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../../local/cli/main.ts';
import { runFleet } from '../../../local/fleet/run.ts';
import { decayScenario } from '../../../local/fleet/scenarios/index.ts';
import { brokenInvariants, fleetSummarySchema } from '../../../local/fleet/summary.ts';

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

describe('the local fleet', () => {
  it('provisions the backlog through the handlers, and its summary agrees with the emulators', async () => {
    const scenario = decayScenario('decay-small', { nodes: 24, pending: 60, minutes: 3, shedAt: [2] });
    const { run, env } = await runFleet({
      scenario,
      seed: 7,
      speed: 1e6,
      minutes: 3,
      upstream: false,
      wallNow: Date.now,
    });
    try {
      const s = fleetSummarySchema.strict().parse(run.summary);
      expect(run.details.functionsRun).toEqual([
        'provision',
        'consolidate',
        'orchestrate',
        'census',
        'lifecycle',
      ]);
      // The backlog made NodeClaims, each launched on its cloud (admit may launch replacements on top).
      expect(run.details.claimsCreated).toBeGreaterThan(0);
      expect(s.launches.aws + s.launches.gcp).toBeGreaterThanOrEqual(run.details.claimsCreated);
      expect(s.launches.failed).toBe(0);
      // Every running EC2 instance is a Node (a Node may outlive its instance while it is finalized).
      const running = [...env.ec2.world.instances.values()].filter((i) => i.state === 'running');
      expect(s.nodes.end.aws).toBeGreaterThanOrEqual(running.length);
      expect(s.nodes.end.aws).toBeLessThanOrEqual(s.nodes.start.aws + s.launches.aws);
      expect(s.nodes.end.gcp).toBeLessThanOrEqual(s.nodes.start.gcp + s.launches.gcp);
      expect(s.pods.pendingEnd).toBeLessThan(s.pods.pendingMax);
      expect(s.cost.endPerHour).toBeGreaterThan(s.cost.startPerHour);
      expect(s.cost.lowerBoundPerHour).toBeLessThanOrEqual(s.cost.endPerHour);
      expect(brokenInvariants(run)).toEqual([]);
    } finally {
      await env.close();
    }
  }, 240_000);

  it('runs the default scenario from the CLI to its table, report and contract JSON', async () => {
    const report = join(dir, 'report.html');
    const json = join(dir, 'summary.json');
    const r = await cli([
      'fleet',
      '--minutes',
      '1',
      '--speed',
      '1000000',
      '--report',
      report,
      '--json',
      json,
    ]);
    expect(r.err).toMatch(/kubeconfig: \S+kubeconfig/);
    expect(r.code).toBe(0);
    const summary = fleetSummarySchema.strict().parse(JSON.parse(readFileSync(json, 'utf8')));
    expect(summary.scenario).toBe('decay');
    expect(summary.simulatedMinutes).toBe(1);
    expect(summary.nodes.start.aws).toBeGreaterThan(0);
    expect(summary.nodes.start.gcp).toBeGreaterThan(0);
    expect(summary.launches.aws + summary.launches.gcp).toBeGreaterThan(0);
    expect(r.out).toContain('NodeClaims created');
    expect(r.out).toMatch(/functions\s+provision, consolidate, orchestrate, lifecycle/);
    expect(r.out).toMatch(/commands\s+\d+ finished/);
    const html = readFileSync(report, 'utf8');
    expect(html).toContain('data-chart="cost"');
    expect(html).not.toMatch(/<script[^>]+src=/);
  }, 240_000);

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
