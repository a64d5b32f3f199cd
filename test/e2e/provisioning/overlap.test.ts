// Overlapping provision invocations through the handler: the one holding the provisioning lease watches and
// keeps creating claims, a second start finds the lease held and returns `held` without touching anything,
// the same scheduled event delivered again is refused as the same run, and after the holder ends the next
// scheduled start runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  lambdaContext,
  nodePool,
  pod,
  provisionHandler,
  scheduledEvent,
  startHarness,
  wireLaunchers,
  type E2eHarness,
} from '../../support/e2e/index.ts';
import { claimNames } from '../../support/e2e/steps.ts';

describe('overlapping provision invocations', () => {
  let h: E2eHarness;
  beforeAll(async () => {
    h = await startHarness({ objects: [nodePool('aws-gpu', 'aws', { instanceTypes: ['g5.xlarge'] })] });
    wireLaunchers(h);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('one works, the other exits at once with held; the holder keeps batching', async () => {
    h.seed([pod('first', { gpus: 1 })]);
    const ctxA = lambdaContext('provision');
    const eventA = scheduledEvent(h.clock);
    let aDone = false;
    const a = provisionHandler(h, { windowMs: 6_000 })(eventA, ctxA).finally(() => {
      aDone = true;
    });
    await expect.poll(() => claimNames(h).size, { timeout: 20_000 }).toBe(1);

    const claimsBefore = claimNames(h).size;
    const b = await provisionHandler(h)(scheduledEvent(h.clock), lambdaContext('provision'));
    expect(b).toEqual({
      outcome: 'held',
      holder: expect.stringMatching(new RegExp(`^${ctxA.awsRequestId}\\.`)),
    });
    expect(aDone).toBe(false);
    expect(claimNames(h).size).toBe(claimsBefore);

    // Still watching: a pod arriving now is batched by the holder.
    h.seed([pod('second', { gpus: 1 })]);
    const resultA = await a;
    await h.invoker.settled();
    expect(resultA).toMatchObject({ outcome: 'ran', leaseLost: false, claimsCreated: 2 });
    expect(h.logger.entries.filter((e) => e.message === 'created NodeClaim')).toEqual([
      expect.objectContaining({
        fields: expect.objectContaining({ requestId: ctxA.awsRequestId, passId: eventA.id }),
      }),
      expect.objectContaining({
        fields: expect.objectContaining({ requestId: ctxA.awsRequestId, passId: eventA.id }),
      }),
    ]);
    for (const e of h.logger.entries.filter((x) => x.message === 'created NodeClaim'))
      expect(claimNames(h).has(String(e.fields.claim))).toBe(true);

    // The same firing delivered again is the same run, refused even though its lease was released.
    expect(await provisionHandler(h)(eventA, lambdaContext('provision'))).toMatchObject({ outcome: 'held' });
    // The next firing runs.
    expect(await provisionHandler(h)(scheduledEvent(h.clock), lambdaContext('provision'))).toMatchObject({
      outcome: 'ran',
      claimsCreated: 0,
    });
  });
});
