// admit invoked concurrently against DynamoDB Local and the Kubernetes emulator. 8 invocations a round for
// 100 rounds with no lock wait: exactly one runs each round and the other seven return `held` at once; and
// 8 invocations that wait for the lock (the deployed default): they run one after another. Either way every
// command is written under a fencing token that only rises with its sequence number, an invocation's
// proposals are admitted in their order, and the NodePool's disruption budget is never overspent — asserted
// from the store's command records and the emulator's taints. Between rounds the test completes the
// round's commands as orchestration would. The settling delay passes on the harness's clock, never in real time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdmitOutcome } from '../../../functions/admit/handler.ts';
import { LOOP_METRICS } from '../../../shared/loop/disruption-metrics.ts';
import { DISRUPTED_TAINT_KEY } from '../../../shared/model/labels.ts';
import type { CommandRecord } from '../../../shared/ports/state-store/records.ts';
import {
  admitHandler,
  deleteProposal,
  emptyNode,
  withBudget,
  type TestAdmitSettings,
} from '../../support/e2e/disruption-handlers.ts';
import { lambdaContext, nodePool, startHarness, type E2eHarness } from '../../support/e2e/index.ts';

const ADMITTERS = 8;

describe('admit under concurrency', () => {
  let h: E2eHarness;
  const all: CommandRecord[] = [];
  let round = 0;
  beforeAll(async () => {
    h = await startHarness({
      // 800 admissions, each a warm read: the fast mode spares each catch-up the wait for the bookmark a real
      // server sends 2 s before the watch's timeout (that schedule is tested in test/integration/kube).
      bookmarks: { afterReplay: true },
      objects: [
        withBudget(nodePool('one', 'aws', { instanceTypes: ['g5.xlarge'] }), '1'),
        withBudget(nodePool('three', 'aws', { instanceTypes: ['g5.xlarge'] }), '3'),
      ],
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  const taintedNodes = () =>
    h
      .list('Node')
      .filter((n) =>
        ((n.spec as { taints?: { key: string }[] }).taints ?? []).some((t) => t.key === DISRUPTED_TAINT_KEY),
      )
      .map((n) => n.metadata.name)
      .sort();

  /** One round: fresh empty nodes, `ADMITTERS` concurrent invocations of `perInvocation` proposals each. */
  async function runRound(
    admitters: readonly ReturnType<typeof admitHandler>[],
    pool: string,
    perInvocation: number,
  ): Promise<{ results: AdmitOutcome[]; cmds: CommandRecord[]; order: string[][] }> {
    const r = round++;
    const order = admitters.map((_, i) =>
      Array.from({ length: perInvocation }, (_, j) => `r${r}-a${i}-n${j}`),
    );
    h.seed(order.flat().map((n) => emptyNode(n, pool)));
    h.clock.advance(60_000); // consolidateAfter (30 s) has passed for the new nodes
    const results = await Promise.all(
      admitters.map((admit, i) =>
        admit(
          {
            cluster: h.clusterName,
            passId: `round-${r}`,
            createdAt: h.clock.now().getTime(),
            proposals: order[i]!.map((n) => deleteProposal(n)),
          },
          lambdaContext('admit'),
        ),
      ),
    );
    const store = h.store();
    const cmds = (await store.listCommandsByStatus(h.clusterName, 'launching')).sort((a, b) => a.seq - b.seq);
    expect(taintedNodes()).toEqual(cmds.map((c) => c.candidates[0]).sort());
    // In order: what one invocation admitted is a prefix-ordered subsequence of its proposals, by seq.
    for (const [i, res] of results.entries()) {
      if (res.outcome !== 'ran') continue;
      const positions = res.admitted.map((id) =>
        order[i]!.indexOf(cmds.find((c) => c.id === id)!.candidates[0]!),
      );
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
    }
    all.push(...cmds);
    // Orchestration's part, done by the test: the commands complete and the round's nodes go.
    for (const c of cmds) {
      await store.transitionCommand(h.clusterName, c.id, 'launching', 'draining');
      await store.transitionCommand(h.clusterName, c.id, 'draining', 'completed');
    }
    for (const n of order.flat()) h.kube.store.delete(h.kube.typeOf('Node'), undefined, n);
    return { results, cmds, order };
  }

  const containers = (s: TestAdmitSettings) => Array.from({ length: ADMITTERS }, () => admitHandler(h, s));

  it('8 concurrent invocations × 100 rounds without a lock wait: one runs, seven are held, budget 1 kept', async () => {
    const admitters = containers({ lockWaitMs: 0 }); // warm containers, reused across rounds
    for (let i = 0; i < 100; i++) {
      const { results, cmds, order } = await runRound(admitters, 'one', 2);
      expect(results.filter((r) => r.outcome === 'held')).toHaveLength(ADMITTERS - 1);
      const ran = results.findIndex((r) => r.outcome === 'ran');
      // The one that ran admitted its first proposal; the second would overspend the budget of 1.
      expect(results[ran]).toEqual({
        outcome: 'ran',
        admitted: [cmds[0]?.id],
        rejected: [{ candidates: [order[ran]![1]], stage: 'budget' }],
        expired: 0,
      });
    }
    expect(h.metrics.total(LOOP_METRICS.admissionFailuresTotal, { stage: 'lock' })).toBe(
      100 * 2 * (ADMITTERS - 1),
    );
    expect(h.metrics.total(LOOP_METRICS.admissionFailuresTotal, { stage: 'budget' })).toBe(100);
  }, 600_000); // ~1,000 handler invocations: seconds on an idle machine, minutes on a loaded CI box

  it('8 concurrent invocations that wait for the lock run one after another within budget 3', async () => {
    const admitters = containers({ lockWaitMs: 10 * 60_000, lockPollMs: 50 });
    for (let i = 0; i < 2; i++) {
      const { results, cmds } = await runRound(admitters, 'three', 2);
      expect(results.every((r) => r.outcome === 'ran')).toBe(true);
      expect(cmds).toHaveLength(3); // exactly the budget, never more
      const admittedBy = results.flatMap((r) => (r.outcome === 'ran' ? r.admitted : []));
      expect(admittedBy.sort()).toEqual(cmds.map((c) => c.id).sort());
    }
  }, 300_000);

  it('never overlapping: fencing tokens rise with sequence numbers; a new holder wrote after the last settled', () => {
    expect(all).toHaveLength(100 + 2 * 3);
    for (let i = 1; i < all.length; i++) {
      const [prev, next] = [all[i - 1]!, all[i]!];
      expect(next.seq).toBeGreaterThan(prev.seq);
      expect(next.fencingToken).toBeGreaterThanOrEqual(prev.fencingToken);
      if (next.fencingToken === prev.fencingToken) expect(next.admittedBy).toBe(prev.admittedBy);
      // The next holder acquired after the previous released, then waited its own settling delay.
      else expect(next.createdAt.getTime()).toBeGreaterThanOrEqual(prev.confirmedAt!.getTime() + 15_000);
    }
    expect(h.metrics.total(LOOP_METRICS.commandsAdmittedTotal, { decision: 'delete' })).toBe(106);
  });
});
