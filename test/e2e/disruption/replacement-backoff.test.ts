// The fork's replacement-failure backoff through the handlers (issue 29, item 9): consolidate proposes
// replacing an underused g5.12xlarge with a g5.xlarge, admit starts the command, the launch finds no
// capacity (ICE), orchestrate rolls it back and holds the candidate off replaces for the base (5 minutes,
// longer than the 3-minute unavailable-offering memory), doubling on a second failure; a changed pod set
// releases the hold early. State lives in DynamoDB Local between the invocations.
import { afterEach, describe, expect, it } from 'vitest';
import { KRAFTSMAN_METRICS } from '../../../shared/disruption/metric-names.ts';
import { LOOP_METRICS } from '../../../shared/loop/disruption-metrics.ts';
import { runConsolidate, wireDisruption } from '../../support/e2e/disruption-handlers.ts';
import { AWS_ZONES, pod, startHarness, type E2eHarness } from '../../support/e2e/index.ts';
import {
  openCommands,
  orchestrate as orchestrateOnce,
  underusedNode,
  type Scenario,
} from '../../support/e2e/disruption-world.ts';

const BASE_MS = 5 * 60_000;

describe('replacement-failure backoff through consolidate, admit and orchestrate', () => {
  let h: E2eHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  const start = async (tag: string): Promise<{ h: E2eHarness; s: Scenario }> => {
    h = await startHarness({ clusterName: `backoff-${tag}` });
    wireDisruption(h);
    return { h, s: await underusedNode(h, tag, 1) };
  };
  const capacity = (h: E2eHarness, count: number) => {
    for (const zone of AWS_ZONES) h.ec2.world.setCapacity('g5.xlarge', zone, 'on-demand', count);
  };
  /** consolidate → admit → launch-aws; returns the commands the pass started for the candidate. */
  const propose = async (h: E2eHarness, s: Scenario) => {
    expect(await runConsolidate(h)).toMatchObject({ outcome: 'ran' });
    return (await openCommands(h)).filter((c) => c.candidates.includes(s.candidate));
  };
  /** orchestrate until the failed command is rolled back. */
  const rollBack = async (h: E2eHarness) => {
    const r = await orchestrateOnce(h);
    expect(r.outcome === 'ran' && r.transitions.map((t) => t.to)).toEqual(['rolling-back', 'rolled-back']);
  };
  const skips = (h: E2eHarness, s: Scenario) =>
    h.metrics.total(KRAFTSMAN_METRICS.candidateSkipsTotal, {
      reason: 'replacement-backoff',
      nodepool: s.pool,
    });

  it('holds a candidate off replaces after its replacement found no capacity, then proposes it again', async () => {
    const { h, s } = await start('ice');
    capacity(h, 0);
    const [first] = await propose(h, s);
    expect(first?.decision).toBe('replace');
    await rollBack(h);
    expect(h.metrics.total(LOOP_METRICS.replacementBackoffsTotal, { nodepool: s.pool })).toBe(1);
    expect(await h.store().listReplacementBackoffs(h.clusterName)).toMatchObject([
      { candidate: s.candidate, nodePool: s.pool, failures: 1 },
    ]);

    // Capacity is back and the offering's unavailability (3 minutes) has run out: only the hold stops a replace.
    capacity(h, 100);
    h.clock.advance(4 * 60_000);
    expect(await propose(h, s)).toEqual([]);
    expect(skips(h, s)).toBe(1);
    // A held candidate was not judged: the pass does not call the fleet consolidated.
    expect(h.metrics.total(KRAFTSMAN_METRICS.passOutcomesTotal, { outcome: 'consolidated' })).toBe(0);

    h.clock.advance(BASE_MS - 4 * 60_000 + 1_000);
    const [again] = await propose(h, s);
    expect(again?.decision).toBe('replace');
    expect(skips(h, s)).toBe(1);
  });

  it('doubles the hold on a second failure, and releases it early once the candidate’s pods change', async () => {
    const { h, s } = await start('twice');
    capacity(h, 0);
    expect(await propose(h, s)).toHaveLength(1);
    await rollBack(h);
    h.clock.advance(BASE_MS + 1_000);
    expect(await propose(h, s)).toHaveLength(1); // the first hold ran out; still no capacity
    await rollBack(h);
    expect((await h.store().listReplacementBackoffs(h.clusterName))[0]?.failures).toBe(2);

    // Five minutes would have ended a flat hold; the second lasts ten.
    capacity(h, 100);
    h.clock.advance(BASE_MS + 1_000);
    expect(await propose(h, s)).toEqual([]);
    expect(skips(h, s)).toBe(1);

    // Another pod lands on the candidate: a different replacement problem, released at once.
    h.seed([pod(`${s.app}-late`, { cpu: '1', nodeSelector: { 'karpenter.sh/nodepool': s.pool } })]);
    h.bind();
    h.clock.advance(60_000); // past the pool's consolidateAfter since that pod event
    const [released] = await propose(h, s);
    expect(released?.decision).toBe('replace');
    expect(await h.store().listReplacementBackoffs(h.clusterName)).toEqual([]);
  });
});
