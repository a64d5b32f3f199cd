// Orchestration against the Kubernetes emulator, the in-memory store and the recording fake cloud, for the
// identity rules that need a hand-made record (docs/mechanisms/identity.md, "Commands"): a record written
// before identities were recorded is finished fail-closed, and a Node registered again under the candidate's
// name by the same instance is refused without terminating that instance.
import { afterEach, describe, expect, it } from 'vitest';
import { singleNodeCommands } from '../../support/disruption/single-node.ts';
import { toProposal } from '../../../shared/disruption/proposal.ts';
import { passOptions } from '../../../shared/disruption/types.ts';
import { admit } from '../../../shared/loop/admit.ts';
import { orchestrate } from '../../../shared/loop/orchestrate.ts';
import { REFUSAL_METRIC } from '../../../shared/loop/refusals.ts';
import type { KubeObject } from '../../../local/kube-api/store.ts';
import type { CommandInput } from '../../../shared/ports/state-store/records.ts';
import { FakeCloudProvider } from '../../fakes/cloud-provider.ts';
import { node, nodePool, pod } from '../disruption/fixtures.ts';
import { bringUp, startWorld, type World } from './harness.ts';

const DISRUPTED = { key: 'karpenter.sh/disrupted', effect: 'NoSchedule' } as const;
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

async function pass(w: World, cloud: FakeCloudProvider) {
  const r = await orchestrate(
    { ...w.deps(), providers: new Map([['aws', cloud]]) },
    { cluster: 'c1', owner: 'orch' },
  );
  if (r.outcome !== 'ran') throw new Error(`orchestration lease held by ${r.holder}`);
  return r;
}

/** A confirmed delete command as a release before identities wrote it: candidate names only. */
async function legacyCommand(w: World, status: 'launching' | 'draining'): Promise<void> {
  const lock = await w.store.acquireLease({ cluster: 'c1', name: 'admission', owner: 'old', ttlMs: 60_000 });
  const input: CommandInput = {
    id: 'legacy',
    method: 'emptiness',
    decision: 'delete',
    candidates: ['big'],
    replacements: [],
  };
  await w.store.admitCommand(lock, input);
  await w.cluster.addTaint('big', DISRUPTED);
  await w.store.confirmCommand(lock, 'legacy');
  if (status === 'draining') await w.store.transitionCommand('c1', 'legacy', 'launching', 'draining');
}

const deletes = (cloud: FakeCloudProvider) => cloud.calls.filter((c) => c.method === 'delete');

describe('orchestration fails closed where identity cannot be proved', () => {
  it('rolls back a launching command recorded without identities', async () => {
    world = await startWorld(fleet());
    const cloud = new FakeCloudProvider([]);
    await legacyCommand(world, 'launching');
    expect((await pass(world, cloud)).transitions.map((t) => t.to)).toEqual(['rolling-back', 'rolled-back']);
    expect((await world.cluster.getNode('big')).spec?.taints ?? []).toEqual([]);
    expect(await world.cluster.listPodsOnNode('big')).toHaveLength(1);
    expect(deletes(cloud)).toEqual([]);
  });

  it('neither drains nor terminates the candidate of a draining command recorded without identities', async () => {
    world = await startWorld(fleet());
    const cloud = new FakeCloudProvider([]);
    await legacyCommand(world, 'draining');
    const r = await pass(world, cloud);
    expect(r.transitions.map((t) => t.to)).toEqual(['completed']);
    expect(r.evictions.evicted).toBe(0);
    expect((await world.cluster.getNode('big')).spec?.taints ?? []).toEqual([]);
    expect(deletes(cloud)).toEqual([]);
    expect(world.metrics.total(REFUSAL_METRIC, { reason: 'identity-unrecorded' })).toBe(1);
  });

  it('refuses a Node the same instance registered again under the candidate’s name, and keeps its instance', async () => {
    world = await startWorld(fleet());
    const cloud = new FakeCloudProvider([]);
    const proposal = toProposal(singleNodeCommands(fleet(), ['big'])[0]!);
    const r = await admit(world.deps(), {
      cluster: 'c1',
      owner: 'a',
      proposals: [proposal],
      options: passOptions({}),
    });
    const cmd = (await world.store.getCommand('c1', r.admitted[0]!.id))!;
    expect(cmd.identities?.[0]).toMatchObject({ node: 'big', providerId: 'aws:///us-east-1a/i-big' });
    await bringUp(world, cmd.replacements[0]!);
    const old = await world.cluster.getNode('big');
    await world.cluster.deleteNode('big');
    world.emulator.seed([node('big', { type: 's-16' }) as KubeObject]); // same providerID, a new uid
    expect((await world.cluster.getNode('big')).metadata.uid).not.toBe(old.metadata.uid);

    const done = await pass(world, cloud);
    expect(done.transitions.map((t) => t.to)).toEqual(['draining', 'completed']);
    expect(done.evictions.evicted).toBe(0);
    expect(deletes(cloud)).toEqual([]);
    expect(await world.cluster.listPodsOnNode('big')).toHaveLength(1);
    expect(world.metrics.total(REFUSAL_METRIC, { action: 'drain', reason: 'identity-mismatch' })).toBe(1);
  });
});
