// Launched claims are capacity (docs/mechanisms/provisioning-demand.md#in-flight-capacity): a NodeClaim launched
// but not registered is an existing node in every later batch — a pod that fits the room its nominated pods leave
// is nominated to it, not given a second claim; a pod that does not fit still gets one. A claim the launcher has
// not answered yet counts with the least its instance types guarantee. Through the provision handler, against
// the Kubernetes and EC2 emulators and DynamoDB Local.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nodePool, pod, startHarness, wireLaunchers, type E2eHarness } from '../../support/e2e/index.ts';
import { claimNames, claimOfPool, providerIdOf, provisionOnce } from '../../support/e2e/steps.ts';

/** One pool, one type: g5.12xlarge (48 vCPU, 4 GPUs) on EC2. */
const BIG = 'g5.12xlarge';

describe('launched claims are capacity', () => {
  let h: E2eHarness;
  beforeEach(async () => {
    h = await startHarness({ objects: [nodePool('aws-big', 'aws', { instanceTypes: [BIG] })] });
    h.registerNodes = false; // launched, never registered: in flight for the whole test
  });
  afterEach(async () => {
    await h?.close();
  });

  const nominationOf = async (podName: string) =>
    (await h.store().loadPassState(h.clusterName)).nominations.get(`default/${podName}`);

  it('a second pod that fits the launched claim’s remaining room is nominated to it, not given a claim', async () => {
    wireLaunchers(h);
    h.seed([pod('first', { cpu: '3' })]);
    expect((await provisionOnce(h)).result).toMatchObject({ claimsCreated: 1 });
    const [claim] = claimOfPool(h, 'aws-big');
    expect(providerIdOf(claim)).toMatch(/^aws:\/\//); // launched; no Node registers
    const name = String(claim?.metadata.name);
    expect(await nominationOf('first')).toMatchObject({ claimName: name });

    h.seed([pod('second', { cpu: '2' })]);
    expect((await provisionOnce(h)).result).toMatchObject({ claimsCreated: 0, unschedulable: 0 });
    expect(claimNames(h)).toEqual(new Set([name]));
    expect(await nominationOf('second')).toMatchObject({ nodeName: name });
  });

  it('the room the nominated pods hold is not handed out twice: a pod past it gets its own claim', async () => {
    wireLaunchers(h);
    h.seed([pod('holds', { cpu: '40' })]);
    expect((await provisionOnce(h)).result).toMatchObject({ claimsCreated: 1 });
    const known = claimNames(h);
    // 48 vCPU less system overhead and the 40 the first pod holds: 10 more do not fit.
    h.seed([pod('past', { cpu: '10' })]);
    expect((await provisionOnce(h)).result).toMatchObject({ claimsCreated: 1 });
    expect(claimNames(h).size).toBe(known.size + 1);
    expect((await nominationOf('past'))?.claimName).toBeDefined();
    expect(known.has(String((await nominationOf('past'))?.claimName))).toBe(false);
  });

  it('a claim the launcher has not answered yet counts with its instance types’ least room', async () => {
    const payloads: unknown[] = [];
    h.invoker.register('launch-aws', (p) => {
      payloads.push(p); // held back: the claim stays unlaunched
      return Promise.resolve(undefined);
    });
    h.seed([pod('early', { cpu: '3' })]);
    expect((await provisionOnce(h)).result).toMatchObject({ claimsCreated: 1 });
    const [claim] = claimOfPool(h, 'aws-big');
    expect(providerIdOf(claim)).toBeUndefined();
    expect(payloads).toHaveLength(1);

    h.seed([pod('late', { cpu: '2' })]);
    expect((await provisionOnce(h)).result).toMatchObject({ claimsCreated: 0, unschedulable: 0 });
    expect(await nominationOf('late')).toMatchObject({ nodeName: String(claim?.metadata.name) });
  });
});
