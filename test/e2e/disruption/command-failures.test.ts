// One stuck command never blocks the others (docs/functions/orchestrate.md, "When a command fails"), through
// the handler against the emulators and DynamoDB Local: a command whose terminate EC2 keeps refusing is
// recorded, retried with backoff and given up after its bounded tries — candidate untainted and told why,
// budget released — while a second command completes in the same passes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAILED_EVENT_REASON, MAX_COMMAND_ATTEMPTS } from '../../../shared/loop/command-failures.ts';
import { LOOP_METRICS } from '../../../shared/loop/disruption-metrics.ts';
import type { OrchestrateResult } from '../../../shared/loop/orchestrate.ts';
import { startHarness, wireLaunchers, type E2eHarness } from '../../support/e2e/index.ts';
import {
  initializeNodes,
  openCommands,
  orchestrate as orchestrateOnce,
  underusedNode,
} from '../../support/e2e/disruption-world.ts';
import { proposalFor, startCommandNow } from '../../support/e2e/orchestration-handlers.ts';

type Obj = Record<string, unknown> & { metadata: Record<string, unknown> };

describe('a command that keeps failing', () => {
  let h: E2eHarness;
  beforeAll(async () => {
    h = await startHarness({ clusterName: 'failures' });
    wireLaunchers(h);
  });
  afterAll(async () => {
    await h?.close();
  });

  const instance = (id: string) => h.ec2.world.instances.get(id);
  const node = (name: string) => h.list('Node').find((n) => n.metadata.name === name);
  const taintsOf = (name: string) =>
    ((node(name)?.spec as { taints?: { key: string }[] } | undefined)?.taints ?? []).map((t) => t.key);
  /** EC2 refuses the next TerminateInstances (a policy without ec2:TerminateInstances on that instance). */
  const denyNextTerminate = () => {
    h.ec2.world.faults.failNext['TerminateInstances'] = {
      code: 'UnauthorizedOperation',
      message: 'You are not authorized to perform this operation.',
      status: 403,
    };
  };
  const pass = async (): Promise<Extract<OrchestrateResult, { outcome: 'ran' }>> => {
    const r = await orchestrateOnce(h);
    if (r.outcome !== 'ran') throw new Error(`orchestration lease held by ${r.holder}`);
    return r;
  };

  it('does not stop a second command from completing, and ends failed after its bounded tries', async () => {
    const stuck = await underusedNode(h, 'stuck');
    const other = await underusedNode(h, 'other');
    const first = await startCommandNow(h, await proposalFor(h, stuck.candidate));
    const second = await startCommandNow(h, await proposalFor(h, other.candidate));
    await initializeNodes(h);
    expect((await pass()).transitions.map((t) => t.to)).toEqual(['draining', 'draining']);
    h.kube.terminatePods();
    h.bind();

    // Both candidates are empty: the first command's terminate is refused, the second's goes through.
    denyNextTerminate();
    const mixed = await pass();
    expect(mixed.transitions).toEqual([{ id: second.id, to: 'completed' }]);
    expect(mixed.failures).toEqual([
      expect.objectContaining({ id: first.id, status: 'draining', attempts: 1, terminal: false }),
    ]);
    await expect.poll(() => instance(other.instanceId)?.state).toBe('terminated');
    const recorded = await h.store().getCommand(h.clusterName, first.id);
    expect(recorded).toMatchObject({ status: 'draining', failures: 1 });
    expect(recorded?.lastError).toMatch(/UnauthorizedOperation|not authorized/);
    // Not tried again before its backoff has passed.
    expect((await pass()).deferred).toEqual([first.id]);

    // Alone and failing every time: the invocation fails (a systematic failure is never a green run).
    for (let attempt = 2; attempt <= MAX_COMMAND_ATTEMPTS; attempt++) {
      h.clock.advance(16 * 60_000);
      denyNextTerminate();
      await expect(orchestrateOnce(h)).rejects.toThrow(/every command orchestration attempted failed/);
    }
    expect((await h.store().getCommand(h.clusterName, first.id))?.status).toBe('failed');
    expect(await openCommands(h)).toEqual([]); // no longer counts against the disruption budget
    expect((await h.store().loadPassState(h.clusterName)).openCommands).toEqual([]);
    expect(taintsOf(stuck.candidate)).toEqual([]);
    expect(instance(stuck.instanceId)?.state).toBe('running');
    const told = h
      .list('Event')
      .filter((e) => (e as Obj & { reason?: string }).reason === FAILED_EVENT_REASON)
      .map((e) => (e as Obj & { involvedObject: { name: string } }).involvedObject.name);
    expect(told).toEqual([stuck.candidate]);
    expect(h.metrics.total(LOOP_METRICS.commandsExecutedTotal, { result: 'failed' })).toBe(1);
    expect(h.metrics.total(LOOP_METRICS.commandFailuresTotal)).toBe(MAX_COMMAND_ATTEMPTS);
    // Given up, it stays given up: the next pass has nothing to do.
    h.clock.advance(16 * 60_000);
    expect(await pass()).toMatchObject({ transitions: [], failures: [] });
  });
});
