// Validation right before a command starts (Karpenter's validation.go, docs/mechanisms/pass-reads.md): candidates
// still candidates, within budget, not nominated; a consolidation still simulating to the same decision, its
// replacement's instance types a subset of what the fresh simulation allows; drift through the queue only.
import { describe, expect, it } from 'vitest';
import { passOptions } from '../../../shared/disruption/types.ts';
import { validateCommand, type ProposalShape } from '../../../shared/disruption/validation.ts';
import { node, NOW, nodePool, pod, snapshotOf, type PoolSpec } from './fixtures.ts';

type Obj = Record<string, unknown>;
const options = passOptions({});
const live = (objs: Obj[], extra: { nominated?: Set<string> } = {}) => ({
  snapshot: snapshotOf(objs),
  now: NOW,
  options,
  ...extra,
});
const replacing = (instanceTypes: string[]) => [
  { nodePool: 'default', cloud: 'aws' as const, instanceTypes, price: 0.1, requirements: [] },
];
const command = (
  method: string,
  names: string[],
  replacements: ReturnType<typeof replacing> = [],
): ProposalShape => ({
  method: method as ProposalShape['method'],
  candidates: names.map((name) => ({ name })),
  replacements: replacements as unknown as ProposalShape['replacements'],
});
const churn = (detail: string) => ({ valid: false, failure: 'churn', detail });
const scheduling = (detail = 'scheduling simulation produced new results') => ({
  valid: false,
  failure: 'scheduling',
  detail,
});

// n1 and n2 (8 CPUs each) run 3-CPU pods; the unmanaged worker has room for one of them.
function fleet(pool: PoolSpec = {}): Obj[] {
  return [
    nodePool('default', pool),
    node('n1', { type: 's-8' }),
    pod('p1', { node: 'n1', cpu: '3' }),
    node('n2', { type: 's-8' }),
    pod('p2', { node: 'n2', cpu: '3' }),
    node('worker', { pool: null, type: 's-8' }),
    pod('w', { node: 'worker', cpu: '4' }),
  ];
}

describe('validateCommand: candidates', () => {
  it('refuses a method it does not know', () => {
    expect(validateCommand(live(fleet()), command('defragmentation', ['n1']))).toEqual(
      churn('unknown method defragmentation'),
    );
  });

  it('refuses a command whose candidate is gone', () => {
    const objs = fleet().filter((o) => (o.metadata as { name: string }).name !== 'n1');
    expect(validateCommand(live(objs), command('single-node-consolidation', ['n1']))).toEqual(
      churn('a candidate is no longer a candidate'),
    );
  });

  it('refuses the whole command when one of its candidates is gone', () => {
    const objs = [nodePool('default'), node('e1', { type: 's-8' }), node('e2', { type: 's-8' })];
    const cmd = command('emptiness', ['e1', 'e2']);
    expect(validateCommand(live(objs), cmd)).toEqual({ valid: true });
    expect(validateCommand(live(objs.slice(0, 2)), cmd)).toEqual(
      churn('a candidate is no longer a candidate'),
    );
  });

  it('refuses a candidate its method no longer accepts (the pool now consolidates only when empty)', () => {
    const cmd = command('single-node-consolidation', ['n1']);
    expect(validateCommand(live(fleet({ policy: 'WhenEmpty' })), cmd)).toEqual(
      churn('a candidate is no longer a candidate'),
    );
  });

  it('refuses a command whose candidate a pending pod was nominated to', () => {
    const cmd = command('single-node-consolidation', ['n1']);
    expect(validateCommand(live(fleet()), cmd)).toEqual({ valid: true });
    expect(validateCommand(live(fleet(), { nominated: new Set(['n1']) }), cmd)).toEqual(
      churn('a candidate is no longer a candidate'),
    );
  });

  it('refuses an emptiness command once its node runs a pod', () => {
    const objs = [nodePool('default'), node('idle', { type: 's-8' })];
    expect(validateCommand(live(objs), command('emptiness', ['idle']))).toEqual({ valid: true });
    const busy = [...objs, pod('arrived', { node: 'idle', cpu: '1' })];
    expect(validateCommand(live(busy), command('emptiness', ['idle']))).toMatchObject({
      valid: false,
      failure: 'churn',
    });
  });
});

describe('validateCommand: budgets', () => {
  it('refuses a command once its pool’s budget allows no disruption', () => {
    const cmd = command('single-node-consolidation', ['n1']);
    expect(validateCommand(live(fleet({ budgets: [{ nodes: '0' }] })), cmd)).toEqual({
      valid: false,
      failure: 'budget',
      detail: 'a candidate can no longer be disrupted without violating budgets',
    });
  });

  it('counts every candidate against its pool: two candidates need a budget of two', () => {
    const objs = (nodes: string) => [
      nodePool('default', { budgets: [{ nodes }] }),
      node('e1', { type: 's-8' }),
      node('e2', { type: 's-8' }),
    ];
    const cmd = command('emptiness', ['e1', 'e2']);
    expect(validateCommand(live(objs('1')), cmd)).toMatchObject({ valid: false, failure: 'budget' });
    expect(validateCommand(live(objs('2')), cmd)).toEqual({ valid: true });
  });

  it('checks the budget of the reason of the command’s method', () => {
    const objs = [
      nodePool('default', { budgets: [{ nodes: '0', reasons: ['Underutilized'] }] }),
      node('idle', { type: 's-8' }),
    ];
    expect(validateCommand(live(objs), command('emptiness', ['idle']))).toEqual({ valid: true });
  });
});

describe('validateCommand: drift', () => {
  // s-32 is gone from the catalog (2, 4, 8, 16): the node drifted. Its 20-CPU pod fits no instance type left.
  const drifted = () => [
    nodePool('default'),
    node('old', { type: 's-32' }),
    pod('huge', { node: 'old', cpu: '20' }),
  ];

  it('accepts a drift command without re-simulating it (Karpenter validates drift only through the queue)', () => {
    expect(validateCommand(live(drifted()), command('drift', ['old'], replacing(['s-16'])))).toEqual({
      valid: true,
    });
  });
});

describe('validateCommand: the fresh simulation', () => {
  // n1 (8 CPUs) runs a 3-CPU pod; the unmanaged worker has `free` CPUs of its 8 left.
  const single = (free: number) => [
    nodePool('default'),
    node('n1', { type: 's-8' }),
    pod('p1', { node: 'n1', cpu: '3' }),
    node('worker', { pool: null, type: 's-8' }),
    pod('w', { node: 'worker', cpu: String(8 - free) }),
  ];
  const replace = (types: string[]) => command('single-node-consolidation', ['n1'], replacing(types));

  it('accepts a delete whose pods still fit elsewhere, and refuses it once they need a new node', () => {
    const del = command('single-node-consolidation', ['n1']);
    expect(validateCommand(live(single(4)), del)).toEqual({ valid: true });
    expect(validateCommand(live(single(2)), del)).toEqual(scheduling());
  });

  it('refuses a replace once its pods fit on existing nodes (a better option exists)', () => {
    expect(validateCommand(live(single(4)), replace(['s-4']))).toEqual(scheduling());
  });

  it('accepts a replace whose instance types are a subset of what the simulation allows, and no other', () => {
    // The simulation offers s-4, s-8 and s-16 for the 3-CPU pod; s-2 cannot hold it.
    expect(validateCommand(live(single(2)), replace(['s-4', 's-8']))).toEqual({ valid: true });
    expect(validateCommand(live(single(2)), replace(['s-16']))).toEqual({ valid: true });
    expect(validateCommand(live(single(2)), replace(['s-2', 's-4']))).toEqual(scheduling());
  });

  it('refuses a command that would now need more than one replacement (replacement is m → 1)', () => {
    // Two 9-CPU pods: each needs an s-16 of its own.
    const objs = [
      nodePool('default'),
      node('n1', { type: 's-16' }),
      pod('p1', { node: 'n1', cpu: '9' }),
      node('n2', { type: 's-16' }),
      pod('p2', { node: 'n2', cpu: '9' }),
    ];
    const multi = (replacements: ReturnType<typeof replacing>) =>
      command('multi-node-consolidation', ['n1', 'n2'], replacements);
    expect(validateCommand(live(objs), multi(replacing(['s-16'])))).toEqual(scheduling());
    expect(validateCommand(live(objs), multi([]))).toEqual(scheduling());
  });

  it('names the pod that no longer fits anywhere', () => {
    const objs = (types: string[]) => [
      nodePool('default', {
        requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: types }],
      }),
      node('old', { type: 's-16' }),
      pod('wide', { node: 'old', cpu: '15' }),
    ];
    const cmd = command('single-node-consolidation', ['old'], replacing(['s-16']));
    expect(validateCommand(live(objs(['s-16'])), cmd)).toEqual({ valid: true });
    expect(validateCommand(live(objs(['s-2'])), cmd)).toEqual(
      scheduling(
        'pod default/wide: NodePool default: no instance type of NodePool default has enough resources',
      ),
    );
  });
});
