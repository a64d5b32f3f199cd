// `kraftsman simulate` through the CLI entry: the contract's output, input shapes, and bad input → exit 2.
import { describe, expect, it } from 'vitest';
import { catalog, nodePool, pod } from '../../fixtures/builders/index.ts';
import { runCli, tempFile } from './run-cli.ts';

const catalogFile = () =>
  tempFile('catalog.yaml', {
    apiVersion: 'kraftsman.dev/v1alpha1',
    kind: 'InstanceTypeCatalog',
    instanceTypes: catalog(),
  });
const list = (...items: unknown[]) => ({ apiVersion: 'v1', kind: 'List', items });

describe('kraftsman simulate', () => {
  it('answers the contract on the bundled example fleet with the built-in catalog', async () => {
    const r = await runCli(['simulate', '-f', 'examples/gpu-fleet.yaml', '-o', 'json']);
    expect(r.code).toBe(0);
    const out = r.json<{
      pods: { pod: string; result: string }[];
      nodeClaims: { name: string; cloud: string }[];
    }>();
    expect(out.pods.find((p) => p.pod === 'ml/batch-preempt-0')).toMatchObject({
      result: 'ignored',
      reason: 'preempting',
    });
    expect(out.pods.find((p) => p.pod === 'ml/bench-b200-0')?.result).toBe('unschedulable');
    expect(out.nodeClaims.map((c) => c.name)).toEqual(out.nodeClaims.map((_, i) => `new-${i + 1}`));
    expect(new Set(out.nodeClaims.map((c) => c.cloud))).toEqual(new Set(['aws', 'gcp']));
  });

  it('reads a List, a multi-document stream and standard input alike', async () => {
    const objs = [nodePool(), pod('a')];
    const asList = await runCli([
      'simulate',
      '-f',
      tempFile('l.yaml', list(...objs)),
      '--catalog',
      catalogFile(),
      '-o',
      'json',
    ]);
    const stream = objs.map((o) => JSON.stringify(o)).join('\n---\n');
    const asStream = await runCli([
      'simulate',
      '-f',
      tempFile('s.yaml', stream),
      '--catalog',
      catalogFile(),
      '-o',
      'json',
    ]);
    const asStdin = await runCli(['simulate', '-f', '-', '--catalog', catalogFile(), '-o', 'json'], stream);
    expect(asList.json()).toEqual(asStream.json());
    expect(asStdin.json()).toEqual(asList.json());
  });

  it('prints a table by default', async () => {
    const r = await runCli([
      'simulate',
      '-f',
      tempFile('l.yaml', list(nodePool(), pod('a'))),
      '--catalog',
      catalogFile(),
    ]);
    expect(r.stdout).toMatch(/default\/a\s+new\s+new-1/);
  });

  it('warns about unknown kinds, unknown node types and pods bound to missing nodes, and goes on', async () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } };
    const r = await runCli([
      'simulate',
      '-f',
      tempFile('l.yaml', list(nodePool(), cm, pod('orphan', { node: 'gone' }), pod('a'), pod('a'))),
      '--catalog',
      catalogFile(),
      '-o',
      'json',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/ConfigMap/);
    expect(r.stderr).toMatch(/bound to node gone/);
    expect(r.stderr).toMatch(/more than once/);
    expect(r.json<{ pods: unknown[] }>().pods).toHaveLength(1);
  });

  it.each([
    [
      'a bad quantity',
      pod('bad', { cpu: 'lots' }),
      /Pod default\/bad: spec\.containers\[0\]\.resources\.requests\.cpu/,
    ],
    ['a negative request', pod('neg', { cpu: '-1' }), /Pod default\/neg: .*non-negative/],
    [
      'an unknown operator',
      nodePool('np', { requirements: [{ key: 'k', operator: 'Near', values: ['x'] }] }),
      /NodePool np: spec\.template\.spec\.requirements\[0\]\.operator/,
    ],
    ['a budget over 100%', nodePool('np', {}, {}), /NodePool np: spec\.disruption\.budgets\[0\]\.nodes/],
    ['an invalid cron', nodePool('np'), /NodePool np: spec\.disruption\.budgets\[0\]\.schedule/],
    [
      'a PDB with both minAvailable and maxUnavailable',
      {
        apiVersion: 'policy/v1',
        kind: 'PodDisruptionBudget',
        metadata: { name: 'p', namespace: 'default' },
        spec: { minAvailable: 1, maxUnavailable: 1 },
      },
      /PodDisruptionBudget default\/p: spec\.maxUnavailable/,
    ],
    [
      'an old NodePool version',
      { ...nodePool('old'), apiVersion: 'karpenter.sh/v1beta1' },
      /karpenter\.sh\/v1beta1 is not supported; kraftsman reads NodePool at karpenter\.sh\/v1/,
    ],
  ])(
    'rejects %s with exit 2, naming file, object and field, with nothing on stdout',
    async (what, obj, message) => {
      const o = structuredClone(obj) as { spec: Record<string, unknown> };
      if (what === 'a budget over 100%') o.spec.disruption = { budgets: [{ nodes: '150%' }] };
      if (what === 'an invalid cron')
        o.spec.disruption = { budgets: [{ nodes: '1', schedule: '61 * * * *', duration: '1h' }] };
      const file = tempFile('bad.yaml', list(o));
      const r = await runCli(['simulate', '-f', file, '--catalog', catalogFile(), '-o', 'json']);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(file);
      expect(r.stderr).toMatch(message);
    },
  );

  it.each([
    ['an unreadable file', ['simulate', '-f', '/nonexistent/x.yaml'], /cannot read/],
    ['a YAML syntax error', ['simulate', '-f', tempFile('x.yaml', 'a: [1, 2\nb: }')], /syntax error/],
    ['empty input', ['simulate', '-f', tempFile('x.yaml', '')], /empty input/],
    ['no -f', ['simulate'], /no input/],
    ['an unknown command', ['launch', '-f', 'x'], /unknown command/],
    ['an unknown flag', ['simulate', '-f', 'x', '--fast'], /unknown option/],
    [
      'a --now that is not RFC 3339',
      ['simulate', '-f', 'examples/gpu-fleet.yaml', '--now', '2026-02-30T00:00:00Z'],
      /RFC 3339/,
    ],
    [
      'a malformed catalog',
      [
        'simulate',
        '-f',
        'examples/gpu-fleet.yaml',
        '--catalog',
        tempFile('c.yaml', {
          apiVersion: 'kraftsman.dev/v1alpha1',
          kind: 'InstanceTypeCatalog',
          instanceTypes: [{ name: 'x', cloud: 'azure', capacity: {}, offerings: [] }],
        }),
      ],
      /instanceTypes\[0\]\.cloud/,
    ],
  ])('exits 2 on %s', async (_what, argv, message) => {
    const r = await runCli(argv as string[]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
  });

  it('fails fast on a billion-laughs alias bomb and on absurd nesting', async () => {
    const bomb = [
      'a: &a ["x","x","x","x","x","x","x","x","x","x"]',
      ...Array.from(
        { length: 8 },
        (_, i) =>
          `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10)
            .fill(`*${String.fromCharCode(97 + i)}`)
            .join(',')}]`,
      ),
    ].join('\n');
    const r = await runCli(['simulate', '-f', tempFile('bomb.yaml', bomb)]);
    expect(r.code).toBe(2);
    const deep = `${'['.repeat(200)}${']'.repeat(200)}`;
    const d = await runCli(['simulate', '-f', tempFile('deep.json', deep)]);
    expect(d.code).toBe(2);
    expect(d.stderr).toMatch(/nesting/);
  });
});
