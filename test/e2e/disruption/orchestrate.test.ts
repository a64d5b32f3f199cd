// Orchestration through the handler: a command started as admission starts it (StartCommand) is advanced by
// scheduled orchestrate invocations — replacement launched and initialized → candidate drained through the
// Eviction API → instance terminated on the EC2 emulator → NodeClaim and Node deleted — and completing it
// bumps the negative-cache epoch and reports the command by decision and the savings it realized.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOP_METRICS } from '../../../shared/loop/disruption-metrics.ts';
import type { OrchestrateResult } from '../../../shared/loop/orchestrate.ts';
import {
  lambdaContext,
  lifecycleHandler,
  nodePool,
  pod,
  provisionHandler,
  scheduledEvent,
  startHarness,
  wireLaunchers,
  type E2eHarness,
} from '../../support/e2e/index.ts';
import {
  orchestrateHandler,
  proposalFor,
  startCommandNow,
} from '../../support/e2e/orchestration-handlers.ts';

const TYPES = ['g5.xlarge', 'g5.12xlarge'];

describe('orchestrate through the handler', () => {
  let h: E2eHarness;
  beforeAll(async () => {
    h = await startHarness({ objects: [nodePool('aws-gpu', 'aws', { instanceTypes: TYPES })] });
    wireLaunchers(h);
  });
  afterAll(async () => {
    await h?.close();
  });

  const provision = async () => {
    await provisionHandler(h)(scheduledEvent(h.clock), lambdaContext('provision'));
    await h.invoker.settled();
  };
  const lifecycle = () => lifecycleHandler(h)(scheduledEvent(h.clock), lambdaContext('lifecycle'));
  const orchestrate = async (): Promise<Extract<OrchestrateResult, { outcome: 'ran' }>> => {
    const r = await orchestrateHandler(h)(scheduledEvent(h.clock), lambdaContext('orchestrate'));
    if (r.outcome !== 'ran') throw new Error(`orchestration lease held by ${r.holder}`);
    return r;
  };
  const node = (name: string) => h.list('Node').find((n) => n.metadata.name === name);
  const instanceOf = (nodeName: string | undefined) => {
    const id = (node(nodeName ?? '')?.spec as { providerID?: string } | undefined)?.providerID ?? '';
    return [...h.ec2.world.instances.values()].find((i) => id.endsWith(`/${i.instanceId}`));
  };
  const podsOf = (app: string) =>
    h.list('Pod').filter((p) => (p.metadata.labels as Record<string, string>)['app'] === app);
  const nodeOfPod = (p: Record<string, unknown>) => (p.spec as { nodeName?: string }).nodeName;

  /** A g5.12xlarge whose 3-GPU job finished: one 1-GPU pod (owned by a ReplicaSet) is left on it. */
  async function underusedNode(): Promise<string> {
    h.seed([pod('keep', { gpus: 1, replicaSet: 'keep' }), pod('batch', { gpus: 3 })]);
    await provision();
    await expect.poll(() => h.list('Node').length).toBe(1);
    await lifecycle(); // registers
    await lifecycle(); // initializes
    expect([...h.bind().bound].sort()).toEqual(['default/batch', 'default/keep']);
    h.kube.store.delete(h.kube.typeOf('Pod'), 'default', 'batch', { gracePeriodSeconds: 0 });
    h.clock.advance(60_000); // past the pool's consolidateAfter
    return String(h.list('Node')[0]!.metadata.name);
  }

  it('replaces an underused node: drained, terminated, deleted; the pod runs on the replacement', async () => {
    const candidate = await underusedNode();
    const candidateInstance = instanceOf(candidate);
    expect(candidateInstance?.instanceType).toBe('g5.12xlarge');
    const proposal = await proposalFor(h, candidate);
    expect(proposal.replacements.map((r) => r.instanceTypes)).toEqual([['g5.xlarge']]);
    const epoch = (await h.store().loadPassState(h.clusterName)).epoch;
    const { id } = await startCommandNow(h, proposal);

    // The replacement launched; until it is initialized orchestration waits with the candidate tainted.
    expect((await orchestrate()).transitions).toEqual([]);
    await expect.poll(() => h.list('Node').length).toBe(2);
    await lifecycle();
    await lifecycle();
    const replacement = String(h.list('Node').find((n) => n.metadata.name !== candidate)!.metadata.name);

    const draining = await orchestrate();
    expect(draining.transitions).toEqual([{ id, to: 'draining' }]);
    expect(draining.evictions).toMatchObject({ evicted: 1, blocked: 0 });
    h.kube.terminatePods(); // the kubelet finishes the evicted pod; its ReplicaSet made a new one
    expect([...h.bind().bound]).toHaveLength(1);
    expect(podsOf('keep').map(nodeOfPod)).toEqual([replacement]);

    const done = await orchestrate();
    expect(done.transitions).toEqual([{ id, to: 'completed' }]);
    expect(node(candidate)).toBeUndefined();
    expect(h.ec2.world.instances.get(candidateInstance!.instanceId)?.state).toBe('terminated');
    expect(h.list('NodeClaim')).toHaveLength(1);
    expect((await h.store().loadPassState(h.clusterName)).epoch).toBe(epoch + 1);
    expect(
      h.metrics.total(LOOP_METRICS.commandsExecutedTotal, { decision: 'replace', result: 'completed' }),
    ).toBe(1);
    expect(done.realizedSavingsPerHour).toBeCloseTo(proposal.savingsPerHour);
    expect(proposal.savingsPerHour).toBeGreaterThan(0);
    expect(h.metrics.total(LOOP_METRICS.realizedSavingsPerHour, { decision: 'replace' })).toBeCloseTo(
      proposal.savingsPerHour,
    );
  });
});
