// The orchestration use case against the Kubernetes emulator, the in-memory store and the recording fake
// cloud: replacements initialized → drain with UID preconditions → terminate → delete; rollback of a
// replacement that never initializes; stranded taints; a candidate deleted under its command; a PDB.
import { afterEach, describe, expect, it } from 'vitest';
import { singleNodeCommands } from '../../support/disruption/single-node.ts';
import { toProposal, type Proposal } from '../../../shared/disruption/proposal.ts';
import { passOptions } from '../../../shared/disruption/types.ts';
import { admit } from '../../../shared/loop/admit.ts';
import { LOOP_METRICS } from '../../../shared/loop/disruption-metrics.ts';
import { orchestrate } from '../../../shared/loop/orchestrate.ts';
import { FakeCloudProvider } from '../../fakes/cloud-provider.ts';
import { refreshDisruptionBudgets } from '../../../local/kube-api/alive/disruption-budgets.ts';
import type { KubeObject } from '../../../local/kube-api/store.ts';
import { node, nodePool, pdb, pod } from '../disruption/fixtures.ts';
import { bringUp, startWorld, type World } from './harness.ts';

type Obj = Record<string, unknown>;
const options = passOptions({});
const DISRUPTED = { key: 'karpenter.sh/disrupted', effect: 'NoSchedule' };

// A 16-CPU node running one 1-CPU pod: consolidation replaces it with a smaller node.
const fleet = (extra: Obj[] = []): Obj[] => [
  nodePool('default'),
  node('big', { type: 's-16' }),
  pod('small', { node: 'big', cpu: '1' }),
  ...extra,
];

const proposal = (objs: Obj[], name: string): Proposal => toProposal(singleNodeCommands(objs, [name])[0]!);

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function admitted(w: World, objs: Obj[], name = 'big') {
  const r = await admit(w.deps(), {
    cluster: 'c1',
    owner: 'admit-1',
    proposals: [proposal(objs, name)],
    options,
  });
  const cmd = await w.store.getCommand('c1', r.admitted[0]!.id);
  return cmd!;
}

async function orchestration(w: World, cloud: FakeCloudProvider, owner = 'orch') {
  const r = await orchestrate(
    { ...w.deps(), providers: new Map([['aws', cloud]]) },
    { cluster: 'c1', owner },
  );
  if (r.outcome !== 'ran') throw new Error(`orchestration lease held by ${r.holder}`);
  return r;
}

const nodeNames = async (w: World) =>
  (await w.cluster.readSnapshot()).objects.nodes.map((n) => n.metadata.name);

describe('orchestrate', () => {
  it('waits for the replacement, drains, terminates and deletes the candidate, then clears the negative cache', async () => {
    world = await startWorld(fleet());
    const cloud = new FakeCloudProvider([]);
    const cmd = await admitted(world, fleet());
    const epoch = (await world.store.loadPassState('c1')).epoch;

    expect((await orchestration(world, cloud)).transitions).toEqual([]); // replacement not up yet
    await bringUp(world, cmd.replacements[0]!);
    const second = await orchestration(world, cloud);
    expect(second.transitions).toEqual([{ id: cmd.id, to: 'draining' }]);
    expect(second.evictions.evicted).toBe(1);
    // An eviction is a graceful deletion: the pod terminates for its grace period and the drain waits for it.
    const terminating = await world.cluster.listPodsOnNode('big');
    expect(terminating.map((p) => Boolean(p.metadata.deletionTimestamp))).toEqual([true]);
    expect((await orchestration(world, cloud)).transitions).toEqual([]);
    world.clock.advance(31_000); // past the default 30 s grace period: the kubelet has finished with the pod
    expect(await world.cluster.listPodsOnNode('big')).toEqual([]);

    const third = await orchestration(world, cloud);
    expect(third.transitions).toEqual([{ id: cmd.id, to: 'completed' }]);
    expect(await nodeNames(world)).toEqual([`node-${cmd.replacements[0]}`]);
    expect(cloud.calls.filter((c) => c.method === 'delete').map((c) => c.args[0])).toEqual([
      'aws:///us-east-1a/i-big',
    ]);
    expect((await world.store.loadPassState('c1')).epoch).toBe(epoch + 1);
    expect(world.metrics.total(LOOP_METRICS.commandsExecutedTotal, { result: 'completed' })).toBe(1);
    // The savings the proposing pass priced (s-16 → a smaller node) are realized once the command completes.
    const priced = proposal(fleet(), 'big').savingsPerHour;
    expect(priced).toBeGreaterThan(0);
    expect(third.realizedSavingsPerHour).toBeCloseTo(priced);
    expect(world.metrics.total(LOOP_METRICS.realizedSavingsPerHour, { decision: 'replace' })).toBeCloseTo(
      priced,
    );
  });

  it('rolls back a command whose replacement never initializes: untaint, delete the replacement', async () => {
    world = await startWorld(fleet());
    const cloud = new FakeCloudProvider([]);
    const cmd = await admitted(world, fleet());
    world.clock.advance(16 * 60_000);
    const r = await orchestration(world, cloud);
    expect(r.transitions).toEqual([
      { id: cmd.id, to: 'rolling-back' },
      { id: cmd.id, to: 'rolled-back' },
    ]);
    expect((await world.cluster.getNode('big')).spec?.taints ?? []).toEqual([]);
    expect((await world.cluster.readSnapshot()).objects.nodeClaims).toEqual([]);
    expect(await world.cluster.listPodsOnNode('big')).toHaveLength(1);
  });

  it('rolls back an unconfirmed command once its admitter is gone for good', async () => {
    world = await startWorld(fleet());
    const cloud = new FakeCloudProvider([]);
    const lock = await world.store.acquireLease({
      cluster: 'c1',
      name: 'admission',
      owner: 'dead',
      ttlMs: 1_000,
    });
    await world.store.admitCommand(lock, {
      id: 'half',
      method: 'single-node-consolidation',
      decision: 'delete',
      candidates: ['big'],
      replacements: [],
    });
    await world.cluster.addTaint('big', { key: 'karpenter.sh/disrupted', effect: 'NoSchedule' });
    expect((await orchestration(world, cloud)).transitions).toEqual([]);
    world.clock.advance(11 * 60_000);
    expect((await orchestration(world, cloud)).transitions.map((t) => t.to)).toEqual([
      'rolling-back',
      'rolled-back',
    ]);
    expect((await world.cluster.getNode('big')).spec?.taints ?? []).toEqual([]);
  });

  it('removes a disrupted taint that no live command owns', async () => {
    world = await startWorld(fleet([node('orphan', { type: 's-8', taints: [DISRUPTED] })]));
    const r = await orchestration(world, new FakeCloudProvider([]));
    expect(r.strandedTaintsRemoved).toEqual(['orphan']);
    expect((await world.cluster.getNode('orphan')).spec?.taints ?? []).toEqual([]);
    expect((await world.cluster.getNode('big')).spec?.taints ?? []).toEqual([]);
  });

  it('finishes a command whose candidate was deleted under it', async () => {
    world = await startWorld(fleet());
    const cloud = new FakeCloudProvider([]);
    const cmd = await admitted(world, fleet());
    await bringUp(world, cmd.replacements[0]!);
    await world.cluster.deleteNode('big');
    const r = await orchestration(world, cloud);
    expect(r.transitions.map((t) => t.to)).toEqual(['draining', 'completed']);
  });

  it('retries an eviction a PDB blocks until the PDB allows it', async () => {
    world = await startWorld(fleet());
    const cloud = new FakeCloudProvider([]);
    const cmd = await admitted(world, fleet());
    const replacement = await bringUp(world, cmd.replacements[0]!);
    // A PDB appears after admission and allows no disruption while only one of its pods is healthy.
    world.emulator.seed([pdb('guard', 'small', { minAvailable: 1 }) as KubeObject]);
    refreshDisruptionBudgets(world.emulator);
    const blocked = await orchestration(world, cloud);
    expect(blocked.evictions).toMatchObject({ evicted: 0, blocked: 1 });
    expect(await world.cluster.listPodsOnNode('big')).toHaveLength(1);
    expect((await orchestration(world, cloud)).evictions.blocked).toBe(1); // still blocked: later, not failed
    world.emulator.seed([
      pod('small-2', { node: replacement, cpu: '1', labels: { app: 'small' } }) as KubeObject,
    ]);
    refreshDisruptionBudgets(world.emulator);
    expect((await orchestration(world, cloud)).evictions.evicted).toBe(1);
    world.clock.advance(31_000); // the evicted pod's grace period ends
    expect((await orchestration(world, cloud)).transitions.map((t) => t.to)).toEqual(['completed']);
  });
});
