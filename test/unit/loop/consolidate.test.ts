// The consolidation use case against the emulator and the memory store, and the whole loop it starts:
// pass → admission → orchestration to completion; overlapping passes run once (the other is `held`), and a
// pass that lost its lease hands nothing off and writes no pass memory back.
import { afterEach, describe, expect, it } from 'vitest';
import type { Proposal } from '../../../shared/disruption/proposal.ts';
import { passOptions } from '../../../shared/disruption/types.ts';
import { admit } from '../../../shared/loop/admit.ts';
import { consolidate } from '../../../shared/loop/consolidate.ts';
import { orchestrate } from '../../../shared/loop/orchestrate.ts';
import { FakeCloudProvider } from '../../fakes/cloud-provider.ts';
import { node, nodePool, pod } from '../disruption/fixtures.ts';
import { bringUp, startWorld, type World } from './harness.ts';

const options = passOptions({});
const PASS_MEMORY_WRITES = new Set([
  'startCoverageCycle',
  'markEvaluated',
  'putUnseenPools',
  'putNegativeEntries',
  'deleteNegativeEntries',
  'putConsolidatedView',
  'deleteReplacementBackoffs',
]);
const fleet = () => [
  nodePool('default'),
  node('big', { type: 's-16' }),
  pod('small', { node: 'big', cpu: '1' }),
];

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

function consolidation(w: World, sent: Proposal[][]) {
  return { ...w.deps(), handOff: async (p: readonly Proposal[]) => void sent.push([...p]) };
}

/** Mid-pass the holder stalls past its TTL, another attempt takes the lease, and the heartbeat finds it lost. */
async function takeLeaseMidPass(
  w: Awaited<ReturnType<typeof startWorld>>,
  base: ReturnType<typeof consolidation>,
  ttlMs: number,
): Promise<void> {
  w.clock.advance(ttlMs + 1);
  await w.store.acquireLease({ cluster: 'c1', name: 'consolidation', owner: 'pass-new', ttlMs });
  base.timer.fire();
  await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('consolidate', () => {
  it('hands the pass’s proposals to admission, which starts them, and orchestration completes them', async () => {
    world = await startWorld(fleet());
    const sent: Proposal[][] = [];
    const r = await consolidate(consolidation(world, sent), { cluster: 'c1', owner: 'pass-1', options });
    if (r.outcome !== 'ran') throw new Error(`the pass did not run: held by ${r.holder}`);
    expect(r.pass.outcome).toBe('proposed');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.map((p) => [p.candidates, p.replacements.length])).toEqual([[['big'], 1]]);

    const admitted = await admit(world.deps(), {
      cluster: 'c1',
      owner: 'admit-1',
      proposals: sent[0]!,
      options,
    });
    const cmd = (await world.store.getCommand('c1', admitted.admitted[0]!.id))!;
    await bringUp(world, cmd.replacements[0]!);
    const cloud = new FakeCloudProvider([]);
    const deps = { ...world.deps(), providers: new Map([['aws' as const, cloud]]) };
    for (let i = 0; i < 3; i++) {
      await orchestrate(deps, { cluster: 'c1', owner: `orch-${i}` });
      world.clock.advance(31_000); // evicted pods terminate within their grace period between runs
    }
    expect((await world.store.getCommand('c1', cmd.id))?.status).toBe('completed');
    expect((await world.cluster.readSnapshot()).objects.nodes.map((n) => n.metadata.name)).toEqual([
      `node-${cmd.replacements[0]}`,
    ]);

    // The next pass sees the replacement, not the candidate, and the open-command bookkeeping is gone.
    const next = await consolidate(consolidation(world, sent), { cluster: 'c1', owner: 'pass-2', options });
    if (next.outcome !== 'ran') throw new Error(`the pass did not run: held by ${next.holder}`);
    expect(next.pass.commands.flatMap((c) => c.candidates.map((x) => x.name))).not.toContain('big');
  });

  it('runs one of two overlapping passes; the other finds the lease held', async () => {
    world = await startWorld(fleet());
    const sent: Proposal[][] = [];
    const deps = consolidation(world, sent);
    const results = await Promise.all([
      consolidate(deps, { cluster: 'c1', owner: 'pass-a', options }),
      consolidate(deps, { cluster: 'c1', owner: 'pass-b', options }),
    ]);
    expect(results.map((r) => r.outcome).sort()).toEqual(['held', 'ran']);
    expect(results.find((r) => r.outcome === 'held')).toMatchObject({ reason: 'held' });
    expect(sent).toHaveLength(1);
    // The lease was released: the next minute's pass runs.
    const next = await consolidate(deps, { cluster: 'c1', owner: 'pass-c', options });
    expect(next.outcome).toBe('ran');
  });

  it('does not run a second pass for the same scheduled run', async () => {
    world = await startWorld(fleet());
    const sent: Proposal[][] = [];
    const deps = consolidation(world, sent);
    await consolidate(deps, { cluster: 'c1', owner: 'pass-a', runId: 'evt-1', options });
    expect(
      await consolidate(deps, { cluster: 'c1', owner: 'pass-b', runId: 'evt-1', options }),
    ).toMatchObject({ outcome: 'held', reason: 'same-run' });
  });

  it('a pass whose lease was taken over while it ran hands nothing off', async () => {
    const w = (world = await startWorld(fleet()));
    const sent: Proposal[][] = [];
    const base = consolidation(w, sent);
    const ttlMs = 60_000;
    const deps = {
      ...base,
      instanceTypes: async () => {
        await takeLeaseMidPass(w, base, ttlMs);
        return base.instanceTypes();
      },
    };
    const r = await consolidate(deps, { cluster: 'c1', owner: 'pass-old', options, leaseTtlMs: ttlMs });
    expect(r).toMatchObject({ outcome: 'ran', lost: true, handedOff: [] });
    expect(r.outcome === 'ran' && r.pass.outcome).toBe('proposed');
    expect(sent).toHaveLength(0);
    expect(base.logger.entries.map((e) => e.message)).toContain(
      'consolidation lease lost during the pass; proposals not handed off',
    );
  });

  it('a pass whose lease was taken over while it ran writes no pass memory back', async () => {
    // One node its pod fills: nothing to propose, so a pass that kept its lease stores the consolidated view.
    const quiet = [nodePool('default'), node('n1', { type: 's-4' }), pod('app', { node: 'n1', cpu: '3' })];
    const run = async (loseLease: boolean): Promise<string[]> => {
      const w = (world = await startWorld(quiet));
      const base = consolidation(w, []);
      const writes: string[] = [];
      const store = recordingMemoryWrites(base.store, writes);
      const ttlMs = 60_000;
      const deps = {
        ...base,
        store,
        instanceTypes: async () => {
          if (loseLease) await takeLeaseMidPass(w, base, ttlMs);
          return base.instanceTypes();
        },
      };
      const r = await consolidate(deps, { cluster: 'c1', owner: 'pass-old', options, leaseTtlMs: ttlMs });
      expect(r).toMatchObject({ outcome: 'ran', lost: loseLease });
      await w.close();
      world = undefined;
      return writes;
    };
    expect(await run(false)).toContain('putConsolidatedView');
    expect(await run(true)).toEqual([]);
  });
});

/** The store, with the names of the pass-memory writes it receives pushed to `writes`. */
function recordingMemoryWrites<S extends object>(store: S, writes: string[]): S {
  return new Proxy(store, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (PASS_MEMORY_WRITES.has(String(prop))) writes.push(String(prop));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}
