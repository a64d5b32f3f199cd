// The methods in order and their own rules: emptiness, drift, multi-node's binary search, the single-node walk
// (interleaving, batched proposals, timeouts) and disruption budgets as the pass applies them.
import { describe, expect, it } from 'vitest';
import { upstreamOrder as interleave } from '../../../shared/disruption/coverage-cycle.ts';
import type { Candidate } from '../../../shared/disruption/types.ts';
import { runPass } from '../../../shared/disruption/pass.ts';
import { catalogSchema } from '../../../shared/model/catalog.ts';
import { buildInstanceTypes } from '../../../shared/scheduling/instance-type.ts';
import { passOptions, type PassOptions, type Stopwatch } from '../../../shared/disruption/types.ts';
import { ec2NodeClass, names, node, NOW, nodePool, plan, pod, reasonOf, snapshotOf } from './fixtures.ts';

const empty = (name: string, pool = 'default') => [
  node(name, { pool, type: 's-8' }),
  pod(`${name}-ds`, { node: name, cpu: '100m', daemon: true }),
];
const busy = (name: string, cpu: string, extra: Parameters<typeof node>[1] = {}) => [
  node(name, { type: 's-16', ...extra }),
  pod(`${name}-app`, { node: name, cpu }),
];

describe('emptiness', () => {
  it('deletes every empty node in one command and stops the pass there', () => {
    const r = plan([nodePool('default'), ...empty('e1'), ...empty('e2'), ...busy('b1', '3')]);
    expect(r.method).toBe('emptiness');
    expect(names(r)).toEqual([['e1', 'e2']]);
    expect(r.commands[0]?.replacements).toEqual([]);
  });

  it('treats a node whose only pods are DaemonSet pods as empty', () => {
    expect(plan([nodePool('default'), ...empty('e1')]).method).toBe('emptiness');
  });

  it('keeps an empty node inside consolidateAfter', () => {
    const r = plan([nodePool('default'), node('e1', { created: '2026-09-01T11:59:50Z' })]);
    expect(reasonOf(r, 'e1')).toBe('consolidate-after');
  });

  it('deletes empty nodes of a WhenEmpty pool', () => {
    expect(names(plan([nodePool('default', { policy: 'WhenEmpty' }), ...empty('e1')]))).toEqual([['e1']]);
  });
});

describe('disruption budgets', () => {
  it('holds no more empty nodes than the budget allows and skips the rest', () => {
    const r = plan([nodePool('default', { budgets: [{ nodes: '1' }] }), ...empty('e1'), ...empty('e2')]);
    expect(names(r)).toEqual([['e1']]);
    expect(reasonOf(r, 'e2')).toBe('budget-exhausted');
  });

  it('rounds a percentage up (10% of 3 nodes allows 1)', () => {
    const r = plan([
      nodePool('default', { budgets: [{ nodes: '10%' }] }),
      ...empty('e1'),
      ...empty('e2'),
      ...empty('e3'),
    ]);
    expect(names(r)).toEqual([['e1']]);
  });

  it('counts a NotReady node against the budget', () => {
    const r = plan([
      nodePool('default', { budgets: [{ nodes: '1' }] }),
      ...empty('e1'),
      node('sick', { ready: false }),
      pod('s-app', { node: 'sick', cpu: '1' }),
    ]);
    expect(r.commands).toEqual([]);
    expect(reasonOf(r, 'e1')).toBe('budget-exhausted');
  });

  it('applies a budget only to the reasons it names', () => {
    const pool = nodePool('default', { budgets: [{ nodes: '0', reasons: ['Underutilized'] }] });
    expect(names(plan([pool, ...empty('e1')]))).toEqual([['e1']]);
    expect(reasonOf(plan([pool, ...busy('b1', '3')]), 'b1')).toBe('budget-exhausted');
  });

  it('applies a scheduled budget only inside its window (UTC)', () => {
    const pool = nodePool('default', { budgets: [{ nodes: '0', schedule: '0 11 * * *', duration: '2h' }] });
    expect(plan([pool, ...empty('e1')]).commands).toEqual([]);
    expect(names(plan([pool, ...empty('e1')], {}, undefined, new Date('2026-09-01T14:00:00Z')))).toEqual([
      ['e1'],
    ]);
  });
});

describe('drift', () => {
  it('replaces a node whose NodePool hash changed, before consolidating anything', () => {
    const pool = nodePool('default', {
      annotations: { 'karpenter.sh/nodepool-hash': 'new', 'karpenter.sh/nodepool-hash-version': 'v3' },
    });
    const r = plan([
      pool,
      ...busy('d1', '3', {
        annotations: { 'karpenter.sh/nodepool-hash': 'old', 'karpenter.sh/nodepool-hash-version': 'v3' },
      }),
    ]);
    expect(r.method).toBe('drift');
    expect(names(r)).toEqual([['d1']]);
    expect(r.commands[0]?.replacements).toHaveLength(1);
  });

  it('ignores a hash computed by another hash version', () => {
    const pool = nodePool('default', {
      annotations: { 'karpenter.sh/nodepool-hash': 'new', 'karpenter.sh/nodepool-hash-version': 'v4' },
    });
    const r = plan([
      pool,
      ...busy('d1', '3', {
        annotations: { 'karpenter.sh/nodepool-hash': 'old', 'karpenter.sh/nodepool-hash-version': 'v3' },
      }),
    ]);
    expect(r.method).toBe('single-node-consolidation');
  });

  it('replaces a node that no longer satisfies the NodePool requirements', () => {
    const pool = nodePool('default', {
      requirements: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['us-east-1b'] }],
    });
    const r = plan([pool, ...busy('d1', '3', { zone: 'us-east-1a' })]);
    expect(r.method).toBe('drift');
    expect(r.commands[0]?.replacements[0]?.zone).toBe('us-east-1b');
  });

  it('replaces a node whose instance type left the catalog', () => {
    const r = plan([
      nodePool('default'),
      node('d1', { type: 's-32' }),
      pod('d1-app', { node: 'd1', cpu: '3' }),
    ]);
    expect(r.method).toBe('drift');
  });

  it('replaces a node whose node class hash changed', () => {
    const key = 'karpenter.k8s.aws/ec2nodeclass-hash';
    const r = plan([
      nodePool('default'),
      ec2NodeClass({ [key]: '2' }),
      ...busy('d1', '3', { annotations: { [key]: '1' } }),
    ]);
    expect(r.method).toBe('drift');
  });

  it('drifts empty nodes before busy ones', () => {
    const pool = nodePool('default', {
      requirements: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['us-east-1b'] }],
      consolidateAfter: 'Never',
    });
    const r = plan([pool, ...busy('a-busy', '3'), node('z-empty', { type: 's-8' })]);
    expect(names(r)).toEqual([['z-empty']]);
  });
});

describe('multi-node consolidation', () => {
  it('removes several underutilized nodes with one command', () => {
    const r = plan([nodePool('default'), ...busy('m1', '2'), ...busy('m2', '2'), ...busy('m3', '2')]);
    expect(r.method).toBe('multi-node-consolidation');
    expect(r.commands).toHaveLength(1);
    expect(r.commands[0]!.candidates.length).toBeGreaterThanOrEqual(2);
  });

  it('returns nothing when the search runs out of time before its first answer, and the walk goes on', () => {
    let t = 0;
    const stopwatch = { elapsedMs: () => (t += 1000) };
    const objs = [nodePool('default'), ...busy('m1', '2'), ...busy('m2', '2'), ...busy('m3', '2')];
    const timed = runWith(objs, stopwatch, { multiNodeTimeoutMs: 500 });
    expect(timed.timedOut).toBe(true);
    expect(timed.method).toBe('single-node-consolidation');
  });
});

describe('multi-node replacement of a type it already runs (filterOutSameInstanceType)', () => {
  it('refuses to replace two s-8 nodes with one s-8, and deletes one instead', () => {
    const r = plan([
      nodePool('default'),
      node('a', { type: 's-8' }),
      pod('a-0', { node: 'a', cpu: '3' }),
      node('b', { type: 's-8' }),
      pod('b-0', { node: 'b', cpu: '3' }),
    ]);
    expect(r.method).toBe('single-node-consolidation');
    expect(names(r)).toEqual([['a']]);
    expect(r.commands[0]?.replacements).toEqual([]);
  });
});

describe('consolidation order (Karpenter v1.14.1: savings ratio, descending)', () => {
  const fleet = (priority?: number) => [
    nodePool('default'),
    node('a-small', { type: 's-8' }),
    pod('a-0', { node: 'a-small', cpu: '3' }),
    node('z-big', { type: 's-16' }),
    pod('z-0', { node: 'z-big', cpu: '3', priority }),
  ];

  it('walks the node that saves most per unit of disruption first', () => {
    expect(names(plan(fleet()))).toEqual([['z-big']]);
  });

  it("lets pod priority raise a node's disruption cost and move it back", () => {
    expect(names(plan(fleet(2 ** 25 * 5)))).toEqual([['a-small']]);
  });
});

// Pods pinned to their node's zone: removing both needs two new nodes (multi-node fails), one at a time works.
const pinned = [
  nodePool('default'),
  node('n1', { type: 's-16', zone: 'us-east-1a' }),
  node('n2', { type: 's-16', zone: 'us-east-1b' }),
  pod('p1', { node: 'n1', cpu: '5', nodeSelector: { 'topology.kubernetes.io/zone': 'us-east-1a' } }),
  pod('p2', { node: 'n2', cpu: '5', nodeSelector: { 'topology.kubernetes.io/zone': 'us-east-1b' } }),
];

describe('single-node consolidation', () => {
  it('stops at its first command, as Karpenter, by default', () => {
    const r = plan(pinned);
    expect(names(r)).toEqual([['n1']]);
    expect(r.method).toBe('single-node-consolidation');
  });

  it('holds up to maxCommands proposals, one candidate each', () => {
    expect(names(plan(pinned, { maxCommands: 2 }))).toEqual([['n1'], ['n2']]);
  });

  it('never holds more proposals of a pool than its budget', () => {
    const budgeted = [nodePool('default', { budgets: [{ nodes: '1' }] }), ...pinned.slice(1)];
    const r = plan(budgeted, { maxCommands: 2 });
    expect(names(r)).toEqual([['n1']]);
    expect(reasonOf(r, 'n2')).toBe('budget-exhausted');
  });

  it('upstream mode holds one proposal whatever maxCommands says', () => {
    expect(names(plan(pinned, { maxCommands: 2, upstream: true }))).toEqual([['n1']]);
  });

  it('does not list the candidates a timed-out walk never reached as skips', () => {
    let t = 0;
    const r = runWith(
      pinned,
      { elapsedMs: () => (t += 10) },
      { singleNodeTimeoutMs: 25, multiNodeTimeoutMs: 1e9, maxCommands: 2 },
    );
    expect(r.timedOut).toBe(true);
    expect(reasonOf(r, 'n2')).toBeUndefined();
  });

  it('interleaves pools and puts the pools a timed-out walk never reached first', () => {
    const c = (name: string, nodePool: string) => ({ name, nodePool }) as Candidate;
    const sorted = [c('a1', 'a'), c('a2', 'a'), c('a3', 'a'), c('b1', 'b'), c('c1', 'c')];
    expect(interleave(sorted, []).map((x) => x.name)).toEqual(['a1', 'b1', 'c1', 'a2', 'a3']);
    expect(interleave(sorted, ['c']).map((x) => x.name)).toEqual(['c1', 'a1', 'b1', 'a2', 'a3']);
  });
});

function runWith(
  objs: Parameters<typeof snapshotOf>[0],
  stopwatch: Stopwatch,
  options: Partial<PassOptions> = {},
) {
  return runPass({ snapshot: snapshotOf(objs), now: NOW, options: passOptions(options), stopwatch });
}

describe("drift by requirements reads the instance type's catalog labels", () => {
  const types = buildInstanceTypes(
    catalogSchema.parse({
      apiVersion: 'kraftsman.dev/v1alpha1',
      kind: 'InstanceTypeCatalog',
      instanceTypes: [8, 16].map((n) => ({
        name: `s-${n}`,
        cloud: 'aws',
        capacity: { cpu: String(n), memory: `${n * 4}Gi`, pods: '110' },
        labels: { 'example.com/family': n === 8 ? 'small' : 'big' },
        offerings: [{ zone: 'us-east-1a', capacityType: 'on-demand', price: 0.05 * n }],
      })),
    }).instanceTypes,
  );
  const pool = (family: string) =>
    nodePool('default', {
      consolidateAfter: 'Never',
      requirements: [{ key: 'example.com/family', operator: 'In', values: [family] }],
    });

  it('does not call a node drifted for a label only its instance type carries', () => {
    expect(plan([pool('big'), ...busy('d1', '3')], {}, types).method).toBeUndefined();
  });

  it('calls it drifted when that label no longer satisfies the pool', () => {
    expect(plan([pool('small'), ...busy('d1', '3')], {}, types).method).toBe('drift');
  });
});
