// Safety of sequential admission against open commands (docs/mechanisms/attribution.md,
// docs/mechanisms/batched-admission.md): pods of nodes being deleted or named by an open command count as
// disrupted pods, and a node in an open command counts as marked for deletion in every pass and validation.
import { describe, expect, it } from 'vitest';
import { admitSequentially } from '../../../shared/loop/admission.ts';
import { singleNodeCommands } from '../../support/disruption/single-node.ts';
import { runPass } from '../../../shared/disruption/pass.ts';
import { passOptions, type Command } from '../../../shared/disruption/types.ts';
import { validateCommand } from '../../../shared/disruption/validation.ts';
import { node, NOW, nodePool, pod, snapshotOf, type PoolSpec } from './fixtures.ts';

type Obj = Record<string, unknown>;
const options = passOptions({});
const DISRUPTED = { key: 'karpenter.sh/disrupted', effect: 'NoSchedule' };

// n1 and n2 each run one pod; the unmanaged worker has room for exactly one of them. p2 is the larger, so a
// simulation that moves both places p2 first and leaves p1 to open a claim.
function fleet(pool: PoolSpec = {}): Obj[] {
  return [
    nodePool('default', pool),
    node('n1', { type: 's-8' }),
    pod('p1', { node: 'n1', cpu: '4' }),
    node('n2', { type: 's-8' }),
    pod('p2', { node: 'n2', cpu: '4500m' }),
    node('worker', { pool: null, type: 's-8' }),
    pod('w', { node: 'worker', cpu: '3' }),
  ];
}

const proposalsOf = (objs: Obj[]): Command[] => singleNodeCommands(objs);

const nodeObj = (objs: Obj[], name: string): { metadata: Obj; spec: Obj } =>
  objs.find((o) => o.kind === 'Node' && (o.metadata as { name: string }).name === name) as {
    metadata: Obj;
    spec: Obj;
  };

describe('attribution counts the pods of deleting nodes as disrupted', () => {
  it('rejects a delete whose pod would take the slot a deleting node’s pod needs', () => {
    const objs = fleet();
    const [, second] = proposalsOf(objs);
    expect(second?.candidates.map((c) => c.name)).toEqual(['n2']);
    expect(second?.replacements).toEqual([]);
    nodeObj(objs, 'n1').metadata.deletionTimestamp = '2026-09-01T11:59:00Z';
    const v = validateCommand({ snapshot: snapshotOf(objs), now: NOW, options }, second!);
    expect(v).toMatchObject({ valid: false, failure: 'scheduling' });
  });

  it('admits only the first of two deletes that both need the one free slot', async () => {
    const objs = fleet();
    const result = await admitSequentially(proposalsOf(objs), {
      readLive: async () => ({ snapshot: snapshotOf(objs), now: NOW, options }),
      start: async (cmd) => {
        for (const c of cmd.candidates) nodeObj(objs, c.name).metadata.deletionTimestamp = NOW.toISOString();
      },
      stopwatch: { elapsedMs: () => 0 },
    });
    expect(result.admitted.map((c) => c.candidates[0]?.name)).toEqual(['n1']);
    expect(result.rejected).toHaveLength(1);
  });
});

describe('a node named by an open command counts as marked for deletion', () => {
  // StartCommand as admission leaves it: tainted and recorded, not (yet) deleted.
  const startOpen = (objs: Obj[], open: Set<string>) => async (cmd: Command) => {
    for (const c of cmd.candidates) {
      nodeObj(objs, c.name).spec.taints = [DISRUPTED];
      open.add(c.name);
    }
  };

  it('its pods move in a later validation, so a second delete relying on the same slot is rejected', async () => {
    const objs = fleet();
    const open = new Set<string>();
    const result = await admitSequentially(proposalsOf(objs), {
      readLive: async () => ({ snapshot: snapshotOf(objs), now: NOW, options, claimedByCommands: open }),
      start: startOpen(objs, open),
      stopwatch: { elapsedMs: () => 0 },
    });
    expect(result.admitted.map((c) => c.candidates[0]?.name)).toEqual(['n1']);
    expect(result.rejected.map((r) => r.validation)).toMatchObject([{ valid: false }]);
  });

  it('consumes its pool’s budget in the next pass (budget nodes: 1)', () => {
    const objs = fleet({ budgets: [{ nodes: '1' }] });
    nodeObj(objs, 'n1').spec.taints = [DISRUPTED];
    const r = runPass({
      snapshot: snapshotOf(objs),
      now: NOW,
      options,
      claimedByCommands: new Set(['n1']),
    });
    expect(r.commands).toEqual([]);
    expect(r.skipped).toContainEqual(expect.objectContaining({ node: 'n2', reason: 'budget-exhausted' }));
    expect(r.skipped).toContainEqual(
      expect.objectContaining({ node: 'n1', reason: 'claimed-by-pending-command' }),
    );
  });

  it('consumes its pool’s budget in validation too', () => {
    const objs = fleet({ budgets: [{ nodes: '1' }] });
    const [, second] = proposalsOf(objs);
    const v = validateCommand(
      { snapshot: snapshotOf(objs), now: NOW, options, claimedByCommands: new Set(['n1']) },
      second!,
    );
    expect(v).toMatchObject({ valid: false, failure: 'budget' });
  });

  it('gets no pods in a simulation even from a pod that tolerates every taint', () => {
    const objs = [
      nodePool('default'),
      node('n1', { type: 's-8', taints: [DISRUPTED] }),
      node('n2', { type: 's-8' }),
      pod('p2', { node: 'n2', cpu: '2', tolerations: [{ operator: 'Exists' }] }),
    ];
    const r = runPass({ snapshot: snapshotOf(objs), now: NOW, options, claimedByCommands: new Set(['n1']) });
    // Without n1, p2 cannot move anywhere cheaper than a new claim, so n2 is a replace or nothing — never a delete.
    expect(
      r.commands.filter((c) => c.replacements.length === 0 && c.candidates.some((x) => x.name === 'n2')),
    ).toEqual([]);
  });
});

describe('validation counts expired nodes against the budget, as the pass does', () => {
  it('rejects a command when an expired node already takes the pool’s only disruption', () => {
    const objs = fleet({ budgets: [{ nodes: '1' }] });
    const [first] = proposalsOf(objs);
    const expiring = [
      ...objs.map((o) =>
        o.kind === 'NodePool' ? nodePool('default', { budgets: [{ nodes: '1' }], expireAfter: '1h' }) : o,
      ),
    ];
    // n-old was created long ago: past expireAfter, deleted by expiration, so it consumes the budget.
    expiring.push(node('n-old', { type: 's-8', created: '2026-09-01T09:00:00Z' }));
    for (const name of ['n1', 'n2', 'worker'])
      nodeObj(expiring, name).metadata.creationTimestamp = '2026-09-01T11:30:00Z';
    const pass = runPass({ snapshot: snapshotOf(expiring), now: NOW, options });
    expect(pass.expired.map((e) => e.node)).toEqual(['n-old']);
    const v = validateCommand({ snapshot: snapshotOf(expiring), now: NOW, options }, first!);
    expect(v).toMatchObject({ valid: false, failure: 'budget' });
  });
});
