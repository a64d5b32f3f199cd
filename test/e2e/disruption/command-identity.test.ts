// Orchestration acts only on what its command recorded (docs/mechanisms/identity.md, "Commands"), through the
// handlers against the emulators and DynamoDB Local: a Node that took a vanished candidate's name (EC2 reuses
// private IPs, and node names are their DNS names) is never drained or terminated; a command admitted while
// orchestrate was reading the cluster is not rolled back; a rollback terminates the replacement's instance
// even once its NodeClaim is gone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUSAL_EVENT_REASON, REFUSAL_METRIC } from '../../../shared/loop/refusals.ts';
import type { OrchestrateResult } from '../../../shared/loop/orchestrate.ts';
import { providerId } from '../../../shared/ports/cloud-provider/index.ts';
import type { KubeCluster } from '../../../shared/adapters/kube/index.ts';
import {
  lambdaContext,
  registerEc2Node,
  scheduledEvent,
  startHarness,
  wireLaunchers,
  type E2eHarness,
} from '../../support/e2e/index.ts';
import {
  expectNothingLeftBehind,
  initializeNodes,
  liveInstances,
  nodeNameOf,
  nodesOf,
  orchestrate as orchestrateOnce,
  podsOf,
  provision,
  providerIdOf,
  recover,
  underusedNode,
  type Scenario,
} from '../../support/e2e/disruption-world.ts';
import { BAD_TAINT, writeUnderLooseCrd } from '../../support/e2e/loose-crd.ts';
import {
  orchestrateHandler,
  proposalFor,
  startCommandNow,
} from '../../support/e2e/orchestration-handlers.ts';

type Obj = Record<string, unknown> & { metadata: Record<string, unknown> };

describe('orchestration acts only on the objects its command recorded', () => {
  let h: E2eHarness;
  beforeAll(async () => {
    h = await startHarness({ clusterName: 'identity' });
    wireLaunchers(h);
  });
  afterAll(async () => {
    await h?.close();
  });

  const ran = (r: OrchestrateResult) => {
    if (r.outcome !== 'ran') throw new Error(`orchestration lease held by ${r.holder}`);
    return r;
  };
  const instance = (id: string) => h.ec2.world.instances.get(id);
  const node = (name: string) => h.list('Node').find((n) => n.metadata.name === name);
  const claimOf = (s: Scenario) =>
    h.list('NodeClaim').find((c) => providerIdOf(c).endsWith(`/${s.instanceId}`));
  const taintsOf = (name: string) =>
    ((node(name)?.spec as { taints?: { key: string }[] } | undefined)?.taints ?? []).map((t) => t.key);

  /** The instance is reclaimed: its Node, its pods (their ReplicaSet brings them back) and claim go. */
  async function preempt(s: Scenario): Promise<void> {
    await h.ec2Provider().delete(providerId(`aws:///${instance(s.instanceId)?.zone}/${s.instanceId}`));
    for (const p of podsOf(h, s.app))
      h.kube.store.delete(h.kube.typeOf('Pod'), 'default', String(p.metadata.name), {
        gracePeriodSeconds: 0,
      });
    gone('Node', s.candidate);
    gone('NodeClaim', String(claimOf(s)?.metadata.name));
  }

  /**
   * Deleted and, its instance gone, released from Karpenter's finalizer — what lifecycle does a run later
   * (docs/mechanisms/termination-finalizer.md), taken at once so that the name is free for another Node.
   */
  function gone(kind: 'Node' | 'NodeClaim', name: string): void {
    const t = h.kube.typeOf(kind);
    h.kube.store.delete(t, undefined, name);
    const held = h.list(kind).find((o) => o.metadata.name === name);
    if (held)
      h.kube.store.patch(
        t,
        undefined,
        name,
        'application/merge-patch+json',
        { metadata: { finalizers: null } },
        undefined,
      );
  }

  /**
   * Provisioning launches a node for the candidate's displaced pods, and its instance got the reclaimed one's
   * private IP: its kubelet registers under the candidate's name, with its own uid and providerID.
   */
  async function impostorUnder(s: Scenario): Promise<{ instanceId: string; uid: string }> {
    const before = new Set(liveInstances(h).map((i) => i.instanceId));
    h.registerNodes = false;
    try {
      await provision(h);
      await expect.poll(() => liveInstances(h).find((i) => !before.has(i.instanceId))?.state).toBe('running');
    } finally {
      h.registerNodes = true;
    }
    const fresh = liveInstances(h).find((i) => !before.has(i.instanceId))!;
    registerEc2Node(h.kube, h.ec2.world, {
      providerId: `aws:///${fresh.zone}/${fresh.instanceId}`,
      instanceId: s.instanceId, // the name: ip-<…> of the reused address, which was the candidate's
      instanceType: fresh.instanceType,
      zone: fresh.zone,
      capacityType: fresh.lifecycle,
      imageId: fresh.imageId,
      tags: { ...fresh.tags },
      userData: Buffer.from(fresh.userData ?? '', 'base64').toString('utf8'),
    });
    await initializeNodes(h);
    h.bind();
    return { instanceId: fresh.instanceId, uid: String(node(s.candidate)?.metadata.uid) };
  }

  it('never drains or terminates a Node that took a vanished candidate’s name; the command completes for the rest', async () => {
    const a = await underusedNode(h, 'reuse-a');
    const b = await underusedNode(h, 'reuse-b');
    const single = await proposalFor(h, a.candidate);
    const proposal = {
      ...single,
      method: 'multi-node-consolidation' as const,
      candidates: [a.candidate, b.candidate],
    };
    const { id } = await startCommandNow(h, proposal);
    await initializeNodes(h); // the replacement is up
    await preempt(b);
    const impostor = await impostorUnder(b);
    const hosted = podsOf(h, b.app);
    expect(hosted.map(nodeNameOf)).toEqual([b.candidate, b.candidate]);

    for (let i = 0; i < 3; i++) {
      ran(await orchestrateOnce(h)); // drain a; then terminate it
      h.kube.terminatePods();
      h.bind();
    }
    // The Node under b's name is the new machine: none of its pods evicted, its instance running.
    const pods = podsOf(h, b.app);
    expect(pods.map((p) => p.metadata.uid)).toEqual(hosted.map((p) => p.metadata.uid));
    expect(pods.filter((p) => p.metadata.deletionTimestamp || nodeNameOf(p) !== b.candidate)).toEqual([]);
    expect(node(b.candidate)?.metadata.uid).toBe(impostor.uid);
    expect(instance(impostor.instanceId)?.state).toBe('running');
    expect(taintsOf(b.candidate)).toEqual([]);
    // a went as planned, and with it the command.
    expect((await h.store().getCommand(h.clusterName, id))?.status).toBe('completed');
    expect(node(a.candidate)).toBeUndefined();
    expect(instance(a.instanceId)?.state).toBe('terminated');
    expect(h.metrics.total(REFUSAL_METRIC, { reason: 'identity-mismatch' })).toBeGreaterThanOrEqual(1);
    const events = h
      .list('Event')
      .filter((e) => (e as Obj & { reason?: string }).reason === REFUSAL_EVENT_REASON)
      .map((e) => (e as Obj & { involvedObject: { name: string; uid?: string } }).involvedObject);
    expect(events).toContainEqual(expect.objectContaining({ name: b.candidate, uid: impostor.uid }));
  });

  it('does not roll back a command admitted while orchestrate was reading the cluster', async () => {
    const s = await underusedNode(h, 'race');
    const proposal = await proposalFor(h, s.candidate);
    let admitted: string | undefined;
    const real = h.cluster();
    // The snapshot read completes, then admission starts the command (claims created, launched, confirmed)
    // before orchestrate lists the commands.
    const racing = new Proxy(real, {
      get(t, prop, receiver) {
        if (prop === 'readSnapshot')
          return async () => {
            const read = await t.readSnapshot();
            admitted ??= (await startCommandNow(h, proposal)).id;
            return read;
          };
        const v: unknown = Reflect.get(t, prop, receiver);
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v;
      },
    }) as KubeCluster;
    const r = ran(
      await orchestrateHandler(h, { cluster: racing })(scheduledEvent(h.clock), lambdaContext('orchestrate')),
    );
    expect(admitted).toBeDefined();
    expect(r.transitions).toEqual([]); // waits for its replacement, as for any launching command
    expect((await h.store().getCommand(h.clusterName, admitted!))?.status).toBe('launching');
    await recover(h);
    expect((await h.store().getCommand(h.clusterName, admitted!))?.status).toBe('completed');
    expect(await expectNothingLeftBehind(h, s)).toBe('completed');
  });

  it('rolls back a command whose replacement claim was deleted: the replacement’s instance and Node go too', async () => {
    const s = await underusedNode(h, 'leak');
    const { id } = await startCommandNow(h, await proposalFor(h, s.candidate));
    const cmd = await h.store().getCommand(h.clusterName, id);
    const replacement = h.list('NodeClaim').find((c) => c.metadata.name === cmd?.replacements[0])!;
    const launched = providerIdOf(replacement);
    const replacementInstance = launched.split('/').pop() ?? '';
    expect(instance(replacementInstance)?.state).toBe('running');
    await expect.poll(() => nodesOf(h, s.pool).length).toBe(2); // its kubelet registered
    // An operator deletes the replacement NodeClaim; its instance keeps running.
    h.kube.store.delete(h.kube.typeOf('NodeClaim'), undefined, String(replacement.metadata.name));

    const r = ran(await orchestrateOnce(h));
    expect(r.transitions.map((t) => t.to)).toEqual(['rolling-back', 'rolled-back']);
    await expect.poll(() => instance(replacementInstance)?.state).toBe('terminated');
    expect(h.list('Node').filter((n) => providerIdOf(n) === launched)).toEqual([]);
    expect(taintsOf(s.candidate)).toEqual([]);
    expect(await expectNothingLeftBehind(h, s)).toBe('rolled-back');
  });

  it('leaves a candidate whose NodeClaim fails validation undrained and its instance running until it parses again', async () => {
    const s = await underusedNode(h, 'unreadable');
    const { id } = await startCommandNow(h, await proposalFor(h, s.candidate));
    await initializeNodes(h); // the replacement is up: the command drains next
    const claim = claimOf(s);
    if (!claim) throw new Error('the candidate has no NodeClaim');
    writeUnderLooseCrd(h, String(claim.metadata.name), [BAD_TAINT]);
    const hosted = podsOf(h, s.app).map((p) => p.metadata.uid);

    for (let i = 0; i < 3; i++) {
      ran(await orchestrateOnce(h));
      h.kube.terminatePods();
      h.bind();
    }
    expect((await h.store().getCommand(h.clusterName, id))?.status).toBe('draining');
    expect(podsOf(h, s.app).map((p) => p.metadata.uid)).toEqual(hosted);
    expect(instance(s.instanceId)?.state).toBe('running');
    expect(node(s.candidate)).toBeDefined();
    expect(
      h.metrics.total(REFUSAL_METRIC, { action: 'drain', reason: 'invalid-object' }),
    ).toBeGreaterThanOrEqual(3);
    const onClaim = h
      .list('Event')
      .filter((e) => (e as Obj & { reason?: string }).reason === REFUSAL_EVENT_REASON)
      .map((e) => (e as Obj & { involvedObject: { kind: string; name: string } }).involvedObject)
      .filter((o) => o.kind === 'NodeClaim' && o.name === claim.metadata.name);
    expect(onClaim.length).toBeGreaterThanOrEqual(1);

    // Fixed (the taint value parses again): the command goes on and completes.
    writeUnderLooseCrd(h, String(claim.metadata.name), []);
    await recover(h);
    expect(await expectNothingLeftBehind(h, s)).toBe('completed');
  });
});
