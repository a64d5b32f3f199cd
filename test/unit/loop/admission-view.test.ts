// The open commands admission validates against (shared/loop/admission-view.ts): the store's (possibly
// lagging) view completed by the commands this admission carried forward and by consistent by-candidate
// reads for disrupted-tainted or proposed nodes no command of the view names. Against the in-memory store.
import { describe, expect, it } from 'vitest';
import { MemoryStateStore } from '../../../shared/adapters/memory/state-store.ts';
import { CarriedCommands, completeOpenCommands } from '../../../shared/loop/admission-view.ts';
import type { CommandRecord, PassState } from '../../../shared/ports/state-store/records.ts';
import { ManualClock } from '../../fakes/manual-clock.ts';
import { NOW, node, snapshotOf } from '../disruption/fixtures.ts';

const DISRUPTED = { key: 'karpenter.sh/disrupted', effect: 'NoSchedule' };

async function storeWith(commands: { id: string; candidates: string[]; replacements?: string[] }[]) {
  const clock = new ManualClock(NOW.getTime());
  const store = new MemoryStateStore(clock);
  const lock = await store.acquireLease({ cluster: 'c1', name: 'admission', owner: 'a', ttlMs: 60_000 });
  const records: CommandRecord[] = [];
  for (const c of commands)
    records.push(
      await store.admitCommand(lock, {
        id: c.id,
        method: 'single-node-consolidation',
        decision: c.replacements?.length ? 'replace' : 'delete',
        candidates: c.candidates,
        replacements: c.replacements ?? [],
      }),
    );
  return { store, records, state: await store.loadPassState('c1') };
}

/** The pass state as a lagging index shows it: no open commands at all. */
const lagging = (state: PassState): PassState => ({ ...state, openCommands: [] });

describe('the open commands admission validates against', () => {
  it('counts a command carried forward in process, with no read, though the index misses it', async () => {
    const { store, records, state } = await storeWith([
      { id: 'cmd0000001', candidates: ['a'], replacements: ['default-r0'] },
    ]);
    const carried = new CarriedCommands();
    carried.add(records[0]!);
    let reads = 0;
    const counting = {
      findCommandsByCandidate: (cluster: string, n: string) => {
        reads += 1;
        return store.findCommandsByCandidate(cluster, n);
      },
    };
    const out = await completeOpenCommands(
      counting,
      'c1',
      lagging(state),
      snapshotOf([node('a'), node('b')]),
      carried,
      [],
    );
    expect(out.openCommands.map((c) => [c.id, c.candidates, c.replacements])).toEqual([
      ['cmd0000001', ['a'], ['default-r0']],
    ]);
    expect(reads).toBe(0);
  });

  it('finds the open command of a disrupted-tainted or proposed node the index misses, by consistent reads', async () => {
    const { store, state } = await storeWith([
      { id: 'cmd0000001', candidates: ['a'] },
      { id: 'cmd0000002', candidates: ['b'] },
    ]);
    const snapshot = snapshotOf([node('a', { taints: [DISRUPTED] }), node('b'), node('c')]);
    const out = await completeOpenCommands(store, 'c1', lagging(state), snapshot, new CarriedCommands(), [
      'b',
    ]);
    expect(out.openCommands.map((c) => c.id)).toEqual(['cmd0000001', 'cmd0000002']);
  });

  it('leaves out commands that are no longer open, and returns the view as is when it misses nothing', async () => {
    const { store, state } = await storeWith([{ id: 'cmd0000001', candidates: ['a'] }]);
    await store.transitionCommand('c1', 'cmd0000001', 'launching', 'rolling-back');
    await store.transitionCommand('c1', 'cmd0000001', 'rolling-back', 'rolled-back');
    const snapshot = snapshotOf([node('a', { taints: [DISRUPTED] })]);
    const out = await completeOpenCommands(store, 'c1', lagging(state), snapshot, new CarriedCommands(), [
      'a',
    ]);
    expect(out.openCommands).toEqual([]);
    const fresh = await store.loadPassState('c1');
    expect(await completeOpenCommands(store, 'c1', fresh, snapshot, new CarriedCommands(), ['a'])).toBe(
      fresh,
    );
  });
});
