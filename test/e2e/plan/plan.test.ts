// `kraftsman plan` and `census` end to end through the CLI's main(), in-process, on small snapshot files:
// the JSON contract of docs/contract.md, --upstream, --max-commands, the table output and exit codes.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { main } from '../../../local/cli/main.ts';
import { node, nodePool, pod } from '../../unit/disruption/fixtures.ts';

let dir = '';
const file = (name: string) => join(dir, name);

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += String(d)));
  stderr.on('data', (d) => (err += String(d)));
  const code = await main(args, {
    stdout,
    stderr,
    stdin: Readable.from([]),
    now: () => new Date('2026-09-01T12:00:00Z'),
  });
  return { code, stdout: out, stderr: err };
}

const catalog = {
  apiVersion: 'kraftsman.dev/v1alpha1',
  kind: 'InstanceTypeCatalog',
  instanceTypes: [2, 4, 8, 16].map((n) => ({
    name: `s-${n}`,
    cloud: 'aws',
    capacity: { cpu: String(n), memory: `${n * 4}Gi`, pods: '110' },
    offerings: ['us-east-1a', 'us-east-1b'].map((zone) => ({
      zone,
      capacityType: 'on-demand',
      price: 0.05 * n,
    })),
  })),
};

const pinned = (zone: string) => ({ 'topology.kubernetes.io/zone': zone });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kraftsman-plan-'));
  await writeFile(file('catalog.yaml'), stringify(catalog));
  const fleet = [
    nodePool('default'),
    node('n1', { type: 's-16', zone: 'us-east-1a' }),
    pod('p1', { node: 'n1', cpu: '5', nodeSelector: pinned('us-east-1a') }),
    node('n2', { type: 's-16', zone: 'us-east-1b' }),
    pod('p2', { node: 'n2', cpu: '5', nodeSelector: pinned('us-east-1b') }),
    node('guarded', { type: 's-16', annotations: { 'karpenter.sh/do-not-disrupt': 'true' } }),
    pod('g1', { node: 'guarded', cpu: '15' }),
    pod('backlog', { cpu: '14', nodeSelector: pinned('us-east-1b') }),
  ];
  await writeFile(file('fleet.yaml'), fleet.map((o) => stringify(o)).join('---\n'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const plan = async (...extra: string[]) => {
  const r = await cli([
    'plan',
    '-f',
    file('fleet.yaml'),
    '--catalog',
    file('catalog.yaml'),
    '-o',
    'json',
    ...extra,
  ]);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as {
    commands: {
      method: string;
      decision: string;
      candidates: string[];
      replacements: { instanceTypes: string[]; price: number }[];
      savingsPerHour: number;
    }[];
    skipped: { node: string; reason: string }[];
    pass: { candidates: number; evaluated: number; timedOut: boolean };
  };
};

describe('kraftsman plan', () => {
  it('prints one replace command with the contract fields', async () => {
    const r = await plan();
    expect(r.commands).toEqual([
      {
        method: 'single-node-consolidation',
        decision: 'replace',
        candidates: ['n1'],
        replacements: [
          expect.objectContaining({
            nodePool: 'default',
            cloud: 'aws',
            instanceTypes: ['s-8'],
            capacityType: 'on-demand',
            price: 0.4,
          }),
        ],
        savingsPerHour: 0.4,
      },
    ]);
    expect(r.skipped).toContainEqual({ node: 'guarded', reason: 'do-not-disrupt' });
    // multi-node tried the pair (2), then the walk evaluated n1 (1)
    expect(r.pass).toEqual({ candidates: 3, evaluated: 3, timedOut: false });
  });

  it('holds several proposals with --max-commands', async () => {
    const r = await plan('--max-commands', '3');
    expect(r.commands.map((c) => c.candidates)).toEqual([['n1'], ['n2']]);
  });

  it("shows Karpenter's answer with --upstream: the backlog claim makes every move need two replacements", async () => {
    const r = await plan('--max-commands', '3', '--upstream');
    expect(r.commands).toEqual([]);
    for (const node of ['n1', 'n2'])
      expect(r.skipped).toContainEqual({
        node,
        reason: 'multiple-replacements-required',
        method: 'single-node-consolidation',
      });
    const kraftsman = await plan('--max-commands', '3');
    expect(kraftsman.commands).toHaveLength(2);
  });

  it('never deletes a node that provisioning would fill with a pending pod (nominated, as Karpenter)', async () => {
    const fleet = [
      nodePool('default'),
      node('idle', { type: 's-8', zone: 'us-east-1a' }),
      node('busy', { type: 's-16', zone: 'us-east-1a' }),
      pod('b1', { node: 'busy', cpu: '12' }),
      // Fits only on `idle`: simulate places it there, so plan may not delete `idle` as empty.
      pod('waiting', { cpu: '6', nodeSelector: pinned('us-east-1a') }),
    ];
    await writeFile(file('nominated.yaml'), fleet.map((o) => stringify(o)).join('---\n'));
    const args = ['-f', file('nominated.yaml'), '--catalog', file('catalog.yaml'), '-o', 'json'];
    const sim = JSON.parse((await cli(['simulate', ...args])).stdout) as {
      pods: { pod: string; node?: string }[];
    };
    expect(sim.pods).toContainEqual(expect.objectContaining({ pod: 'default/waiting', node: 'idle' }));
    const r = JSON.parse((await cli(['plan', ...args])).stdout) as {
      commands: { candidates: string[] }[];
      skipped: { node: string; reason: string }[];
    };
    expect(r.commands.flatMap((c) => c.candidates)).not.toContain('idle');
    expect(r.skipped).toContainEqual({ node: 'idle', reason: 'nominated' });
  });

  it('never proposes a node a command is already disrupting (tainted karpenter.sh/disrupted), and says so', async () => {
    const disrupted = { key: 'karpenter.sh/disrupted', effect: 'NoSchedule' };
    const fleet = (taints?: Record<string, unknown>[]) => [
      nodePool('default'),
      node('empty', { type: 's-8', zone: 'us-east-1a', ...(taints ? { taints } : {}) }),
      node('busy', { type: 's-16', zone: 'us-east-1a' }),
      pod('b1', { node: 'busy', cpu: '12' }),
    ];
    const run = async (name: string, objects: object[], command: 'plan' | 'census') => {
      await writeFile(file(name), objects.map((o) => stringify(o)).join('---\n'));
      const args = [command, '-f', file(name), '--catalog', file('catalog.yaml'), '-o', 'json'];
      const r = await cli(args);
      expect(r.code).toBe(0);
      return JSON.parse(r.stdout) as {
        commands?: { candidates: string[] }[];
        skipped?: { node: string; reason: string }[];
        candidates?: { node: string; decision: string; reason?: string }[];
      };
    };
    // untainted, the empty node is deleted; mid-disruption it is nobody's candidate again
    const free = await run('free.yaml', fleet(), 'plan');
    expect(free.commands?.flatMap((c) => c.candidates)).toContain('empty');
    const taken = await run('taken.yaml', fleet([disrupted]), 'plan');
    expect(taken.commands?.flatMap((c) => c.candidates)).not.toContain('empty');
    expect(taken.skipped).toContainEqual({ node: 'empty', reason: 'claimed-by-pending-command' });
    const census = await run('taken.yaml', fleet([disrupted]), 'census');
    expect(census.candidates).toContainEqual(
      expect.objectContaining({ node: 'empty', decision: 'none', reason: 'claimed-by-pending-command' }),
    );
    // a PreferNoSchedule taint of the same key is not the orchestrator's
    const soft = await run('soft.yaml', fleet([{ ...disrupted, effect: 'PreferNoSchedule' }]), 'plan');
    expect(soft.commands?.flatMap((c) => c.candidates)).toContain('empty');
  });

  it('prints a table for people by default', async () => {
    const r = await cli(['plan', '-f', file('fleet.yaml'), '--catalog', file('catalog.yaml')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/single-node-consolidation\s+replace\s+n1/);
    expect(r.stdout).toMatch(/guarded\s+do-not-disrupt/);
  });

  it('refuses a bad --max-commands with exit 2 and nothing on stdout', async () => {
    const r = await cli(['plan', '-f', file('fleet.yaml'), '--max-commands', '0']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });
});

describe('kraftsman census', () => {
  it('lists every candidate with a decision and counts by NodePool', async () => {
    const r = await cli([
      'census',
      '-f',
      file('fleet.yaml'),
      '--catalog',
      file('catalog.yaml'),
      '-o',
      'json',
    ]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as {
      nodePools: Record<string, Record<string, number>>;
      candidates: { node: string; decision: string; reason?: string }[];
    };
    expect(out.candidates.map((c) => [c.node, c.decision])).toEqual([
      ['guarded', 'none'],
      ['n1', 'replace'],
      ['n2', 'replace'],
    ]);
    expect(out.candidates[0]?.reason).toBe('do-not-disrupt');
    expect(out.nodePools).toEqual({
      default: { delete: 0, replace: 2, none: 1, empty: 0, drifted: 0, unreached: 0 },
    });
    expect(out).toMatchObject({ truncated: false, reached: 2 });
  });
});
