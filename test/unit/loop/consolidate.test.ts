// The consolidation use case against the emulator and the memory store, and the whole loop it starts:
// pass → admission → orchestration to completion; overlapping passes run once.
import { afterEach, describe, expect, it } from 'vitest';
import type { Proposal } from '../../../shared/disruption/proposal.ts';
import { passOptions } from '../../../shared/disruption/types.ts';
import { admit } from '../../../shared/loop/admit.ts';
import { consolidate } from '../../../shared/loop/consolidate.ts';
import { orchestrate } from '../../../shared/loop/orchestrate.ts';
import { LockHeldError } from '../../../shared/ports/state-store/errors.ts';
import { FakeCloudProvider } from '../../fakes/cloud-provider.ts';
import { node, nodePool, pod } from '../disruption/fixtures.ts';
import { bringUp, startWorld, type World } from './harness.ts';

const options = passOptions({});
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

describe('consolidate', () => {
  it('hands the pass’s proposals to admission, which starts them, and orchestration completes them', async () => {
    world = await startWorld(fleet());
    const sent: Proposal[][] = [];
    const r = await consolidate(consolidation(world, sent), { cluster: 'c1', owner: 'pass-1', options });
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
    expect(next.pass.commands.flatMap((c) => c.candidates.map((x) => x.name))).not.toContain('big');
  });

  it('runs one of two overlapping passes; the other finds the lease held', async () => {
    world = await startWorld(fleet());
    const sent: Proposal[][] = [];
    const deps = consolidation(world, sent);
    const results = await Promise.allSettled([
      consolidate(deps, { cluster: 'c1', owner: 'pass-a', options }),
      consolidate(deps, { cluster: 'c1', owner: 'pass-b', options }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r) => r.status === 'rejected');
    expect(refused?.status === 'rejected' && refused.reason).toBeInstanceOf(LockHeldError);
    expect(sent).toHaveLength(1);
  });

  it('does not run a second pass for the same scheduled run', async () => {
    world = await startWorld(fleet());
    const sent: Proposal[][] = [];
    const deps = consolidation(world, sent);
    await consolidate(deps, { cluster: 'c1', owner: 'pass-a', runId: 'evt-1', options });
    await expect(
      consolidate(deps, { cluster: 'c1', owner: 'pass-b', runId: 'evt-1', options }),
    ).rejects.toBeInstanceOf(LockHeldError);
  });
});
