// The consolidate handler against the emulators and DynamoDB Local: an empty GPU node becomes one proposal
// handed to admit as a validated payload, the pass's metrics are emitted, overlapping or repeated starts
// return `held` at once, and a malformed event is refused naming its field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAdmitPayload } from '../../../shared/loop/admit-payload.ts';
import { KRAFTSMAN_METRICS } from '../../../shared/disruption/metric-names.ts';
import { consolidateHandler, nodeOf, removePod } from '../../support/e2e/disruption-handlers.ts';
import {
  lambdaContext,
  nodePool,
  pod,
  scheduledEvent,
  startHarness,
  wireLaunchers,
  type E2eHarness,
} from '../../support/e2e/index.ts';
import { bringUp } from '../../support/e2e/steps.ts';

describe('consolidate through its handler', () => {
  let h: E2eHarness;
  let empty: string;
  const handedOff: unknown[] = [];
  beforeAll(async () => {
    h = await startHarness({
      objects: [nodePool('aws-gpu', 'aws', { instanceTypes: ['g5.xlarge', 'g5.2xlarge'] })],
    });
    wireLaunchers(h);
    await bringUp(h, [pod('job', { gpus: 1 })]);
    empty = nodeOf(h, 'job') ?? '';
    removePod(h, 'job');
    h.clock.advance(5 * 60_000); // consolidateAfter (30 s) has passed since the last pod event
    h.invoker.register('admit', async (p) => void handedOff.push(p));
  });
  afterAll(async () => {
    await h?.close();
  });

  it('runs one pass and hands its proposal to admit as a validated, bounded payload', async () => {
    expect(empty).not.toBe('');
    const event = scheduledEvent(h.clock);
    const r = await consolidateHandler(h)(event, lambdaContext('consolidate'));
    await h.invoker.settled();
    expect(r).toEqual({ outcome: 'ran', pass: 'proposed', timedOut: false, handedOff: 1 });
    expect(handedOff).toHaveLength(1);
    const payload = parseAdmitPayload(handedOff[0]);
    expect(payload).toMatchObject({ cluster: h.clusterName, passId: event.id });
    expect(payload.proposals.map((p) => [p.method, p.candidates, p.replacements.length])).toEqual([
      ['emptiness', [empty], 0],
    ]);
    expect(h.metrics.total(KRAFTSMAN_METRICS.passOutcomesTotal, { outcome: 'proposed' })).toBe(1);
    expect(h.metrics.total(KRAFTSMAN_METRICS.proposalsHeldTotal)).toBe(1);
    expect(h.metrics.named(KRAFTSMAN_METRICS.passStageDurationSeconds).length).toBeGreaterThan(0);
    expect(h.metrics.flushes).toBeGreaterThan(0);
  });

  it('of two overlapping invocations one runs; the other returns held at once', async () => {
    handedOff.length = 0;
    const handler = consolidateHandler(h);
    const [a, b] = await Promise.all([
      handler(scheduledEvent(h.clock), lambdaContext('consolidate')),
      handler(scheduledEvent(h.clock), lambdaContext('consolidate')),
    ]);
    await h.invoker.settled();
    expect([a.outcome, b.outcome].sort()).toEqual(['held', 'ran']);
    const held = [a, b].find((x) => x.outcome === 'held');
    expect(held).toMatchObject({ reason: 'held', holder: expect.any(String) });
    expect(handedOff).toHaveLength(1);
  });

  it('a second delivery of the same scheduled event is held as the same run', async () => {
    const event = scheduledEvent(h.clock);
    const handler = consolidateHandler(h);
    expect(await handler(event, lambdaContext('consolidate'))).toMatchObject({ outcome: 'ran' });
    expect(await handler(event, lambdaContext('consolidate'))).toMatchObject({
      outcome: 'held',
      reason: 'same-run',
    });
  });

  it('a pass the invocation has no time for is counted as timed out, with no proposal', async () => {
    h.seed([pod('keeps-it-busy', { gpus: 1 })]);
    h.bind(); // the empty node is the only GPU node: it is not empty any more
    h.clock.advance(5 * 60_000);
    const before = h.metrics.total(KRAFTSMAN_METRICS.passOutcomesTotal, { outcome: 'timed-out' });
    // 30 s left is exactly the margin the handler keeps to persist and flush: the walks get no time at all.
    const ctx = { ...lambdaContext('consolidate'), getRemainingTimeInMillis: () => 30_000 };
    const r = await consolidateHandler(h)(scheduledEvent(h.clock), ctx);
    expect(r).toEqual({ outcome: 'ran', pass: 'timed-out', timedOut: true, handedOff: 0 });
    expect(h.metrics.total(KRAFTSMAN_METRICS.passOutcomesTotal, { outcome: 'timed-out' })).toBe(before + 1);
    // Depth and cycle coverage per NodePool, and every stage's timing, even for a pass cut short.
    const pool = { nodepool: 'aws-gpu' };
    expect(h.metrics.named(KRAFTSMAN_METRICS.walkCandidates, pool).at(-1)?.value).toBe(1);
    expect(h.metrics.named(KRAFTSMAN_METRICS.walkDepth, pool).at(-1)?.value).toBeLessThanOrEqual(1);
    const coverage = h.metrics.named(KRAFTSMAN_METRICS.walkCycleCoverage, pool).at(-1)?.value;
    expect(coverage).toBeGreaterThanOrEqual(0);
    expect(coverage).toBeLessThanOrEqual(1);
    const stages = h.metrics.named(KRAFTSMAN_METRICS.passStageDurationSeconds).slice(-4);
    expect(stages.map((x) => x.labels['stage'])).toEqual([
      'state_copy',
      'pod_gather',
      'construction',
      'simulation',
    ]);
  });

  it('a malformed event or context fails naming the field', async () => {
    const handler = consolidateHandler(h);
    await expect(
      handler({ ...scheduledEvent(h.clock), 'detail-type': 'Other' }, lambdaContext('consolidate')),
    ).rejects.toThrow(/consolidate event: detail-type/);
    await expect(handler(scheduledEvent(h.clock), {})).rejects.toThrow(/awsRequestId/);
  });
});
