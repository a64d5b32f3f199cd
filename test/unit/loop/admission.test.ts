// Validation against live state and sequential admission: a proposal that relied on capacity an earlier admitted
// command consumed is rejected; a changed cluster invalidates a command; the admission budget stops the queue.
import { describe, expect, it } from 'vitest';
import { admitSequentially } from '../../../shared/loop/admission.ts';
import { admissionBudgetMs } from '../../../shared/disruption/admission-budget.ts';
import { singleNodeCommands } from '../../support/disruption/single-node.ts';
import { passOptions, type Command } from '../../../shared/disruption/types.ts';
import { validateCommand } from '../../../shared/disruption/validation.ts';
import { node, NOW, nodePool, pod, snapshotOf } from '../disruption/fixtures.ts';

type Obj = Record<string, unknown>;
const options = passOptions({});

// Two nodes whose pods each fit the one free slot on an unmanaged worker; proposals computed each on its own.
function fleet(): Obj[] {
  return [
    nodePool('default'),
    node('n1', { type: 's-8' }),
    pod('p1', { node: 'n1', cpu: '4', created: '2026-09-01T08:01:00Z' }),
    node('n2', { type: 's-8' }),
    pod('p2', { node: 'n2', cpu: '4', created: '2026-09-01T08:02:00Z' }),
    node('worker', { pool: null, type: 's-8' }),
    pod('w', { node: 'worker', cpu: '3' }),
  ];
}

const independentProposals = (objs: Obj[]): Command[] => singleNodeCommands(objs);

const live = (objs: Obj[]) => ({ snapshot: snapshotOf(objs), now: NOW, options });

describe('validation against live state', () => {
  it('accepts a command on an unchanged cluster', () => {
    const [first] = independentProposals(fleet());
    expect(validateCommand(live(fleet()), first!)).toEqual({ valid: true });
  });

  it('rejects a delete once the capacity it relied on is taken', () => {
    const [first] = independentProposals(fleet());
    const changed = [
      ...fleet(),
      pod('newcomer', { node: 'worker', cpu: '4' }),
      pod('newcomer-2', { node: 'n2', cpu: '4' }),
    ];
    expect(validateCommand(live(changed), first!)).toMatchObject({ valid: false, failure: 'scheduling' });
  });

  it('rejects a command whose candidate became protected', () => {
    const [first] = independentProposals(fleet());
    const objs = fleet();
    (objs[1] as { metadata: Obj }).metadata.annotations = { 'karpenter.sh/do-not-disrupt': 'true' };
    expect(validateCommand(live(objs), first!)).toMatchObject({ valid: false, failure: 'churn' });
  });
});

describe('sequential admission', () => {
  it('validates each proposal after the previous one started, so the second sees the first', async () => {
    const objs = fleet();
    const proposals = independentProposals(objs);
    expect(proposals.map((p) => p.replacements.length)).toEqual([0, 0]); // each alone would move onto the worker
    const started: string[] = [];
    const result = await admitSequentially(proposals, {
      readLive: async () => live(objs),
      start: async (cmd) => {
        for (const c of cmd.candidates) {
          const n = objs.find(
            (o) => (o.metadata as { name: string }).name === c.name && o.kind === 'Node',
          ) as { metadata: Obj };
          n.metadata.deletionTimestamp = '2026-09-01T12:00:00Z';
          started.push(c.name);
        }
      },
      stopwatch: { elapsedMs: () => 0 },
    });
    expect(started).toEqual(['n1']);
    expect(result.admitted.map((c) => c.candidates[0]?.name)).toEqual(['n1']);
    expect(result.rejected.map((r) => r.validation)).toMatchObject([{ valid: false, failure: 'scheduling' }]);
  });

  it('stops when the admission budget (settling delay + 20 s per proposal) runs out', async () => {
    const proposals = independentProposals(fleet());
    let t = 0;
    const result = await admitSequentially(proposals, {
      readLive: async () => live(fleet()),
      start: async () => void (t += admissionBudgetMs(2) + 1),
      stopwatch: { elapsedMs: () => t },
    });
    expect(result.admitted).toHaveLength(1);
    expect(result.expired).toHaveLength(1);
  });
});
