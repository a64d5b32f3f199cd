// Karpenter v1.14 disruption budgets: cron windows, percentages rounded up, reasons, consumption, minimum, ledger.
import { describe, expect, it } from 'vitest';
import {
  allowedDisruptions,
  budgetActive,
  budgetAllowance,
  budgetDetails,
  BudgetLedger,
  budgetMapping,
  BudgetError,
  BudgetOverspendError,
  UNBOUNDED,
} from '../../../shared/disruption/budgets.ts';
import { budgetSchema, nodePoolSchema, type Budget, type NodePool } from '../../../shared/model/nodepool.ts';
import type { StateNode } from '../../../shared/state/snapshot.ts';

const budget = (b: Record<string, unknown>): Budget => budgetSchema.parse(b);
const pool = (name: string, budgets: Budget[]): NodePool =>
  nodePoolSchema.parse({
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: { name, uid: `uid-${name}`, generation: 1 },
    spec: {
      template: {
        spec: { nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' } },
      },
      disruption: { budgets },
    },
  });
const stateNode = (name: string, nodePool: string, o: Partial<StateNode> = {}): StateNode => ({
  name,
  node: undefined,
  claim: undefined,
  derivedClaim: true,
  nodePool,
  managed: true,
  initialized: true,
  ready: true,
  inFlight: false,
  markedForDeletion: false,
  labels: {},
  taints: [],
  allocatable: {},
  pods: [],
  podRequests: {},
  daemonRequests: {},
  instanceType: undefined,
  zone: undefined,
  capacityType: undefined,
  price: undefined,
  createdAt: undefined,
  lastPodEventTime: undefined,
  ...o,
});

const at = (iso: string) => new Date(iso);

describe('a budget is active inside its cron window', () => {
  // Friday 2026-11-27; the window of a firing f is [f, f + duration), as Karpenter's Next(now − duration) ≤ now.
  it.each([
    ['0 9 * * *', '8h', '2026-11-27T08:59:59.999Z', false],
    ['0 9 * * *', '8h', '2026-11-27T09:00:00.000Z', true],
    ['0 9 * * *', '8h', '2026-11-27T09:00:30.000Z', true],
    ['0 9 * * *', '8h', '2026-11-27T16:59:59.999Z', true],
    ['0 9 * * *', '8h', '2026-11-27T17:00:00.000Z', false],
    ['0 22 * * fri', '4h', '2026-11-28T01:30:00.000Z', true],
    ['0 22 * * fri', '4h', '2026-11-28T02:00:00.000Z', false],
    ['0 22 * * fri', '4h', '2026-11-27T01:30:00.000Z', false],
    ['*/30 * * * *', '30m', '2026-11-27T13:47:00.000Z', true],
    ['@daily', '1h30m', '2026-11-27T01:29:00.000Z', true],
    ['@daily', '1h30m', '2026-11-27T01:30:00.000Z', false],
  ])('schedule %s for %s at %s → %s', (schedule, duration, now, active) => {
    expect(budgetActive(budget({ nodes: '0', schedule, duration }), at(now))).toBe(active);
  });

  it('is always active without a schedule', () => {
    expect(budgetActive(budget({ nodes: '0' }), at('2026-11-27T00:00:00Z'))).toBe(true);
  });

  it('is always active with a schedule that never fires (robfig/cron gives the zero time, never after now)', () => {
    const never = budget({ nodes: '0', schedule: '0 0 31 2 *', duration: '1h' });
    expect(budgetActive(never, at('2026-11-27T12:00:00Z'))).toBe(true);
    expect(budgetActive(never, at('2026-02-28T23:30:00Z'))).toBe(true);
  });
});

describe('a budget that bypassed the NodePool schema', () => {
  // The schema refuses these; budgetActive is the last line, and the pool fails closed on its BudgetError.
  const unchecked = (b: Record<string, unknown>) => b as unknown as Budget;
  const now = at('2026-11-27T12:00:00Z');
  const thrown = (b: Budget): BudgetError => {
    try {
      budgetActive(b, now);
    } catch (e) {
      if (e instanceof BudgetError) return e;
      throw e;
    }
    throw new Error('budgetActive did not throw');
  };

  it('needs both a schedule and a duration, and says which one is missing', () => {
    expect(thrown(unchecked({ nodes: '0', schedule: '0 9 * * *' })).message).toBe(
      'budget needs both schedule and duration (schedule=0 9 * * *, duration=-)',
    );
    expect(thrown(unchecked({ nodes: '0', duration: '8h' })).message).toBe(
      'budget needs both schedule and duration (schedule=-, duration=8h)',
    );
  });

  it('names a duration or schedule that does not parse, keeping the cron error as its cause', () => {
    expect(thrown(unchecked({ nodes: '0', schedule: '0 9 * * *', duration: 'soon' })).message).toBe(
      'budget duration "soon" is not a duration',
    );
    const cron = thrown(unchecked({ nodes: '0', schedule: 'at nine', duration: '8h' }));
    expect(cron.message).toBe('budget schedule "at nine" is not a cron schedule');
    expect(cron.cause).toBeInstanceOf(Error);
  });

  it('fails the pool closed to 0 for a half-scheduled budget or nodes that are neither a count nor a percentage', () => {
    const valid = pool('p', []);
    const closed = (b: Record<string, unknown>) =>
      allowedDisruptions(
        {
          ...valid,
          spec: { ...valid.spec, disruption: { ...valid.spec.disruption, budgets: [unchecked(b)] } },
        },
        100,
        'Empty',
        now,
      );
    expect(closed({ nodes: '50', schedule: '0 9 * * *' })).toBe(0);
    expect(closed({ nodes: '50', duration: '8h' })).toBe(0);
    for (const nodes of ['1.5%', '5%x', 'x5%', '-3', '3x', 'ten'])
      expect(closed({ nodes }), `nodes ${nodes}`).toBe(0);
    expect(() => budgetAllowance(unchecked({ nodes: '3x' }), 100, now)).toThrow(
      'budget nodes "3x" is neither a count nor a percentage',
    );
  });

  it('reports its errors under their own names', () => {
    expect(thrown(unchecked({ nodes: '0', duration: '8h' })).name).toBe('BudgetError');
    expect(new BudgetOverspendError('gpu', 2, 1).name).toBe('BudgetOverspendError');
  });
});

describe('the allowance of a NodePool for a reason', () => {
  const now = at('2026-11-27T12:00:00Z');

  it.each([
    ['10%', 10, 1],
    ['10%', 11, 2],
    ['5%', 10, 1],
    ['1%', 1, 1],
    ['50%', 3, 2],
    ['0%', 100, 0],
    ['100%', 7, 7],
    ['10%', 0, 0],
    ['3', 100, 3],
    ['0', 5, 0],
  ])('nodes %s of %i nodes allows %i (percentages round up)', (nodes, count, expected) => {
    expect(allowedDisruptions(pool('p', [budget({ nodes })]), count, 'Underutilized', now)).toBe(expected);
  });

  it('takes the minimum over the active budgets that apply to the reason', () => {
    const p = pool('p', [budget({ nodes: '50%' }), budget({ nodes: '3' }), budget({ nodes: '20%' })]);
    expect(allowedDisruptions(p, 10, 'Drifted', now)).toBe(2);
  });

  it('ignores budgets for other reasons; budgets without reasons apply to every reason', () => {
    const p = pool('p', [
      budget({ nodes: '0', reasons: ['Drifted'] }),
      budget({ nodes: '5' }),
      budget({ nodes: '2', reasons: ['Empty', 'Underutilized'] }),
    ]);
    expect(allowedDisruptions(p, 100, 'Drifted', now)).toBe(0);
    expect(allowedDisruptions(p, 100, 'Underutilized', now)).toBe(2);
    expect(allowedDisruptions(p, 100, 'Empty', now)).toBe(2);
  });

  it('is unbounded when no budget applies, and an explicit empty reasons list applies to none (Reasons == nil)', () => {
    expect(
      allowedDisruptions(pool('p', [budget({ nodes: '0', reasons: ['Empty'] })]), 10, 'Drifted', now),
    ).toBe(UNBOUNDED);
    expect(allowedDisruptions(pool('p', [budget({ nodes: '0', reasons: [] })]), 10, 'Drifted', now)).toBe(
      UNBOUNDED,
    );
  });

  it('ignores a scheduled budget outside its window', () => {
    const p = pool('p', [
      budget({ nodes: '10' }),
      budget({ nodes: '0', schedule: '0 0 * * *', duration: '8h' }),
    ]);
    expect(allowedDisruptions(p, 10, 'Empty', at('2026-11-27T07:59:00Z'))).toBe(0);
    expect(allowedDisruptions(p, 10, 'Empty', at('2026-11-27T08:00:00Z'))).toBe(10);
  });

  it('fails closed to 0 when any budget, even one for another reason, is misconfigured', () => {
    const raw = pool('p', [budget({ nodes: '10' })]);
    const broken: NodePool = {
      ...raw,
      spec: {
        ...raw.spec,
        disruption: {
          ...raw.spec.disruption,
          budgets: [
            { nodes: '10' },
            { nodes: '1', schedule: 'not a cron', duration: '1h', reasons: ['Empty'] },
          ],
        },
      },
    };
    expect(allowedDisruptions(broken, 10, 'Drifted', now)).toBe(0);
  });

  it('uses the NodePool default budget of 10%', () => {
    const p = nodePoolSchema.parse({
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodePool',
      metadata: { name: 'd' },
      spec: { template: { spec: { nodeClassRef: { group: 'g', kind: 'K', name: 'n' } } } },
    });
    expect(allowedDisruptions(p, 25, 'Underutilized', now)).toBe(3);
  });
});

describe('the budget mapping of a fleet', () => {
  const now = at('2026-11-27T12:00:00Z');
  const fleet = (overrides: Partial<StateNode>[]): StateNode[] =>
    overrides.map((o, i) => stateNode(`n${i}`, 'p', o));

  it('subtracts NotReady and deleting nodes, never going below 0', () => {
    const nodes = fleet([{}, {}, {}, {}, {}, {}, {}, {}, { ready: false }, { markedForDeletion: true }]);
    const details = budgetDetails([pool('p', [budget({ nodes: '30%' })])], nodes, 'Underutilized', now);
    expect(details.get('p')).toEqual({ nodes: 10, allowed: 3, consuming: 2, remaining: 1 });
    const tight = budgetMapping([pool('p', [budget({ nodes: '1' })])], nodes, 'Underutilized', now);
    expect(tight.get('p')).toBe(0);
  });

  it('counts nodes of open commands as disrupting', () => {
    const nodes = fleet([{}, {}, {}, {}]);
    const m = budgetMapping([pool('p', [budget({ nodes: '2' })])], nodes, 'Drifted', now, {
      disrupting: new Set(['n0']),
    });
    expect(m.get('p')).toBe(1);
  });

  it('counts only managed, initialized nodes whose claim is not InstanceTerminating towards a percentage', () => {
    const terminating = {
      metadata: { name: 'c' },
      spec: { nodeClassRef: { group: 'g', kind: 'K', name: 'n' }, requirements: [] },
      status: { conditions: [{ type: 'InstanceTerminating', status: 'True' }] },
    };
    const nodes = [
      ...fleet([{}, {}, {}, {}, {}, {}, {}, {}, {}, {}]),
      stateNode('uninit', 'p', { initialized: false, ready: false }),
      stateNode('unmanaged', 'p', { managed: false, ready: false }),
      stateNode('term', 'p', { claim: terminating as unknown as StateNode['claim'], ready: false }),
    ];
    const d = budgetDetails([pool('p', [budget({ nodes: '10%' })])], nodes, 'Empty', now).get('p');
    expect(d).toEqual({ nodes: 10, allowed: 1, consuming: 0, remaining: 1 });
  });

  it('counts a node whose claim is not InstanceTerminating', () => {
    const claim = (status: string | undefined) =>
      ({
        metadata: { name: 'c' },
        spec: { nodeClassRef: { group: 'g', kind: 'K', name: 'n' }, requirements: [] },
        status: { conditions: status ? [{ type: 'InstanceTerminating', status }] : [] },
      }) as unknown as StateNode['claim'];
    const nodes = [
      stateNode('a', 'p', { claim: claim(undefined) }),
      stateNode('b', 'p', { claim: claim('False'), ready: false }),
    ];
    const d = budgetDetails([pool('p', [budget({ nodes: '100%' })])], nodes, 'Empty', now).get('p');
    expect(d).toEqual({ nodes: 2, allowed: 2, consuming: 1, remaining: 1 });
  });

  it('has an entry per NodePool, 0 nodes included, and separates pools', () => {
    const nodes = [stateNode('a', 'p'), stateNode('b', 'q', { ready: false })];
    const m = budgetMapping(
      [
        pool('p', [budget({ nodes: '1' })]),
        pool('q', [budget({ nodes: '1' })]),
        pool('r', [budget({ nodes: '100%' })]),
      ],
      nodes,
      'Empty',
      now,
    );
    expect([...m]).toEqual([
      ['p', 1],
      ['q', 0],
      ['r', 0],
    ]);
  });
});

describe('the budget ledger', () => {
  it('decrements per held node and refuses to overspend', () => {
    const mapping = new Map([
      ['p', 2],
      ['q', 1],
    ]);
    const l0 = BudgetLedger.from(mapping);
    const l1 = l0.hold(['p']);
    expect(l1.remaining('p')).toBe(1);
    expect(l0.remaining('p')).toBe(2);
    expect(l1.canHold(['p', 'p'])).toBe(false);
    expect(() => l1.hold(['p', 'q', 'p'])).toThrow(BudgetOverspendError);
    expect(l1.tryHold(['p', 'q'])?.toMap()).toEqual(
      new Map([
        ['p', 0],
        ['q', 0],
      ]),
    );
    expect(mapping).toEqual(
      new Map([
        ['p', 2],
        ['q', 1],
      ]),
    );
  });

  it('treats a pool missing from the mapping as exhausted', () => {
    expect(BudgetLedger.from(new Map()).canHold(['p'])).toBe(false);
    expect(BudgetLedger.from(new Map()).canHold([])).toBe(true);
  });

  it('names the pool and the shortfall in the error', () => {
    expect(() => BudgetLedger.from(new Map([['gpu', 1]])).hold(['gpu', 'gpu'])).toThrow(
      /NodePool gpu .*\(1 left\)/,
    );
  });

  it('refuses a negative or fractional starting budget', () => {
    expect(() => BudgetLedger.from(new Map([['p', -1]]))).toThrow(/NodePool p/);
    expect(() => BudgetLedger.from(new Map([['p', 0.5]]))).toThrow(/NodePool p/);
  });
});
