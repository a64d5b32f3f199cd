// Termination accounting on the orchestration path, through the handlers (issue 29, item 7): a command started
// as admission starts it sets Karpenter's DisruptionReason condition on the candidate's NodeClaim and
// annotates its replacement as one; once orchestrate completes it, the candidate's lifetime and termination
// duration are observed under the command's reason, and a replacement later ended by lifecycle is split by
// its origin. A rolled-back command clears the condition.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROVISIONING_METRICS as M } from '../../../shared/provisioning/metric-names.ts';
import { markDisruptionReason } from '../../../shared/loop/disruption-reason.ts';
import type { OrchestrateResult } from '../../../shared/loop/orchestrate.ts';
import { startHarness, wireLaunchers, type E2eHarness } from '../../support/e2e/index.ts';
import {
  initializeNodes,
  lifecycle,
  nodesOf,
  orchestrate as orchestrateOnce,
  underusedNode,
} from '../../support/e2e/disruption-world.ts';
import { proposalFor, startCommandNow } from '../../support/e2e/orchestration-handlers.ts';

type Condition = { type: string; status: string; reason?: string; message?: string };

describe('termination accounting through orchestrate and lifecycle', () => {
  let h: E2eHarness;
  beforeAll(async () => {
    h = await startHarness({ clusterName: 'accounting' });
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
  const claimNamed = (name: string | undefined) => h.list('NodeClaim').find((c) => c.metadata.name === name);
  const claimOfNode = (node: string) =>
    h.list('NodeClaim').find((c) => (c.status as { nodeName?: string } | undefined)?.nodeName === node);
  const conditionOf = (name: string | undefined): Condition | undefined =>
    ((claimNamed(name)?.status as { conditions?: Condition[] } | undefined)?.conditions ?? []).find(
      (c) => c.type === 'DisruptionReason',
    );

  it('a completed consolidation observes the candidate under its reason; its replacement is annotated and split by origin', async () => {
    const s = await underusedNode(h, 'acct', 1);
    const candidateClaim = String(claimOfNode(s.candidate)?.metadata.name);
    const { id } = await startCommandNow(h, await proposalFor(h, s.candidate));
    expect(conditionOf(candidateClaim)).toMatchObject({
      status: 'True',
      reason: 'Underutilized',
      message: 'Underutilized',
    });
    const cmd = await h.store().getCommand(h.clusterName, id);
    const replacement = cmd?.replacements[0];
    expect(claimNamed(replacement)?.metadata.annotations).toMatchObject({
      'kraftsman.dev/origin': 'disruption',
    });

    await initializeNodes(h);
    expect((await orchestrate()).transitions).toEqual([{ id, to: 'draining' }]);
    h.clock.advance(90_000); // the drain takes a minute and a half on the harness's clock
    h.kube.terminatePods();
    h.bind();
    expect((await orchestrate()).transitions).toEqual([{ id, to: 'completed' }]);

    const labels = { cause: 'underutilized', instance_type: 'g5.12xlarge', capacity_type: 'on-demand' };
    expect(h.metrics.total(M.nodeClaimsDisruptedTotal, { ...labels, reason: 'underutilized' })).toBe(1);
    expect(h.metrics.total(M.nodeClaimsTerminatedTotal, labels)).toBe(1);
    const lifetimes = h.metrics.named(M.nodeClaimLifetimeSeconds, { ...labels, origin: 'provisioning' });
    expect(lifetimes).toHaveLength(1);
    expect(lifetimes[0]?.value).toBeGreaterThan(90);
    const [took] = h.metrics.named(M.nodeClaimTerminationDurationSeconds, labels);
    expect(took?.value).toBeGreaterThanOrEqual(90);

    // The replacement lives on until it expires (the pool's expireAfter, 720h): lifecycle ends it, and its
    // lifetime is counted as a replacement's.
    expect(nodesOf(h, s.pool)).toHaveLength(1);
    h.clock.advance(721 * 3_600_000);
    expect(await lifecycle(h)).toMatchObject({ outcome: 'ran', failed: 0 });
    const expired = h.metrics.named(M.nodeClaimLifetimeSeconds, {
      cause: 'expired',
      instance_type: 'g5.xlarge',
      origin: 'disruption',
    });
    expect(expired).toHaveLength(1);
    // Lifecycle is draining it: orchestration must not take its disrupted taint for a stranded one.
    const draining = String(nodesOf(h, s.pool)[0]?.metadata.name);
    expect((await orchestrate()).strandedTaintsRemoved).not.toContain(draining);
    const taints = (nodesOf(h, s.pool)[0]?.spec as { taints?: { key: string }[] }).taints ?? [];
    expect(taints.map((t) => t.key)).toContain('karpenter.sh/disrupted');
  });

  it('a stranded disrupted taint goes with its claim’s DisruptionReason condition', async () => {
    const s = await underusedNode(h, 'acctstrand', 1);
    const claim = String(claimOfNode(s.candidate)?.metadata.name);
    // What a crashed admission leaves behind with no command recorded: the taint and the condition.
    await h.cluster().addTaint(s.candidate, { key: 'karpenter.sh/disrupted', effect: 'NoSchedule' });
    await markDisruptionReason({ cluster: h.cluster(), clock: h.clock }, claim, 'Underutilized');
    expect(conditionOf(claim)?.status).toBe('True');
    expect((await orchestrate()).strandedTaintsRemoved).toEqual([s.candidate]);
    expect(conditionOf(claim)).toBeUndefined();
  });

  it('a rolled-back command clears the DisruptionReason condition with the taint', async () => {
    const s = await underusedNode(h, 'acctback', 1);
    const candidateClaim = String(claimOfNode(s.candidate)?.metadata.name);
    h.registerNodes = false; // the replacement boots but never registers
    try {
      await startCommandNow(h, await proposalFor(h, s.candidate));
    } finally {
      h.registerNodes = true;
    }
    expect(conditionOf(candidateClaim)?.status).toBe('True');
    h.clock.advance(16 * 60_000);
    expect((await orchestrate()).transitions.map((t) => t.to)).toEqual(['rolling-back', 'rolled-back']);
    expect(conditionOf(candidateClaim)).toBeUndefined();
  });
});
