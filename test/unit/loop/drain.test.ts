// Draining one candidate (shared/loop/drain.ts, Karpenter's terminator) driven directly, call by call, against
// the Kubernetes API emulator behind the real KubeCluster and the recording fake cloud: evictions one group at a
// time with each pod's uid, a PDB's 429, the terminationGracePeriod cut-off, do-not-disrupt, removal of instance,
// NodeClaim and Node, a candidate that vanished or whose name another Node took, and errors that name the pod.
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../local/kube-api/store.ts';
import { LOOP_METRICS } from '../../../shared/loop/disruption-metrics.ts';
import { drainCandidate, type DrainTally } from '../../../shared/loop/drain.ts';
import { REFUSAL_METRIC } from '../../../shared/loop/refusals.ts';
import { PROVISIONING_METRICS as M } from '../../../shared/provisioning/metric-names.ts';
import { FakeCloudProvider } from '../../fakes/cloud-provider.ts';
import { node, pdb, pod } from '../disruption/fixtures.ts';
import {
  claim,
  commandOf,
  critical,
  doNotDisrupt,
  names,
  pid,
  plant,
  podsOn,
  state,
  type Setup,
} from './drain-fixtures.ts';
import { startWorld, type World } from './harness.ts';

type Obj = Record<string, unknown>;
const MIN = 60_000;
const EVICTIONS = LOOP_METRICS.evictionsTotal;

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** A world whose command drains `candidate`, with every claimed instance planted on the fake cloud. */
async function draining(objects: Obj[], candidate = 'n', s: Setup = {}) {
  const w = (world = await startWorld(objects));
  const cloud = new FakeCloudProvider([], 'aws');
  for (const c of await w.cluster.listNodeClaims())
    if (c.status?.providerID) plant(cloud, c.status.providerID, c.metadata.name);
  const cmd = await commandOf(w, candidate, s);
  const since = w.clock.now();
  const tally: DrainTally = { evicted: 0, blocked: 0, gone: 0 };
  const deps = { ...w.deps(), providers: new Map([['aws' as const, cloud]]) };
  /** One drain step, as orchestration takes it each minute. */
  const step = (cluster = w.cluster) => drainCandidate({ ...deps, cluster }, cmd, candidate, since, tally);
  return { w, cloud, deps, tally, step, since };
}

describe('draining a candidate', () => {
  it('evicts one group at a time — non-critical, non-critical DaemonSet, critical, critical DaemonSet — and waits while they terminate', async () => {
    const { w, step, tally, deps } = await draining([
      node('n'),
      claim('n'),
      critical(pod('crit-ds', { node: 'n', daemon: true })),
      critical(pod('crit', { node: 'n' })),
      pod('ds', { node: 'n', daemon: true }),
      pod('app', { node: 'n', namespace: 'team-a' }),
      pod('web', { node: 'n' }),
    ]);
    const order: string[][] = [];
    for (let i = 0; i < 4; i++) {
      const before = await podsOn(w);
      expect(await step()).toBe(false);
      const after = await podsOn(w);
      order.push(
        Object.keys(after)
          .filter((p) => after[p] && !before[p])
          .sort(),
      );
      // Evicted pods terminate for their grace period; the drain waits and evicts nothing more meanwhile.
      expect(await step()).toBe(false);
      w.clock.advance(31_000);
    }
    expect(order).toEqual([['app', 'web'], ['ds'], ['crit'], ['crit-ds']]);
    expect(tally).toEqual({ evicted: 5, blocked: 0, gone: 0 });
    expect(deps.metrics.total(EVICTIONS, { result: 'evicted' })).toBe(5);
    expect(await podsOn(w)).toEqual({});
  });

  it('terminates the instance, then deletes NodeClaim and Node, once drained, and counts the disruption once', async () => {
    const { w, step, cloud, deps, since } = await draining([node('n'), claim('n'), node('other')]);
    w.clock.advance(2 * MIN);
    expect(await step()).toBe(true);
    expect(state(cloud, pid('n'))).toBe('terminated');
    expect(cloud.calls.filter((c) => c.method === 'delete').map((c) => c.args)).toEqual([
      [pid('n'), { nodeClaim: 'n-claim' }],
    ]);
    expect(await names(w)).toEqual(['other']);
    const labels = { nodepool: 'default', cause: 'underutilized' };
    expect(deps.metrics.total(M.nodeClaimsDisruptedTotal, { ...labels, reason: 'underutilized' })).toBe(1);
    expect(deps.metrics.total(M.nodeClaimsTerminatedTotal, labels)).toBe(1);
    // From the start of the drain to now.
    expect(deps.metrics.total(M.nodeClaimTerminationDurationSeconds)).toBe(
      (w.clock.now().getTime() - since.getTime()) / 1000,
    );
  });

  it('counts a pod a PDB protects as blocked, leaves it running and keeps draining', async () => {
    const { w, step, tally, deps, cloud } = await draining([
      node('n'),
      claim('n'),
      pod('db', { node: 'n', labels: { app: 'db' } }),
      pdb('db', 'db', { maxUnavailable: 0 }, { disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1 }),
    ]);
    expect(await step()).toBe(false);
    expect(await step()).toBe(false);
    expect(tally).toEqual({ evicted: 0, blocked: 2, gone: 0 });
    expect(deps.metrics.total(EVICTIONS, { result: 'blocked' })).toBe(2);
    expect(await podsOn(w)).toEqual({ db: false });
    expect(state(cloud, pid('n'))).toBe('running');
  });

  it('counts as gone a pod deleted since the list, and one re-created under its name (the uid precondition spares it)', async () => {
    const { w, step, tally, deps } = await draining([
      node('n'),
      claim('n'),
      pod('vanishing', { node: 'n' }),
      pod('reborn', { node: 'n' }),
    ]);
    const pods = w.emulator.typeOf('Pod');
    // Between the list and the evictions (during the re-read), a controller deletes one pod and re-creates the
    // other under the same name: another pod, with another uid.
    const racing = Object.create(w.cluster, {
      getNode: {
        value: async (name: string) => {
          w.emulator.store.delete(pods, 'default', 'vanishing', { gracePeriodSeconds: 0 });
          w.emulator.store.delete(pods, 'default', 'reborn', { gracePeriodSeconds: 0 });
          w.emulator.seed([pod('reborn', { node: 'n' }) as KubeObject]);
          return w.cluster.getNode(name);
        },
      },
    }) as typeof w.cluster;
    expect(await step(racing)).toBe(false);
    expect(tally).toEqual({ evicted: 0, blocked: 0, gone: 2 });
    expect(deps.metrics.total(EVICTIONS, { result: 'gone' })).toBe(2);
    expect(await podsOn(w)).toEqual({ reborn: false });
  });

  it('fails the step with an error naming the pod when the API server refuses its eviction otherwise', async () => {
    const { step } = await draining([
      node('n'),
      claim('n'),
      pod('twice', { node: 'n', labels: { app: 'twice' } }),
      pdb('one', 'twice', { maxUnavailable: 1 }, { disruptionsAllowed: 1 }),
      pdb('two', 'twice', { maxUnavailable: 1 }, { disruptionsAllowed: 1 }),
    ]);
    await expect(step()).rejects.toThrow(
      /twice.*more than one PodDisruptionBudget|more than one PodDisruptionBudget.*twice/s,
    );
  });
});

describe('terminationGracePeriod and do-not-disrupt', () => {
  const held = (tgp?: string): Obj[] => [
    node('n'),
    claim('n', tgp ? { tgp } : {}),
    pod('keeper', { node: 'n', annotations: doNotDisrupt }),
    pod('db', { node: 'n', labels: { app: 'db' } }),
    pdb('db', 'db', { maxUnavailable: 0 }, { disruptionsAllowed: 0 }),
  ];

  it('never evicts a do-not-disrupt pod, and terminates with it (and a PDB-held pod) once the grace period has run out since the drain began', async () => {
    const { w, step, cloud, tally } = await draining(held('5m'));
    w.clock.advance(5 * MIN - 1);
    expect(await step()).toBe(false);
    expect(tally).toEqual({ evicted: 0, blocked: 1, gone: 0 });
    expect(await podsOn(w)).toEqual({ keeper: false, db: false });
    expect(state(cloud, pid('n'))).toBe('running');
    w.clock.advance(1);
    expect(await step()).toBe(true);
    expect(state(cloud, pid('n'))).toBe('terminated');
    expect(await names(w)).toEqual([]);
    expect(tally.blocked).toBe(1);
  });

  it('holds the DaemonSet pods behind a do-not-disrupt pod of the first group, as behind a terminating one', async () => {
    const { w, step, tally } = await draining([
      node('n'),
      claim('n', { tgp: '1h' }),
      pod('keeper', { node: 'n', annotations: doNotDisrupt }),
      pod('agent', { node: 'n', daemon: true }),
    ]);
    w.clock.advance(30 * MIN);
    expect(await step()).toBe(false);
    expect(tally.evicted).toBe(0);
    expect(await podsOn(w)).toEqual({ keeper: false, agent: false });
  });

  it('waits for as long as the pod runs when the claim has no grace period, and when the Node has no claim', async () => {
    for (const objects of [held(), held('5m').filter((o) => o.kind !== 'NodeClaim')]) {
      const { w, step, cloud } = await draining(objects);
      w.clock.advance(24 * 60 * MIN);
      expect(await step()).toBe(false);
      expect(await podsOn(w)).toEqual({ keeper: false, db: false });
      expect(cloud.calls.map((c) => c.method)).not.toContain('delete');
      await w.close();
      world = undefined;
    }
  });
});

describe('the instance a drained candidate ends', () => {
  it('is the one the command recorded, else the claim’s, else the Node’s', async () => {
    // Recorded: the command's wins over the claim's.
    let d = await draining([node('n'), claim('n', { providerID: pid('moved') })], 'n', {
      identity: { providerId: pid('n') },
    });
    plant(d.cloud, pid('n'), 'n-claim');
    expect(await d.step()).toBe(true);
    expect(state(d.cloud, pid('n'))).toBe('terminated');
    expect(state(d.cloud, pid('moved'))).toBe('running');
    await d.w.close();
    // None recorded: the claim's, over the Node's (here none).
    const bare = { ...node('n'), spec: {} };
    d = await draining([bare, claim('n')], 'n', { identity: { providerId: undefined } });
    expect(await d.step()).toBe(true);
    expect(state(d.cloud, pid('n'))).toBe('terminated');
    await d.w.close();
    // No claim, or a claim without status, and none recorded: the Node's.
    const { status: _, ...statusless } = claim('n');
    for (const objects of [[node('n')], [node('n'), statusless]]) {
      d = await draining(objects, 'n', { identity: { providerId: undefined } });
      plant(d.cloud, pid('n'), objects.length > 1 ? 'n-claim' : undefined);
      expect(await d.step()).toBe(true);
      expect(state(d.cloud, pid('n'))).toBe('terminated');
      expect(await names(d.w)).toEqual([]);
      await d.w.close();
      world = undefined;
    }
  });

  it('is found by the cloud label, the Node’s over the claim’s, when its provider ID names no cloud', async () => {
    const odd = 'local:///rack-1/box-7';
    // The claim says gcp, the Node aws: the Node's label wins, and the aws fake refuses the unparseable ID.
    let d = await draining([
      { ...node('n'), spec: { providerID: odd } },
      claim('n', { providerID: odd, labels: { 'kraftsman.dev/cloud': 'gcp' } }),
    ]);
    expect(await d.step()).toBe(false);
    expect(
      d.deps.metrics.total(REFUSAL_METRIC, { action: 'terminate', reason: 'malformed-provider-id' }),
    ).toBe(1);
    await d.w.close();
    // Only the claim has the label.
    const unlabelled = node('n');
    delete ((unlabelled.metadata as Obj).labels as Obj)['kraftsman.dev/cloud'];
    d = await draining([
      { ...unlabelled, spec: { providerID: odd } },
      claim('n', { providerID: odd, labels: { 'kraftsman.dev/cloud': 'aws' } }),
    ]);
    expect(await d.step()).toBe(false);
    expect(
      d.deps.metrics.total(REFUSAL_METRIC, { action: 'terminate', reason: 'malformed-provider-id' }),
    ).toBe(1);
  });

  it('refused as not this deployment’s: the candidate waits, Node and NodeClaim stay, nothing is counted', async () => {
    const d = await draining([node('n'), claim('n')]);
    plant(d.cloud, pid('n'), 'n-claim', 'another-deployment');
    expect(await d.step()).toBe(false);
    expect(state(d.cloud, pid('n'))).toBe('running');
    expect(await names(d.w)).toEqual(['n', 'n-claim']);
    expect(d.deps.metrics.total(REFUSAL_METRIC, { action: 'terminate', reason: 'foreign-deployment' })).toBe(
      1,
    );
    expect(d.deps.metrics.total(M.nodeClaimsDisruptedTotal)).toBe(0);
  });
});

describe('a candidate that is no longer the recorded one', () => {
  it('is finished from its remains when its Node is gone: the instance terminated, the claim deleted, nothing evicted', async () => {
    const d = await draining([node('n'), claim('n'), node('other')]);
    d.w.emulator.store.delete(d.w.emulator.typeOf('Node'), undefined, 'n');
    expect(await d.step()).toBe(true);
    expect(state(d.cloud, pid('n'))).toBe('terminated');
    expect(await names(d.w)).toEqual(['other']);
    expect(d.deps.metrics.total(EVICTIONS)).toBe(0);
  });

  it('is refused when another Node took its name: the newcomer and its pods untouched, the recorded instance and claim finished', async () => {
    const d = await draining([node('n'), claim('n'), pod('web', { node: 'n' })]);
    d.w.emulator.store.delete(d.w.emulator.typeOf('Node'), undefined, 'n');
    const newcomer = { ...node('n'), spec: { providerID: pid('newcomer') } };
    d.w.emulator.seed([newcomer as unknown as KubeObject]);
    plant(d.cloud, pid('newcomer'));
    expect(await d.step()).toBe(true);
    expect(d.deps.metrics.total(REFUSAL_METRIC, { action: 'drain', reason: 'identity-mismatch' })).toBe(1);
    expect(await podsOn(d.w)).toEqual({ web: false });
    expect(d.deps.metrics.total(EVICTIONS)).toBe(0);
    expect(state(d.cloud, pid('newcomer'))).toBe('running');
    expect(state(d.cloud, pid('n'))).toBe('terminated');
    expect(await names(d.w)).toEqual(['n']);
    expect((await d.w.cluster.getNode('n')).spec?.providerID).toBe(pid('newcomer'));
  });

  it('is refused as a termination when nothing runs on it, and as a drain when a pod does (no identity recorded)', async () => {
    let d = await draining([node('n'), claim('n')], 'n', { unrecorded: true });
    expect(await d.step()).toBe(true);
    expect(d.deps.metrics.total(REFUSAL_METRIC, { action: 'terminate', reason: 'identity-unrecorded' })).toBe(
      1,
    );
    await d.w.close();
    d = await draining([node('n'), claim('n'), pod('web', { node: 'n' })], 'n', { unrecorded: true });
    expect(await d.step()).toBe(true);
    expect(d.deps.metrics.total(REFUSAL_METRIC, { action: 'drain', reason: 'identity-unrecorded' })).toBe(1);
    expect(await podsOn(d.w)).toEqual({ web: false });
    expect(await names(d.w)).toEqual(['n', 'n-claim']);
  });
});
