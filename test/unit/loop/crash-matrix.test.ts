// The crash matrix at the use-case level: admission crashes after each step of StartCommand (record, taint,
// claim created, launched, confirmed), orchestration crashes mid-terminate; later invocations recover with
// no stranded taint, no orphan replacement and no lost pod.
import { afterEach, describe, expect, it } from 'vitest';
import { singleNodeCommands } from '../../support/disruption/single-node.ts';
import { toProposal } from '../../../shared/disruption/proposal.ts';
import { passOptions } from '../../../shared/disruption/types.ts';
import { admit } from '../../../shared/loop/admit.ts';
import { orchestrate } from '../../../shared/loop/orchestrate.ts';
import { FakeCloudProvider } from '../../fakes/cloud-provider.ts';
import { node, nodePool, pod } from '../disruption/fixtures.ts';
import { bringUp, startWorld, type World } from './harness.ts';

const options = passOptions({});
const fleet = () => [
  nodePool('default'),
  node('big', { type: 's-16' }),
  pod('small', { node: 'big', cpu: '1' }),
];

class Crash extends Error {
  override readonly name = 'Crash';
}

/** `target` whose `method` throws Crash on its `nth` call (the process dies there). */
function crashing<T extends object>(target: T, method: string, nth = 1): T {
  let calls = 0;
  return new Proxy(target, {
    get(t, prop, receiver) {
      const v: unknown = Reflect.get(t, prop, receiver);
      if (prop !== method || typeof v !== 'function') return typeof v === 'function' ? v.bind(t) : v;
      return async (...args: unknown[]) => {
        if (++calls === nth) throw new Crash(`crashed in ${method}`);
        return (v as (...a: unknown[]) => unknown).apply(t, args);
      };
    },
  });
}

const proposal = () => toProposal(singleNodeCommands(fleet())[0]!);

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function settle(w: World, cloud: FakeCloudProvider): Promise<void> {
  const deps = { ...w.deps(), providers: new Map([['aws' as const, cloud]]) };
  for (let i = 0; i < 6; i++) {
    const cmds = [...(await w.store.listCommandsByStatus('c1', 'launching'))];
    for (const c of cmds) for (const r of c.replacements) await bringUp(w, r).catch(() => undefined);
    await orchestrate(deps, { cluster: 'c1', owner: `orch-${i}` });
    w.clock.advance(11 * 60_000); // past the admission grace, so an unconfirmed command is rolled back
  }
}

async function invariants(w: World): Promise<void> {
  const snap = (await w.cluster.readSnapshot()).objects;
  const open = [
    ...(await w.store.listCommandsByStatus('c1', 'launching')),
    ...(await w.store.listCommandsByStatus('c1', 'draining')),
    ...(await w.store.listCommandsByStatus('c1', 'rolling-back')),
  ];
  expect(open).toEqual([]);
  const tainted = snap.nodes.filter((n) =>
    (n.spec?.taints ?? []).some((t) => t.key === 'karpenter.sh/disrupted'),
  );
  expect(tainted.map((n) => n.metadata.name)).toEqual([]);
  const completed = await w.store.listCommandsByStatus('c1', 'completed');
  const kept = new Set(completed.flatMap((c) => c.replacements));
  expect(snap.nodeClaims.map((c) => c.metadata.name).filter((n) => !kept.has(n))).toEqual([]);
  if (completed.length === 0) expect(snap.pods.map((p) => p.spec.nodeName)).toEqual(['big']);
  else expect(snap.nodes.map((n) => n.metadata.name)).not.toContain('big');
}

describe('a crash after each step of a command recovers', () => {
  const steps: [string, (w: World) => Parameters<typeof admit>[0]][] = [
    ['recorded (crash before the taint)', (w) => ({ ...w.deps(), cluster: crashing(w.cluster, 'addTaint') })],
    [
      'tainted (crash before the claim)',
      (w) => ({ ...w.deps(), cluster: crashing(w.cluster, 'createNodeClaim') }),
    ],
    [
      'claim created (crash before the launch)',
      (w) => ({ ...w.deps(), launch: () => Promise.reject(new Crash('launch')) }),
    ],
    [
      'launched (crash before the confirmation)',
      (w) => ({ ...w.deps(), store: crashing(w.store, 'confirmCommand') }),
    ],
  ];
  it.each(steps)('%s', async (_what, deps) => {
    world = await startWorld(fleet());
    // The step fails (as a crashed process would stop there): the command stays recorded and unconfirmed.
    const r = await admit(deps(world), { cluster: 'c1', owner: 'admit-1', proposals: [proposal()], options });
    expect(r.admitted).toEqual([]);
    await settle(world, new FakeCloudProvider([]));
    await invariants(world);
    expect(await world.store.listCommandsByStatus('c1', 'rolled-back')).toHaveLength(1);
  });

  // Between the re-read of the candidate (docs/mechanisms/identity.md, "Commands") and the action it allows.
  const afterReread: [string, (w: World, cloud: FakeCloudProvider) => Parameters<typeof orchestrate>[0]][] = [
    [
      'before its first eviction',
      (w, cloud) => ({
        ...w.deps(),
        cluster: crashing(w.cluster, 'evictPod'),
        providers: new Map([['aws', cloud]]),
      }),
    ],
    [
      'before its terminate',
      (w, cloud) => ({ ...w.deps(), providers: new Map([['aws', crashing(cloud, 'delete')]]) }),
    ],
  ];
  it.each(afterReread)(
    'confirmed, then orchestration crashes after re-reading the candidate, %s',
    async (_when, deps) => {
      world = await startWorld(fleet());
      await admit(world.deps(), { cluster: 'c1', owner: 'admit-1', proposals: [proposal()], options });
      const cloud = new FakeCloudProvider([]);
      const cmd = (await world.store.listCommandsByStatus('c1', 'launching'))[0]!;
      await bringUp(world, cmd.replacements[0]!);
      const crashingDeps = deps(world, cloud);
      for (let i = 0; i < 3; i++) {
        await orchestrate(crashingDeps, { cluster: 'c1', owner: `crash-${i}` }).catch(() => undefined);
        world.clock.advance(31_000); // evicted pods finish their grace period
      }
      await settle(world, cloud);
      await invariants(world);
      expect((await world.store.getCommand('c1', cmd.id))?.status).toBe('completed');
    },
  );

  it('confirmed, then orchestration crashes after terminating the instance and the next run finishes', async () => {
    world = await startWorld(fleet());
    await admit(world.deps(), { cluster: 'c1', owner: 'admit-1', proposals: [proposal()], options });
    const cloud = new FakeCloudProvider([]);
    const cmd = (await world.store.listCommandsByStatus('c1', 'launching'))[0]!;
    await bringUp(world, cmd.replacements[0]!);
    const deps = { ...world.deps(), providers: new Map([['aws' as const, cloud]]) };
    await orchestrate(deps, { cluster: 'c1', owner: 'o1' }); // drains
    world.clock.advance(31_000); // the evicted pods' grace period ends
    await expect(
      orchestrate(
        { ...deps, cluster: crashing(world.cluster, 'deleteNode') },
        { cluster: 'c1', owner: 'o2' },
      ),
    ).rejects.toThrow(/crashed in deleteNode/); // recorded on the command, and its only command failed
    await settle(world, cloud);
    await invariants(world);
    expect((await world.store.getCommand('c1', cmd.id))?.status).toBe('completed');
  });
});
