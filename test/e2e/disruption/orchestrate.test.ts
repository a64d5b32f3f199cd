// Orchestration through the handler: a command started as admission starts it (StartCommand) is advanced by
// scheduled orchestrate invocations — replacement launched and initialized → candidate drained through the
// Eviction API → instance terminated on the EC2 emulator → NodeClaim and Node deleted. Also: a candidate that
// vanishes under its command, a replacement that never initializes (rollback), a PDB that holds the drain.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshDisruptionBudgets } from '../../../local/kube-api/alive/disruption-budgets.ts';
import { LOOP_METRICS } from '../../../shared/loop/disruption-metrics.ts';
import type { OrchestrateResult } from '../../../shared/loop/orchestrate.ts';
import { providerId } from '../../../shared/ports/cloud-provider/index.ts';
import { pdb, startHarness, wireLaunchers, type E2eHarness } from '../../support/e2e/index.ts';
import {
  expectNothingLeftBehind,
  initializeNodes,
  nodeNameOf,
  nodesOf,
  orchestrate as orchestrateOnce,
  podsOf,
  recover,
  underusedNode,
} from '../../support/e2e/disruption-world.ts';
import { proposalFor, startCommandNow } from '../../support/e2e/orchestration-handlers.ts';

describe('orchestrate through the handler', () => {
  let h: E2eHarness;
  beforeAll(async () => {
    h = await startHarness({ clusterName: 'orchestrate' });
    wireLaunchers(h);
  });
  afterAll(async () => {
    await h?.close();
  });

  const orchestrate = async (): Promise<Extract<OrchestrateResult, { outcome: 'ran' }>> => {
    const r = await orchestrateOnce(h);
    if (r.outcome !== 'ran') throw new Error(`orchestration lease held by ${r.holder}`);
    return r;
  };
  const instance = (id: string) => h.ec2.world.instances.get(id);
  const taintsOf = (name: string) =>
    (
      (h.list('Node').find((n) => n.metadata.name === name)?.spec as { taints?: { key: string }[] })
        ?.taints ?? []
    ).map((t) => t.key);

  it('replaces an underused node: drained, terminated, deleted; its pod runs on the replacement', async () => {
    const s = await underusedNode(h, 'replace', 1);
    const proposal = await proposalFor(h, s.candidate);
    expect(proposal.replacements.map((r) => r.instanceTypes)).toEqual([['g5.xlarge']]);
    const epoch = (await h.store().loadPassState(h.clusterName)).epoch;
    const { id } = await startCommandNow(h, proposal);
    expect(taintsOf(s.candidate)).toContain('karpenter.sh/disrupted');

    // The replacement launched; until it is initialized orchestration waits with the candidate tainted.
    expect((await orchestrate()).transitions).toEqual([]);
    await expect.poll(() => nodesOf(h, s.pool).length).toBe(2);
    await initializeNodes(h);
    const replacement = String(
      nodesOf(h, s.pool).find((n) => n.metadata.name !== s.candidate)!.metadata.name,
    );

    const draining = await orchestrate();
    expect(draining.transitions).toEqual([{ id, to: 'draining' }]);
    expect(draining.evictions).toMatchObject({ evicted: 1, blocked: 0 });
    h.kube.terminatePods(); // the kubelet finishes the evicted pod; its ReplicaSet made a new one
    expect([...h.bind().bound]).toHaveLength(1);
    expect(podsOf(h, s.app).map(nodeNameOf)).toEqual([replacement]);

    const done = await orchestrate();
    expect(done.transitions).toEqual([{ id, to: 'completed' }]);
    await expect.poll(() => instance(s.instanceId)?.state).toBe('terminated');
    expect(await expectNothingLeftBehind(h, s)).toBe('completed');
    // The negative cache was cleared twice: when the command was admitted and when it completed.
    expect((await h.store().loadPassState(h.clusterName)).epoch).toBe(epoch + 2);
    const executed = { decision: 'replace', result: 'completed' };
    expect(h.metrics.total(LOOP_METRICS.commandsExecutedTotal, executed)).toBe(1);
    expect(proposal.savingsPerHour).toBeGreaterThan(0);
    expect(done.realizedSavingsPerHour).toBeCloseTo(proposal.savingsPerHour);
    expect(h.metrics.total(LOOP_METRICS.realizedSavingsPerHour, { decision: 'replace' })).toBeCloseTo(
      proposal.savingsPerHour,
    );
  });

  it('finishes a command whose candidate vanished under it (spot preemption), by the candidate’s name', async () => {
    const s = await underusedNode(h, 'vanish');
    const { id } = await startCommandNow(h, await proposalFor(h, s.candidate));
    await initializeNodes(h);
    // The instance is reclaimed; the node controller deletes the Node, pod GC its pods (their ReplicaSet
    // brings them back).
    const zone = instance(s.instanceId)?.zone ?? '';
    await h.ec2Provider().delete(providerId(`aws:///${zone}/${s.instanceId}`));
    await expect.poll(() => instance(s.instanceId)?.state).toBe('terminated');
    for (const p of podsOf(h, s.app))
      h.kube.store.delete(h.kube.typeOf('Pod'), 'default', String(p.metadata.name), {
        gracePeriodSeconds: 0,
      });
    h.kube.store.delete(h.kube.typeOf('Node'), undefined, s.candidate);
    await recover(h);
    expect((await h.store().getCommand(h.clusterName, id))?.status).toBe('completed');
    expect(await expectNothingLeftBehind(h, s)).toBe('completed');
  });

  it('rolls back when the replacement never initializes: untainted, replacement deleted, its instance terminated', async () => {
    const s = await underusedNode(h, 'stuck');
    h.registerNodes = false; // the replacement boots but its kubelet never registers
    let started;
    try {
      started = await startCommandNow(h, await proposalFor(h, s.candidate));
    } finally {
      h.registerNodes = true;
    }
    const cmd = await h.store().getCommand(h.clusterName, started.id);
    const replacementClaim = h.list('NodeClaim').find((c) => c.metadata.name === cmd?.replacements[0]);
    const replacementInstance = (replacementClaim?.status as { providerID?: string }).providerID
      ?.split('/')
      .pop();
    expect(instance(replacementInstance ?? '')?.state).toBe('running');
    expect((await orchestrate()).transitions).toEqual([]);
    h.clock.advance(16 * 60_000); // past the 15-minute replacement timeout
    expect((await orchestrate()).transitions.map((t) => t.to)).toEqual(['rolling-back', 'rolled-back']);
    expect(taintsOf(s.candidate)).toEqual([]);
    expect(h.list('NodeClaim').map((c) => c.metadata.name)).not.toContain(cmd?.replacements[0]);
    await expect.poll(() => instance(replacementInstance ?? '')?.state).toBe('terminated');
    expect(await expectNothingLeftBehind(h, s)).toBe('rolled-back');
  });

  it('waits while a PDB blocks the drain (429 means later), then completes once the PDB allows it', async () => {
    const s = await underusedNode(h, 'guarded');
    await startCommandNow(h, await proposalFor(h, s.candidate));
    await initializeNodes(h);
    // The PDB appears after admission and allows no disruption of the two pods.
    h.seed([pdb('guard', s.app, 2)]);
    refreshDisruptionBudgets(h.kube);
    const blocked = await orchestrate();
    expect(blocked.transitions.map((t) => t.to)).toEqual(['draining']);
    expect(blocked.evictions).toMatchObject({ evicted: 0, blocked: 2 });
    expect((await orchestrate()).evictions).toMatchObject({ evicted: 0, blocked: 2 });
    expect(podsOf(h, s.app).every((p) => nodeNameOf(p) === s.candidate)).toBe(true);

    // One pod may go at a time now: the drain proceeds as the recreated pods come up on the replacement.
    h.kube.store.delete(h.kube.typeOf('PodDisruptionBudget'), 'default', 'guard');
    h.seed([pdb('guard', s.app, 1)]);
    await recover(h);
    expect(h.metrics.total(LOOP_METRICS.evictionsTotal, { result: 'blocked' })).toBeGreaterThanOrEqual(4);
    expect(await expectNothingLeftBehind(h, s)).toBe('completed');
  });
});
