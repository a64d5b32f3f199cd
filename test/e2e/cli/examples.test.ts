// Every file in infra/examples is a complete example: read by the CLI's own parser, each node class can produce a
// join (joinProblem), its placeholders are marked `# replace`, and `kraftsman userdata` renders a launch of each
// NodePool on a type it allows (docs/deploy/eks.md, docs/deploy/kubeadm.md apply these files).
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readObjects } from '../../../local/cli/read-input.ts';
import { joinProblem } from '../../../shared/model/join-readiness.ts';
import { runCli } from './run-cli.ts';

const DIR = join(import.meta.dirname, '../../../infra/examples');
const BIN = join(import.meta.dirname, '../../../bin/kraftsman.mjs');
const FILES = readdirSync(DIR).filter((f) => f.endsWith('.yaml'));

/** A type each example NodePool allows (a new pool needs one here, so it is rendered too). */
const TYPE_OF: Readonly<Record<string, string>> = {
  'aws-training': 'p5.48xlarge',
  'aws-inference': 'g5.xlarge',
  'aws-kubeadm-gpu': 'g6.xlarge',
  'gcp-training': 'a3-highgpu-8g',
  'gcp-inference': 'g2-standard-8',
};

describe('infra/examples', () => {
  it.each(FILES)('%s: every node class can join, and its placeholders are marked', async (file) => {
    const text = readFileSync(join(DIR, file), 'utf8');
    const { objects, warnings } = await readObjects([join(DIR, file)], Readable.from([]));
    expect(warnings).toEqual([]);
    expect(objects.nodeClasses.length).toBeGreaterThan(0);
    for (const nc of objects.nodeClasses) expect(joinProblem(nc), nc.metadata.name).toBeUndefined();
    // The values a user must change: the join fields and the project at least.
    for (const field of [
      'apiServerEndpoint:',
      'caBundle:',
      'caCertHash:',
      'serviceCIDR:',
      'project:',
      'role:',
    ])
      for (const line of text.split('\n').filter((l) => l.trimStart().startsWith(field)))
        expect(line, `${file}: ${line}`).toContain('# replace');
  });

  it.each(FILES)('%s: kraftsman userdata renders a launch of each NodePool', async (file) => {
    const { objects } = await readObjects([join(DIR, file)], Readable.from([]));
    for (const pool of objects.nodePools) {
      const type = TYPE_OF[pool.metadata.name];
      expect(type, `a type for NodePool ${pool.metadata.name} in TYPE_OF`).toBeDefined();
      const r = await runCli([
        'userdata',
        '-f',
        join(DIR, file),
        '--nodepool',
        pool.metadata.name,
        '--instance-type',
        String(type),
        '--cluster',
        'prod',
      ]);
      expect(r.stderr, `${file} ${pool.metadata.name}`).not.toContain('error');
      expect(r.code, `${file} ${pool.metadata.name}: ${r.stderr}`).toBe(0);
      expect(r.stdout.length).toBeGreaterThan(0);
    }
  });

  it('the EKS example through the real binary: userdata for a p5.48xlarge exits 0 with a NodeConfig', () => {
    const r = spawnSync(
      process.execPath,
      [
        BIN,
        'userdata',
        '-f',
        join(DIR, 'aws-gpu.yaml'),
        '--nodepool',
        'aws-training',
        '--instance-type',
        'p5.48xlarge',
        '--cluster',
        'prod-gpu',
      ],
      { encoding: 'utf8' },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('kind: "NodeConfig"');
    expect(r.stdout).toContain('cidr: "10.100.0.0/16"');
  });
});
