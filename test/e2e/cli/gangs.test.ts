// `kraftsman plan` and `census` on a snapshot with a running gang, through the real binary (node bin/kraftsman.mjs):
// the gang's nodes are skipped with reason `gang` while the pass consolidates around them, a drifted gang node
// brings the whole gang into one drift command, the opt-out restores per-node behaviour (docs/contract.md).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { ec2NodeClass, gangMember, node, nodePool, pod, podGroup } from '../../unit/disruption/fixtures.ts';
import { tempFile } from './run-cli.ts';

type Obj = Record<string, unknown>;
const BIN = join(import.meta.dirname, '../../../bin/kraftsman.mjs');
const HASH = { 'karpenter.sh/nodepool-hash': 'new', 'karpenter.sh/nodepool-hash-version': 'v3' };
const OLD_HASH = { 'karpenter.sh/nodepool-hash': 'old', 'karpenter.sh/nodepool-hash-version': 'v3' };
const catalog = {
  apiVersion: 'kraftsman.dev/v1alpha1',
  kind: 'InstanceTypeCatalog',
  instanceTypes: [2, 4, 8, 16].map((n) => ({
    name: `s-${n}`,
    cloud: 'aws',
    capacity: { cpu: String(n), memory: `${n * 4}Gi`, pods: '110' },
    offerings: [{ zone: 'us-east-1a', capacityType: 'on-demand', price: 0.05 * n }],
  })),
};

/** A training worker: one per node (required hostname anti-affinity), member of PodGroup `train`. */
function worker(name: string, at: string): Obj {
  const p = gangMember(pod(name, { node: at, cpu: '3', labels: { job: 'train' } }), 'train');
  (p.spec as Obj).affinity = {
    podAntiAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: [
        { labelSelector: { matchLabels: { job: 'train' } }, topologyKey: 'kubernetes.io/hostname' },
      ],
    },
  };
  return p;
}

/** Four s-16 nodes each running one worker of a gang with minMember 4, and one underutilized s-16 `solo`. */
function fleet(opts: { optOut?: boolean; driftedNode?: string } = {}): string {
  const group = podGroup('train', 4);
  if (opts.optOut) (group.metadata as Obj).annotations = { 'kraftsman.dev/gang-disruption': 'per-node' };
  const objects: Obj[] = [
    nodePool('default', { annotations: HASH, expireAfter: 'Never' }),
    ec2NodeClass(),
    group,
  ];
  for (const n of ['g1', 'g2', 'g3', 'g4']) {
    objects.push(node(n, { type: 's-16', annotations: n === opts.driftedNode ? OLD_HASH : HASH }));
    objects.push(worker(`w-${n}`, n));
  }
  objects.push(
    node('solo', { type: 's-16', annotations: HASH }),
    pod('solo-app', { node: 'solo', cpu: '1' }),
  );
  return tempFile('fleet.yaml', objects.map((o) => stringify(o)).join('---\n'));
}

function kraftsman(command: 'plan' | 'census', fleetFile: string) {
  const args = [BIN, command, '-f', fleetFile, '--catalog', tempFile('catalog.yaml', catalog)];
  const r = spawnSync(process.execPath, [...args, '--now', '2026-09-01T12:00:00Z', '-o', 'json'], {
    encoding: 'utf8',
  });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

interface PlanJson {
  commands: { method: string; candidates: string[]; reason?: string }[];
  skipped: { node: string; reason: string }[];
}

describe('kraftsman plan and census with a running gang', () => {
  it('plan consolidates around the gang and skips each of its nodes with a reason containing gang', () => {
    const r = kraftsman('plan', fleet()) as unknown as PlanJson;
    expect(r.commands.map((c) => c.candidates)).toEqual([['solo']]);
    for (const n of ['g1', 'g2', 'g3', 'g4'])
      expect(r.skipped.find((s) => s.node === n)?.reason).toContain('gang');
  });

  it('census lists each node of the gang with decision none and a reason containing gang', () => {
    const r = kraftsman('census', fleet()) as {
      candidates: { node: string; decision: string; reason?: string }[];
    };
    for (const n of ['g1', 'g2', 'g3', 'g4']) {
      const e = r.candidates.find((c) => c.node === n);
      expect(e?.decision).toBe('none');
      expect(e?.reason).toContain('gang');
    }
    expect(r.candidates.find((c) => c.node === 'solo')?.decision).not.toBe('none');
  });

  it('plan drifts the whole gang in one command when one of its nodes drifted, with that node’s reason', () => {
    const r = kraftsman('plan', fleet({ driftedNode: 'g3' })) as unknown as PlanJson;
    expect(r.commands).toHaveLength(1);
    expect(r.commands[0]).toMatchObject({ method: 'drift', reason: 'NodePoolDrifted' });
    expect(r.commands[0]?.candidates).toEqual(['g3', 'g1', 'g2', 'g4']);
  });

  it('refuses a misspelt opt-out with exit 2, naming the PodGroup and the annotation', () => {
    const group = podGroup('train', 4);
    (group.metadata as Obj).annotations = { 'kraftsman.dev/gang-disruption': 'pernode' };
    const file = tempFile('bad.yaml', group);
    const r = spawnSync(process.execPath, [BIN, 'plan', '-f', file, '-o', 'json'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(
      'PodGroup default/train: metadata.annotations.kraftsman.dev/gang-disruption: "pernode": expected one of whole, per-node',
    );
  });

  it('plan takes some nodes of an opted-out gang and leaves the others', () => {
    const r = kraftsman('plan', fleet({ optOut: true })) as unknown as PlanJson;
    expect(r.skipped.filter((s) => s.reason === 'gang')).toEqual([]);
    expect(r.commands).toHaveLength(1);
    const taken = r.commands[0]?.candidates.filter((n) => n.startsWith('g')) ?? [];
    expect(taken.length).toBeGreaterThan(0);
    expect(taken.length).toBeLessThan(4);
  });
});
