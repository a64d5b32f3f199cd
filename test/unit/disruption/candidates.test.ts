// Candidate filters of Karpenter v1.14 (NewCandidate, ValidateNodeDisruptable, ValidatePodsDisruptable,
// Consolidatable, consolidationPolicy): each row would be replaced without its blocker, and is skipped with it.
import { describe, expect, it } from 'vitest';
import { names, node, nodePool, plan, pdb, pod, reasonOf } from './fixtures.ts';

// A 16-CPU node running one 3-CPU pod: single-node consolidation replaces it with a cheaper node.
const base = (
  o: {
    node?: Parameters<typeof node>[1];
    pod?: Parameters<typeof pod>[1];
    pool?: Parameters<typeof nodePool>[1];
  } = {},
) => [
  nodePool('default', o.pool),
  node('node-a', { type: 's-16', ...o.node }),
  pod('app-0', { node: 'node-a', cpu: '3', ...o.pod }),
];

describe('candidate filters', () => {
  it('replaces the unprotected baseline node', () => {
    const r = plan(base());
    expect(names(r)).toEqual([['node-a']]);
    expect(r.commands[0]?.method).toBe('single-node-consolidation');
  });

  it.each([
    [
      'a node annotated do-not-disrupt=true',
      { node: { annotations: { 'karpenter.sh/do-not-disrupt': 'true' } } },
      'do-not-disrupt',
    ],
    [
      'a pod annotated do-not-disrupt=true',
      { pod: { annotations: { 'karpenter.sh/do-not-disrupt': 'true' } } },
      'do-not-disrupt',
    ],
    [
      'a pod whose do-not-disrupt duration has not elapsed since it started',
      { pod: { annotations: { 'karpenter.sh/do-not-disrupt': '1h' }, startTime: '2026-09-01T11:30:00Z' } },
      'do-not-disrupt',
    ],
    [
      'a pool whose consolidateAfter has not passed since the last pod event',
      { pod: { created: '2026-09-01T11:59:50Z' } },
      'consolidate-after',
    ],
    ['a pool with consolidateAfter Never', { pool: { consolidateAfter: 'Never' } }, 'consolidation-disabled'],
    [
      'a WhenEmpty pool for a node that is not empty',
      { pool: { policy: 'WhenEmpty' as const } },
      'when-empty-policy',
    ],
    ['a deleting node', { node: { deleting: true } }, 'marked-for-deletion'],
    ['a node past its expireAfter', { node: { created: '2026-07-01T00:00:00Z' } }, 'expired'],
  ])('skips %s', (_what, o, reason) => {
    const r = plan(base(o));
    expect(r.commands).toEqual([]);
    expect(reasonOf(r, 'node-a')).toBe(reason);
  });

  it('lets a do-not-disrupt duration that has elapsed through', () => {
    const r = plan(
      base({
        pod: { annotations: { 'karpenter.sh/do-not-disrupt': '1h' }, startTime: '2026-09-01T08:05:00Z' },
      }),
    );
    expect(names(r)).toEqual([['node-a']]);
  });

  it('ignores an invalid do-not-disrupt value, as Karpenter does', () => {
    expect(names(plan(base({ pod: { annotations: { 'karpenter.sh/do-not-disrupt': 'soon' } } })))).toEqual([
      ['node-a'],
    ]);
  });

  it('lists an expired node for the expiration controller', () => {
    const r = plan(base({ node: { created: '2026-07-01T00:00:00Z' } }));
    expect(r.expired).toEqual([{ node: 'node-a', expiredAt: '2026-07-31T00:00:00.000Z' }]);
  });

  it('never considers a node without a NodePool label', () => {
    const r = plan([
      nodePool('default'),
      node('worker', { pool: null, type: 's-16' }),
      pod('app-0', { node: 'worker', cpu: '3' }),
    ]);
    expect(r.commands).toEqual([]);
    expect(r.skipped).toEqual([]);
    expect(r.candidates).toBe(0);
  });

  it('skips a node whose NodePool is not in the input', () => {
    const r = plan([
      nodePool('other'),
      node('node-a', { type: 's-16' }),
      pod('app-0', { node: 'node-a', cpu: '3' }),
    ]);
    expect(reasonOf(r, 'node-a')).toBe('nodepool-not-found');
  });

  it('skips a node whose NodeClaim is not initialized', () => {
    const claim = {
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodeClaim',
      metadata: { name: 'claim-a', creationTimestamp: '2026-09-01T08:00:00Z' },
      spec: { nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' } },
      status: { nodeName: 'node-a', conditions: [{ type: 'Initialized', status: 'False' }] },
    };
    const objs = base();
    const n = objs[1] as { metadata: { labels: Record<string, string> } };
    delete n.metadata.labels['karpenter.sh/initialized'];
    const r = plan([...objs, claim]);
    expect(reasonOf(r, 'node-a')).toBe('not-initialized');
  });
});

describe('PodDisruptionBudgets', () => {
  it.each([
    ['status says 0 disruptions are allowed', { maxUnavailable: 1 }, { disruptionsAllowed: 0 }],
    ['minAvailable equals the healthy pods (no status)', { minAvailable: 1 }, undefined],
    ['maxUnavailable is 0% (no status)', { maxUnavailable: '0%' }, undefined],
  ])('blocks a candidate when the %s', (_what, spec, status) => {
    const r = plan([...base(), pdb('pdb', 'app-0', spec, status)]);
    expect(r.commands).toEqual([]);
    expect(reasonOf(r, 'node-a')).toBe('pdb-blocked');
  });

  it('lets a candidate go when its PDB allows a disruption', () => {
    expect(names(plan([...base(), pdb('pdb', 'app-0', { maxUnavailable: 1 })]))).toEqual([['node-a']]);
  });

  it('blocks a pod that two PDBs select (the eviction API refuses it)', () => {
    const r = plan([
      ...base(),
      pdb('one', 'app-0', { maxUnavailable: 1 }),
      pdb('two', 'app-0', { maxUnavailable: 1 }),
    ]);
    expect(reasonOf(r, 'node-a')).toBe('pdb-blocked');
  });

  it('does not let a PDB on a pod that tolerates the disrupted taint block (it is never evicted)', () => {
    const tolerations = [{ key: 'karpenter.sh/disrupted', operator: 'Exists', effect: 'NoSchedule' }];
    const r = plan([
      ...base({ pod: { tolerations } }),
      pdb('pdb', 'app-0', { maxUnavailable: 0 }, { disruptionsAllowed: 0 }),
    ]);
    expect(reasonOf(r, 'node-a')).not.toBe('pdb-blocked');
  });
});

describe('expiration (a separate, forceful controller in Karpenter v1.14)', () => {
  const old = (name: string) => [
    node(name, { type: 's-8', created: '2026-07-01T00:00:00Z' }),
    pod(`${name}-app`, { node: name, cpu: '6' }),
  ];

  it('treats an expired node as deleting: its pods need a home, so they take the space a candidate would use', () => {
    const fleet = [
      nodePool('default'),
      ...old('expired-a'),
      node('node-b', { type: 's-8' }),
      pod('b-app', { node: 'node-b', cpu: '3' }),
      node('worker', { pool: null, type: 's-8' }),
    ];
    const r = plan(fleet);
    expect(r.expired.map((e) => e.node)).toEqual(['expired-a']);
    // the expired node's 6-CPU pod takes the worker, so node-b needs a (cheaper) replacement
    expect(r.commands.map((c) => [c.candidates.map((x) => x.name), c.replacements.length])).toEqual([
      [['node-b'], 1],
    ]);
    const fresh = plan(fleet.filter((o) => (o.metadata as { name: string }).name !== 'expired-a-app'));
    expect(fresh.commands.map((c) => [c.candidates.map((x) => x.name), c.replacements.length])).toEqual([
      [['node-b'], 0],
    ]);
  });

  it('counts an expired node against the budget', () => {
    const r = plan([
      nodePool('default', { budgets: [{ nodes: '1' }] }),
      ...old('expired-a'),
      node('empty-b', { type: 's-8' }),
    ]);
    expect(r.commands).toEqual([]);
    expect(reasonOf(r, 'empty-b')).toBe('budget-exhausted');
  });
});
