// The CLI helps: each command's own --help, -f DIR read as kubectl reads it, a bare path answered with "did you
// mean -f", and a missing field worded as the API server words it (docs/contract.md "Help", "Inputs").
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { catalog, nodePool, pod } from '../../fixtures/builders/index.ts';
import { runCli } from './run-cli.ts';

const COMMANDS = ['simulate', 'plan', 'census', 'userdata', 'fleet'] as const;

/** A fresh directory holding `files` (name → object, or raw text). */
function dirWith(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'kraftsman-dir-'));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(
      join(dir, name),
      typeof content === 'string'
        ? content
        : name.endsWith('.json')
          ? JSON.stringify(content)
          : stringify(content),
    );
  }
  return dir;
}

const catalogDoc = {
  apiVersion: 'kraftsman.dev/v1alpha1',
  kind: 'InstanceTypeCatalog',
  instanceTypes: catalog(),
};

describe('each command has its own help', () => {
  it.each(COMMANDS)('%s -h and %s --help print its usage and options, exit 0', async (command) => {
    for (const flag of ['-h', '--help']) {
      const r = await runCli([command, flag]);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout).toMatch(new RegExp(`^usage: kraftsman ${command} `));
      expect(r.stdout).toMatch(/Exit codes/);
      // not the overview of every command
      expect(r.stdout).not.toMatch(/^commands:/m);
    }
  });

  it('shows options where they apply: plan its walk flags, userdata its type, fleet its scenario', async () => {
    const help = async (c: string) => (await runCli([c, '--help'])).stdout;
    expect(await help('plan')).toMatch(/--max-commands N[\s\S]*--spot-to-spot/);
    expect(await help('simulate')).not.toMatch(/--max-commands/);
    expect(await help('userdata')).toMatch(/--instance-type TYPE/);
    expect(await help('fleet')).toMatch(/--scenario NAME[\s\S]*--hold/);
    expect(await help('fleet')).not.toMatch(/--catalog/);
  });

  it('help COMMAND is COMMAND --help; the overview points to it', async () => {
    expect((await runCli(['help', 'census'])).stdout).toBe((await runCli(['census', '--help'])).stdout);
    expect((await runCli(['--help'])).stdout).toMatch(/kraftsman COMMAND --help/);
  });
});

describe('-f DIR', () => {
  it("reads the directory's .json, .yaml and .yml files in name order and skips the rest", async () => {
    const dir = dirWith({
      'a-pool.yaml': nodePool(),
      'b-pods.json': { apiVersion: 'v1', kind: 'List', items: [pod('p1')] },
      'c-more.yml': pod('p2'),
      'README.md': '# not a manifest: kubectl skips it',
      'notes.txt': 'kind: Pod\n',
    });
    const r = await runCli([
      'simulate',
      '-f',
      dir,
      '--catalog',
      join(dirWith({ 'c.yaml': catalogDoc }), 'c.yaml'),
      '-o',
      'json',
    ]);
    expect(r.code).toBe(0);
    // the skipped files are not read (notes.txt would be a Pod without apiVersion: an error)
    expect(r.stderr).not.toMatch(/README|notes\.txt/);
    const pods = r.json<{ pods: { pod: string }[] }>().pods.map((p) => p.pod);
    expect(pods.sort()).toEqual(['default/p1', 'default/p2']);
  });

  it('reads subdirectories only with -R', async () => {
    const dir = dirWith({ 'pool.yaml': nodePool(), 'team/pods.yaml': pod('deep') });
    const catalogFile = join(dirWith({ 'c.yaml': catalogDoc }), 'c.yaml');
    const pods = async (...extra: string[]) => {
      const r = await runCli(['simulate', '-f', dir, ...extra, '--catalog', catalogFile, '-o', 'json']);
      expect(r.code).toBe(0);
      return r.json<{ pods: { pod: string }[] }>().pods.map((p) => p.pod);
    };
    expect(await pods()).toEqual([]);
    expect(await pods('-R')).toEqual(['default/deep']);
    expect(await pods('--recursive')).toEqual(['default/deep']);
  });

  it('a directory without manifests is an error naming it, exit 2', async () => {
    const dir = dirWith({ 'README.md': 'nothing here' });
    const r = await runCli(['simulate', '-f', dir]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`${dir}: is a directory with no .json, .yaml, .yml files`);
  });

  it('a malformed file in a directory is named by its path', async () => {
    const dir = dirWith({ 'pool.yaml': nodePool(), 'z-bad.yaml': 'kind: [unclosed' });
    const r = await runCli(['simulate', '-f', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(join(dir, 'z-bad.yaml'));
  });
});

describe('usage errors say what to do', () => {
  it.each(['simulate', 'plan', 'census'])('%s with a bare path asks "did you mean -f"', async (command) => {
    const r = await runCli([command, 'snapshot.yaml']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unexpected argument "snapshot\.yaml": did you mean -f snapshot\.yaml\?/);
  });

  it('userdata with a bare path asks too', async () => {
    const r = await runCli(['userdata', 'nodeclass.yaml', '--instance-type', 'g5.xlarge']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/did you mean -f nodeclass\.yaml\?/);
  });

  it('a missing required field reads "is required", with its path and object', async () => {
    const dir = dirWith({
      'pool.yaml': {
        apiVersion: 'karpenter.sh/v1',
        kind: 'NodePool',
        metadata: { name: 'gpu' },
        spec: { template: { spec: { requirements: [] } } },
      },
    });
    const r = await runCli(['simulate', '-f', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/NodePool gpu: spec\.template\.spec\.nodeClassRef is required/);
    expect(r.stderr).not.toMatch(/Invalid input/);
  });
});
