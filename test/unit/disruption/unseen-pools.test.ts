// Upstream mode's unseen-pools memory across passes through the StateStore port (memory adapter): Karpenter's
// SingleNodeConsolidation keeps PreviouslyUnseenNodePools between reconciles and walks those pools first, so a
// Lambda pass must read the set the previous pass left, write the new one under its version, and clear it
// when a walk reaches every pool.
import { describe, expect, it } from 'vitest';
import { MemoryStateStore } from '../../../shared/adapters/memory/state-store.ts';
import { passOptions } from '../../../shared/disruption/types.ts';
import { disruptionPass } from '../../../shared/loop/disruption-pass.ts';
import type { Metrics } from '../../../shared/ports/metrics.ts';
import type { StateStore } from '../../../shared/ports/state-store/index.ts';
import { ConditionFailedError } from '../../../shared/ports/state-store/errors.ts';
import { node, NOW, nodePool, pod, snapshotOf } from './fixtures.ts';

type Obj = Record<string, unknown>;

// Two pools of nodes that each simulate to a no-op (a 3-CPU pod on a 4-CPU node has nowhere cheaper to go).
function fleet(): Obj[] {
  const all = { budgets: [{ nodes: '100%' }] };
  const out: Obj[] = [nodePool('a', all), nodePool('b', all)];
  for (const pool of ['a', 'b'])
    for (let i = 0; i < 2; i++) {
      const name = `${pool}${i}`;
      out.push(node(name, { type: 's-4', pool }), pod(`${name}-app`, { node: name, cpu: '3' }));
    }
  return out;
}

const metrics: Metrics = { count: () => {}, gauge: () => {}, observe: () => {} };
const clock = { now: () => NOW };
// The stopwatch advances one millisecond per read; with a 2 ms walk budget the walk always reaches exactly
// one candidate (the check before the second comes at least three reads after the walk's start).
function ticking() {
  let t = 0;
  return { elapsedMs: () => (t += 1) };
}
const request = (budgetMs: number) => ({
  cluster: 'test',
  snapshot: snapshotOf(fleet()),
  options: passOptions({ upstream: true, singleNodeTimeoutMs: budgetMs }),
});
const reachedIn = (depth: ReadonlyMap<string, { reached: number }> | undefined) =>
  Object.fromEntries([...(depth ?? [])].map(([pool, d]) => [pool, d.reached]));

describe('upstream mode keeps the unseen pools across passes (Karpenter PreviouslyUnseenNodePools)', () => {
  it('starts the second walk from the pool the first one never reached, and clears the set after a full walk', async () => {
    const store = new MemoryStateStore(clock);
    const first = await disruptionPass({ store, clock, metrics, stopwatch: ticking() }, request(2));
    expect(first.timedOut).toBe(true);
    // Pools by name when nothing is remembered: the walk reached a0 and timed out before b0.
    expect(reachedIn(first.depth)).toEqual({ a: 1, b: 0 });
    expect((await store.loadPassState('test')).unseenPools).toEqual({ version: 1, pools: ['b'] });

    const second = await disruptionPass({ store, clock, metrics, stopwatch: ticking() }, request(2));
    // Without the stored set the walk would start at a0 again and pool b would never be reached.
    expect(reachedIn(second.depth)).toEqual({ a: 0, b: 1 });
    expect((await store.loadPassState('test')).unseenPools).toEqual({ version: 2, pools: ['a'] });

    // A walk that runs to the end of the list saw every pool: Karpenter stores the empty set.
    const full = await disruptionPass({ store, clock, metrics }, request(180_000));
    expect(full.timedOut).toBe(false);
    expect(reachedIn(full.depth)).toEqual({ a: 2, b: 2 });
    expect((await store.loadPassState('test')).unseenPools).toEqual({ version: 3, pools: [] });

    // Unchanged memory is not written again.
    await disruptionPass({ store, clock, metrics }, request(180_000));
    expect((await store.loadPassState('test')).unseenPools.version).toBe(3);
  });

  it('is fenced by the version it read: a pass that raced a newer write fails and leaves that write', async () => {
    const store = new MemoryStateStore(clock);
    const racing: StateStore = Object.assign(Object.create(store) as MemoryStateStore, {
      async loadPassState(cluster: string) {
        const state = await store.loadPassState(cluster);
        await store.putUnseenPools(cluster, state.unseenPools.version, ['z']);
        return state;
      },
    });
    const err = await disruptionPass(
      { store: racing, clock, metrics, stopwatch: ticking() },
      request(2),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConditionFailedError);
    expect((err as ConditionFailedError<number>).current).toBe(1);
    expect((await store.loadPassState('test')).unseenPools).toEqual({ version: 1, pools: ['z'] });
  });
});
