// A replacement's rollback deadline through the orchestrate handler (issue 29, item 9): a GPU pool that gives
// its nodes 25 minutes to register (kraftsman.dev/registration-timeout) has its replacements waited for that
// long, not cut short at the fixed 15 minutes; past it the command is rolled back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrchestrateResult } from '../../../shared/loop/orchestrate.ts';
import { startHarness, wireLaunchers, type E2eHarness } from '../../support/e2e/index.ts';
import { orchestrate as orchestrateOnce, underusedNode } from '../../support/e2e/disruption-world.ts';
import { proposalFor, startCommandNow } from '../../support/e2e/orchestration-handlers.ts';

describe('replacement deadline through the orchestrate handler', () => {
  let h: E2eHarness;
  beforeAll(async () => {
    h = await startHarness({ clusterName: 'deadline' });
    wireLaunchers(h);
  });
  afterAll(async () => {
    await h?.close();
  });

  const transitions = async () => {
    const r: OrchestrateResult = await orchestrateOnce(h);
    if (r.outcome !== 'ran') throw new Error(`orchestration lease held by ${r.holder}`);
    return r.transitions.map((t) => t.to);
  };

  it('waits out the pool’s 25-minute registration timeout before rolling a replacement back', async () => {
    const s = await underusedNode(h, 'slowgpu', 1);
    h.kube.store.patch(
      h.kube.typeOf('NodePool'),
      undefined,
      s.pool,
      'application/merge-patch+json',
      { metadata: { annotations: { 'kraftsman.dev/registration-timeout': '25m' } } },
      undefined,
    );
    h.registerNodes = false; // the replacement boots but its kubelet has not joined yet
    try {
      await startCommandNow(h, await proposalFor(h, s.candidate));
    } finally {
      h.registerNodes = true;
    }
    h.clock.advance(16 * 60_000); // past the fixed 15 minutes, inside the pool's 25
    expect(await transitions()).toEqual([]);
    h.clock.advance(10 * 60_000);
    expect(await transitions()).toEqual(['rolling-back', 'rolled-back']);
  });
});
