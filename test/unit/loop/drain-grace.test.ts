// A candidate's drain under its NodeClaim's terminationGracePeriod (Karpenter's termination controller: once
// the grace period has run out since the drain began, nothing blocks termination any more, a do-not-disrupt
// pod included), against the Kubernetes emulator, the in-memory store and the recording fake cloud.
import { afterEach, describe, expect, it } from 'vitest';
import { singleNodeCommands } from '../../support/disruption/single-node.ts';
import { toProposal } from '../../../shared/disruption/proposal.ts';
import { passOptions } from '../../../shared/disruption/types.ts';
import { admit } from '../../../shared/loop/admit.ts';
import { orchestrate } from '../../../shared/loop/orchestrate.ts';
import { FakeCloudProvider } from '../../fakes/cloud-provider.ts';
import type { KubeObject } from '../../../local/kube-api/store.ts';
import { node, nodePool, pod } from '../disruption/fixtures.ts';
import { bringUp, startWorld, type World } from './harness.ts';

type Obj = Record<string, unknown>;
const options = passOptions({});
const PROVIDER_ID = 'aws:///us-east-1a/i-big';

const claim = (terminationGracePeriod?: string): Obj => ({
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodeClaim',
  metadata: { name: 'big-claim', labels: { 'karpenter.sh/nodepool': 'default' } },
  spec: {
    nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
    requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['s-16'] }],
    ...(terminationGracePeriod ? { terminationGracePeriod } : {}),
  },
  status: {
    providerID: PROVIDER_ID,
    nodeName: 'big',
    conditions: ['Launched', 'Registered', 'Initialized'].map((type) => ({
      type,
      status: 'True',
      lastTransitionTime: '2026-09-01T08:00:00Z',
    })),
  },
});

// A 16-CPU node running one 1-CPU pod: consolidation replaces it with a smaller node.
const fleet = (tgp?: string): Obj[] => [
  nodePool('default'),
  node('big', { type: 's-16' }),
  claim(tgp),
  pod('small', { node: 'big', cpu: '1' }),
];

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** Admits the consolidation of big, brings its replacement up, and a do-not-disrupt pod lands on big. */
async function draining(w: World, objs: Obj[], cloud: FakeCloudProvider) {
  const proposal = toProposal(singleNodeCommands(objs, ['big'])[0]!);
  const r = await admit(w.deps(), { cluster: 'c1', owner: 'admit-1', proposals: [proposal], options });
  const cmd = (await w.store.getCommand('c1', r.admitted[0]!.id))!;
  await bringUp(w, cmd.replacements[0]!);
  // A pod that arrived after admission and may not be disrupted.
  const guarded = pod('keeper', {
    node: 'big',
    cpu: '1',
    annotations: { 'karpenter.sh/do-not-disrupt': 'true' },
  });
  w.emulator.seed([guarded as KubeObject]);
  const started = await orchestration(w, cloud);
  expect(started.transitions).toEqual([{ id: cmd.id, to: 'draining' }]);
  expect(started.evictions.evicted).toBe(1); // small goes; keeper stays
  return cmd;
}

async function orchestration(w: World, cloud: FakeCloudProvider) {
  const r = await orchestrate(
    { ...w.deps(), providers: new Map([['aws', cloud]]) },
    { cluster: 'c1', owner: 'orch' },
  );
  if (r.outcome !== 'ran') throw new Error(`orchestration lease held by ${r.holder}`);
  return r;
}

const deletes = (cloud: FakeCloudProvider) =>
  cloud.calls.filter((c) => c.method === 'delete').map((c) => c.args[0]);

describe('draining a candidate under terminationGracePeriod', () => {
  it('waits on a do-not-disrupt pod until the grace period has run out since the drain began, then terminates', async () => {
    world = await startWorld(fleet('5m'));
    const cloud = new FakeCloudProvider([]);
    const cmd = await draining(world, fleet('5m'), cloud);
    world.clock.advance(5 * 60_000 - 1);
    expect((await orchestration(world, cloud)).transitions).toEqual([]);
    expect(deletes(cloud)).toEqual([]);
    world.clock.advance(1);
    expect((await orchestration(world, cloud)).transitions).toEqual([{ id: cmd.id, to: 'completed' }]);
    expect(deletes(cloud)).toEqual([PROVIDER_ID]);
    expect((await world.cluster.readSnapshot()).objects.nodeClaims.map((c) => c.metadata.name)).not.toContain(
      'big-claim',
    );
  });

  it('waits on a do-not-disrupt pod for as long as it runs when the claim has no grace period', async () => {
    world = await startWorld(fleet());
    const cloud = new FakeCloudProvider([]);
    await draining(world, fleet(), cloud);
    world.clock.advance(24 * 3_600_000);
    expect((await orchestration(world, cloud)).transitions).toEqual([]);
    expect(deletes(cloud)).toEqual([]);
    expect((await world.cluster.listPodsOnNode('big')).map((p) => p.metadata.name)).toEqual(['keeper']);
  });
});
