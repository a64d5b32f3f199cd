// The simulation budgets bound a simulation while it runs (docs/mechanisms/candidate-budget.md): the solve
// asks its deadline between pods, so a pathological candidate is cut off instead of measured afterwards.
import { describe, expect, it } from 'vitest';
import { buildCandidates } from '../../../shared/disruption/candidates.ts';
import { computeConsolidation } from '../../../shared/disruption/consolidation.ts';
import { passContext } from '../../../shared/disruption/pass-context.ts';
import { runPass } from '../../../shared/disruption/pass.ts';
import { simulateCandidates } from '../../../shared/disruption/simulate-candidates.ts';
import { passOptions } from '../../../shared/disruption/types.ts';
import { TIMED_OUT_ERROR } from '../../../shared/scheduling/scheduler.ts';
import { node, NOW, nodePool, pod, snapshotOf } from './fixtures.ts';

type Obj = Record<string, unknown>;

// n1 runs 30 small pods, n2 one; an unmanaged worker has room for all of them.
function fleet(): Obj[] {
  const objs: Obj[] = [
    nodePool('default'),
    node('n1', { type: 's-16' }),
    node('n2', { type: 's-8' }),
    pod('solo', { node: 'n2', cpu: '1' }),
    node('worker', { pool: null, type: 's-16' }),
  ];
  for (let i = 0; i < 30; i++) objs.push(pod(`many-${i}`, { node: 'n1', cpu: '100m' }));
  return objs;
}

/** A stopwatch that advances one millisecond each time it is read, so budgets pass after a known number of reads. */
const ticking = () => {
  let t = 0;
  return { elapsedMs: () => t++ };
};

describe('a simulation with a deadline', () => {
  const snapshot = snapshotOf(fleet());
  const ctx = passContext(snapshot, NOW, passOptions({}));
  const n1 = buildCandidates({ snapshot, pdbs: ctx.pdbs(), now: NOW }).candidates.find(
    (c) => c.name === 'n1',
  )!;

  it('stops trying pods once the deadline passed and says it timed out', () => {
    let asked = 0;
    const sim = simulateCandidates(ctx, [n1], [], { passed: () => ++asked > 3 });
    expect(sim.timedOut).toBe(true);
    expect(asked).toBe(4);
    expect([...sim.unscheduled.values()].filter((e) => e === TIMED_OUT_ERROR)).toHaveLength(27);
  });

  it('decides nothing from a partial simulation', () => {
    const outcome = computeConsolidation(ctx, 'single-node-consolidation', [n1], [], { passed: () => true });
    expect(outcome).toMatchObject({ kind: 'no-op', reason: 'timed-out' });
  });

  it('runs to the end when the deadline never passes', () => {
    const sim = simulateCandidates(ctx, [n1], [], { passed: () => false });
    expect(sim.timedOut).toBe(false);
    expect(sim.unscheduled.size).toBe(0);
  });
});

describe('the walk’s budgets inside a simulation', () => {
  it('cuts off a candidate whose own simulation outruns consolidation-candidate-timeout', () => {
    const r = runPass({
      snapshot: snapshotOf(fleet()),
      now: NOW,
      stopwatch: ticking(),
      options: passOptions({ maxCommands: 2, candidateTimeoutMs: 25, multiNodeTimeoutMs: 0 }),
    });
    expect(r.commands.map((c) => c.candidates.map((x) => x.name))).toEqual([['n2']]);
    expect(r.skipped).toContainEqual(expect.objectContaining({ node: 'n1', reason: 'timed-out' }));
  });

  it('ends the walk inside a simulation once the walk budget passes', () => {
    const r = runPass({
      snapshot: snapshotOf(fleet()),
      now: NOW,
      stopwatch: ticking(),
      options: passOptions({ maxCommands: 2, singleNodeTimeoutMs: 40, multiNodeTimeoutMs: 0 }),
    });
    expect(r.timedOut).toBe(true);
    // n1 would be deleted if its simulation ran to the end; cut off, it decides nothing and is not listed.
    expect(r.commands.flatMap((c) => c.candidates.map((x) => x.name))).not.toContain('n1');
    expect(r.skipped.map((s) => s.node)).not.toContain('n1');
    expect(r.outcome).toMatch(/^timed-out/);
  });

  it('bounds a multi-node simulation by the multi-node budget', () => {
    const r = runPass({
      snapshot: snapshotOf(fleet()),
      now: NOW,
      stopwatch: ticking(),
      options: passOptions({ multiNodeTimeoutMs: 12, singleNodeTimeoutMs: 0 }),
    });
    expect(r.commands.filter((c) => c.method === 'multi-node-consolidation')).toEqual([]);
    expect(r.timedOut).toBe(true);
  });
});

describe('the walk’s work, reported to its stopwatch (Stopwatch.work)', () => {
  /** A stopwatch whose time is the work reported to it alone: a candidate 10 ms, a simulation step 1 ms. */
  const charged = () => {
    let t = 0;
    const seen = { candidate: 0, 'simulation-step': 0 };
    return {
      seen,
      elapsedMs: () => t,
      work: (kind: 'candidate' | 'simulation-step', count: number) => {
        seen[kind] += count;
        t += count * (kind === 'candidate' ? 10 : 1);
      },
    };
  };

  it('reports each judged candidate and each pod its simulation tries', () => {
    const stopwatch = charged();
    runPass({
      snapshot: snapshotOf(fleet()),
      now: NOW,
      stopwatch,
      options: passOptions({ maxCommands: 2, multiNodeTimeoutMs: 0 }),
    });
    // Single-node judges n1 (30 pods) and n2 (one); multi-node, with no budget, still judges its first batch.
    expect(stopwatch.seen.candidate).toBeGreaterThanOrEqual(2);
    expect(stopwatch.seen['simulation-step']).toBeGreaterThanOrEqual(31);
  });

  it('spends the walk budget by the work alone: the same walk times out at the same place every time', () => {
    const walk = () =>
      runPass({
        snapshot: snapshotOf(fleet()),
        now: NOW,
        stopwatch: charged(),
        options: passOptions({ maxCommands: 2, singleNodeTimeoutMs: 25, multiNodeTimeoutMs: 0 }),
      });
    const first = walk();
    // n2 (one pod) comes first and costs 10 ms and a step or two; n1's 30 pods at 1 ms each after its own 10 ms
    // pass the 25 ms budget inside its simulation: the walk holds n2 and reaches no verdict for n1.
    expect(first.timedOut).toBe(true);
    expect(first.commands.map((c) => c.candidates.map((x) => x.name))).toEqual([['n2']]);
    expect(first.skipped.map((x) => x.node)).not.toContain('n1');
    expect(walk()).toEqual(first);
  });
});
