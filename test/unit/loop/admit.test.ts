// The admission use case against the Kubernetes emulator and the in-memory store: the settling delay once,
// each proposal re-validated against live state after the previous one started, StartCommand's effects.
import { afterEach, describe, expect, it } from 'vitest';
import { singleNodeCommands } from '../../support/disruption/single-node.ts';
import { toProposal, type Proposal } from '../../../shared/disruption/proposal.ts';
import { COMMAND_LABEL } from '../../../shared/disruption/replacement-claim.ts';
import { passOptions } from '../../../shared/disruption/types.ts';
import { admit } from '../../../shared/loop/admit.ts';
import { LOOP_METRICS } from '../../../shared/loop/disruption-metrics.ts';
import { LockHeldError } from '../../../shared/ports/state-store/errors.ts';
import { node, nodePool, pod } from '../disruption/fixtures.ts';
import { startWorld, type World } from './harness.ts';

type Obj = Record<string, unknown>;
const options = passOptions({});

// n1 and n2 each fit the one free slot on the unmanaged worker, but not both; n3's pod needs a smaller node.
const fleet = (): Obj[] => [
  nodePool('default'),
  node('n1', { type: 's-8' }),
  pod('p1', { node: 'n1', cpu: '4' }),
  node('n2', { type: 's-8' }),
  pod('p2', { node: 'n2', cpu: '4500m' }),
  node('worker', { pool: null, type: 's-8' }),
  pod('w', { node: 'worker', cpu: '3' }),
];

const proposalsFor = (objs: Obj[], names: string[]): Proposal[] =>
  singleNodeCommands(objs, names).map(toProposal);

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('admit', () => {
  it('waits the settling delay once, then admits only the proposals live state still allows', async () => {
    world = await startWorld(fleet());
    const result = await admit(world.deps(), {
      cluster: 'c1',
      owner: 'req-1.a',
      proposals: proposalsFor(fleet(), ['n1', 'n2']),
      options,
    });
    expect(world.slept).toEqual([15_000]);
    expect(result.admitted.map((a) => a.proposal.candidates)).toEqual([['n1']]);
    expect(result.rejected.map((r) => [r.proposal.candidates, r.stage])).toEqual([[['n2'], 'validation']]);
    const n1 = await world.cluster.getNode('n1');
    expect(n1.spec?.taints).toContainEqual({ key: 'karpenter.sh/disrupted', effect: 'NoSchedule' });
    expect((await world.cluster.getNode('n2')).spec?.taints ?? []).toEqual([]);
    const cmd = await world.store.getCommand('c1', result.admitted[0]!.id);
    expect(cmd).toMatchObject({ status: 'launching', candidates: ['n1'], decision: 'delete' });
    expect(cmd?.confirmedAt).toBeDefined();
    expect(world.metrics.total(LOOP_METRICS.admissionFailuresTotal, { stage: 'validation' })).toBe(1);
    expect(world.metrics.total(LOOP_METRICS.commandsAdmittedTotal, { decision: 'delete' })).toBe(1);
  });

  it('creates and launches the replacement of a replace, labelled with its command', async () => {
    const objs = [
      nodePool('default'),
      node('big', { type: 's-16' }),
      pod('small', { node: 'big', cpu: '1' }),
    ];
    world = await startWorld(objs);
    const [proposal] = proposalsFor(objs, ['big']);
    expect(proposal?.replacements).toHaveLength(1);
    const result = await admit(world.deps(), {
      cluster: 'c1',
      owner: 'req-2.a',
      proposals: [proposal!],
      options,
    });
    const id = result.admitted[0]!.id;
    const cmd = await world.store.getCommand('c1', id);
    expect(cmd?.replacements).toHaveLength(1);
    const claim = await world.cluster.getNodeClaim(cmd!.replacements[0]!);
    expect(claim.metadata.labels?.[COMMAND_LABEL]).toBe(id);
    expect(claim.spec.requirements).toContainEqual(
      expect.objectContaining({ key: 'node.kubernetes.io/instance-type', operator: 'In' }),
    );
    expect(world.launched.map((c) => c.metadata.name)).toEqual(cmd!.replacements);
  });

  it('refuses to run while another admitter holds the lock', async () => {
    world = await startWorld(fleet());
    await world.store.acquireLease({ cluster: 'c1', name: 'admission', owner: 'other.x', ttlMs: 60_000 });
    await expect(
      admit(world.deps(), {
        cluster: 'c1',
        owner: 'req-3.a',
        proposals: proposalsFor(fleet(), ['n1']),
        options,
      }),
    ).rejects.toBeInstanceOf(LockHeldError);
    expect(world.slept).toEqual([]);
  });

  it('rejects a proposal whose candidate an open command already names', async () => {
    world = await startWorld(fleet());
    const deps = world.deps();
    const [p1] = proposalsFor(fleet(), ['n1']);
    await admit(deps, { cluster: 'c1', owner: 'req-4.a', proposals: [p1!], options });
    const again = await admit(deps, { cluster: 'c1', owner: 'req-4.b', proposals: [p1!], options });
    expect(again.admitted).toEqual([]);
    expect(again.rejected.map((r) => r.stage)).toEqual(['validation']);
  });
});
