// The admit handler against the emulators and DynamoDB Local, fed by the consolidate handler through the
// in-process invoker: an empty node is tainted and recorded as a delete; underutilized GPU nodes on both
// clouds are replaced, their replacements launched through launch-aws and launch-gcp (launch records first);
// a held lock drops the proposals; a malformed or foreign payload is refused naming the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxPayloadAgeMs } from '../../../shared/loop/admit-payload.ts';
import { LOOP_METRICS } from '../../../shared/loop/disruption-metrics.ts';
import { REFUSAL_METRIC } from '../../../shared/loop/refusals.ts';
import { DISRUPTED_TAINT_KEY } from '../../../shared/model/labels.ts';
import {
  admitHandler,
  nodeOf,
  removePod,
  runConsolidate,
  startReplacementHarness,
} from '../../support/e2e/disruption-handlers.ts';
import { lambdaContext, pod, type E2eHarness } from '../../support/e2e/index.ts';
import { bringUp } from '../../support/e2e/steps.ts';

const taintsOf = (h: E2eHarness, node: string) =>
  (
    (h.list('Node').find((n) => n.metadata.name === node)?.spec as { taints?: { key: string }[] })?.taints ??
    []
  ).map((t) => t.key);

describe('admit through its handler', () => {
  let h: E2eHarness;
  beforeAll(async () => {
    h = await startReplacementHarness();
  });
  afterAll(async () => {
    await h?.close();
  });
  const commands = async () => {
    const store = h.store();
    return [
      ...(await store.listCommandsByStatus(h.clusterName, 'launching')),
      ...(await store.listCommandsByStatus(h.clusterName, 'draining')),
    ].sort((a, b) => a.seq - b.seq);
  };

  it('an empty node: tainted, recorded and confirmed as a delete after the settling delay', async () => {
    await bringUp(h, [pod('job', { gpus: 1, nodeSelector: { 'kraftsman.dev/cloud': 'aws' } })]);
    const empty = nodeOf(h, 'job') as string;
    removePod(h, 'job');
    h.clock.advance(5 * 60_000);
    const before = h.clock.now().getTime();
    expect(await runConsolidate(h)).toMatchObject({ outcome: 'ran', handedOff: 1 });
    const [cmd] = await commands();
    expect(cmd).toMatchObject({ candidates: [empty], decision: 'delete', status: 'launching' });
    expect(cmd?.confirmedAt).toBeDefined();
    expect(cmd!.createdAt.getTime() - before).toBeGreaterThanOrEqual(15_000); // settled once first
    expect(taintsOf(h, empty)).toContain(DISRUPTED_TAINT_KEY);
    expect(h.metrics.total(LOOP_METRICS.commandsAdmittedTotal, { decision: 'delete' })).toBe(1);
    expect(h.invoker.records.filter((r) => r.target === 'admit').map((r) => r.outcome)).toEqual([
      'succeeded',
    ]);
  });

  it('underutilized nodes on both clouds: replacements launched through launch-aws and launch-gcp', async () => {
    await bringUp(h, [
      pod('big-aws', { gpus: 4, cpu: '3', nodeSelector: { 'kraftsman.dev/cloud': 'aws' } }),
      pod('big-gcp', { gpus: 2, cpu: '3', nodeSelector: { 'kraftsman.dev/cloud': 'gcp' } }),
    ]);
    const bigAws = nodeOf(h, 'big-aws') as string;
    const bigGcp = nodeOf(h, 'big-gcp') as string;
    removePod(h, 'big-aws');
    removePod(h, 'big-gcp');
    h.seed([
      // The binder puts each on the only node of its cloud with a free GPU (the delete's node is tainted).
      pod('small-aws', { gpus: 1, nodeSelector: { 'kraftsman.dev/cloud': 'aws' } }),
      pod('small-gcp', { gpus: 1, nodeSelector: { 'kraftsman.dev/cloud': 'gcp' } }),
    ]);
    h.bind();
    expect([nodeOf(h, 'small-aws'), nodeOf(h, 'small-gcp')]).toEqual([bigAws, bigGcp]);
    h.clock.advance(5 * 60_000);
    expect(await runConsolidate(h, { maxCommands: 2 })).toMatchObject({ outcome: 'ran', handedOff: 2 });
    const replaces = (await commands()).filter((c) => c.decision === 'replace');
    expect(replaces.map((c) => c.candidates[0]).sort()).toEqual([bigAws, bigGcp].sort());
    const store = h.store();
    for (const c of replaces) {
      expect(c.confirmedAt).toBeDefined();
      expect(c.replacements).toHaveLength(1);
      const launch = await store.getLaunch(h.clusterName, c.replacements[0]!);
      expect(launch).toMatchObject({ status: 'launched', commandId: c.id, fence: 'admission' });
      const claim = h.list('NodeClaim').find((x) => x.metadata.name === c.replacements[0]);
      expect((claim?.status as { providerID?: string }).providerID).toMatch(/^(aws|gce):\/\//);
      expect(taintsOf(h, c.candidates[0]!)).toContain(DISRUPTED_TAINT_KEY);
    }
    const launches = h.invoker.records.filter(
      (r) => r.target.startsWith('launch-') && r.outcome === 'succeeded',
    );
    expect(launches.map((r) => r.target)).toEqual(expect.arrayContaining(['launch-aws', 'launch-gcp']));
    expect(h.metrics.total(LOOP_METRICS.commandsAdmittedTotal, { decision: 'replace' })).toBe(2);
  });

  it('a lock held past the wait drops the proposals and counts them', async () => {
    const store = h.store();
    const lease = await store.acquireLease({
      cluster: h.clusterName,
      name: 'admission',
      owner: 'someone-else.x',
      ttlMs: 60_000,
    });
    const payload = {
      cluster: h.clusterName,
      passId: 'p-1',
      createdAt: h.clock.now().getTime(),
      proposals: [
        { method: 'emptiness', reason: 'Empty', candidates: ['n1'], replacements: [], savingsPerHour: 1 },
      ],
    };
    try {
      expect(await admitHandler(h, { lockWaitMs: 20 })(payload, lambdaContext('admit'))).toEqual({
        outcome: 'held',
        holder: 'someone-else.x',
      });
      expect(h.metrics.total(LOOP_METRICS.admissionFailuresTotal, { stage: 'lock' })).toBe(1);
    } finally {
      await store.releaseLease(lease);
    }
  });

  it('a proposal live state no longer allows is refused at validation; one past the budget expires', async () => {
    const payload = (node: string) => ({
      cluster: h.clusterName,
      passId: 'p-2',
      createdAt: h.clock.now().getTime(),
      proposals: [
        { method: 'emptiness', reason: 'Empty', candidates: [node], replacements: [], savingsPerHour: 1 },
      ],
    });
    const gone = await admitHandler(h)(payload('no-such-node'), lambdaContext('admit'));
    expect(gone).toEqual({
      outcome: 'ran',
      admitted: [],
      rejected: [{ candidates: ['no-such-node'], stage: 'validation' }],
      expired: 0,
    });
    expect(h.metrics.total(LOOP_METRICS.admissionFailuresTotal, { stage: 'validation' })).toBe(1);
    // 40 s left less the 30 s margin: the settling delay alone spends the budget, so nothing is tried.
    const short = { ...lambdaContext('admit'), getRemainingTimeInMillis: () => 40_000 };
    expect(await admitHandler(h)(payload('no-such-node'), short)).toEqual({
      outcome: 'ran',
      admitted: [],
      rejected: [],
      expired: 1,
    });
    expect(h.metrics.total(LOOP_METRICS.admissionFailuresTotal, { stage: 'expired' })).toBe(1);
  });

  it('a payload older than a pass interval plus its admission budget is refused: nothing tainted, counted, logged', async () => {
    await bringUp(h, [pod('stale-job', { gpus: 1, nodeSelector: { 'kraftsman.dev/cloud': 'aws' } })]);
    const empty = nodeOf(h, 'stale-job') as string;
    removePod(h, 'stale-job');
    h.clock.advance(5 * 60_000);
    const before = (await commands()).length;
    const proposals = [
      { method: 'emptiness', reason: 'Empty', candidates: [empty], replacements: [], savingsPerHour: 1 },
    ];
    // Sent by a pass that long ago: it sat in Lambda's async queue (throttled, retried) past its time.
    const createdAt = h.clock.now().getTime() - maxPayloadAgeMs(1, 15_000) - 1_000;
    const payload = { cluster: h.clusterName, passId: 'p-old', createdAt, proposals };
    const out = await admitHandler(h)(payload, lambdaContext('admit'));
    expect(out).toMatchObject({ outcome: 'stale' });
    expect(taintsOf(h, empty)).not.toContain(DISRUPTED_TAINT_KEY);
    expect((await commands()).length).toBe(before);
    expect(h.metrics.total(REFUSAL_METRIC, { action: 'drain', reason: 'stale-payload' })).toBe(1);
    expect(JSON.stringify(h.logger.entries)).toContain('from pass p-old is');
    // The same payload inside the bound (the clock runs with real time: 5 s inside) goes on to admission.
    const inside = { ...payload, createdAt: h.clock.now().getTime() - maxPayloadAgeMs(1, 15_000) + 5_000 };
    expect(await admitHandler(h)(inside, lambdaContext('admit'))).toMatchObject({ outcome: 'ran' });
  });

  it('a malformed payload, or one for another cluster, fails naming the field', async () => {
    const admit = admitHandler(h);
    await expect(
      admit(
        { cluster: h.clusterName, passId: 'p', createdAt: 1, proposals: [{ method: 'nope' }] },
        lambdaContext('admit'),
      ),
    ).rejects.toThrow(/admit payload\.proposals\[0\]\.method: Invalid option/);
    await expect(
      admit({ cluster: h.clusterName, passId: 'p', createdAt: 1, proposals: [] }, lambdaContext('admit')),
    ).rejects.toThrow(/admit payload\.proposals: Too small/);
    const foreign = {
      cluster: 'other',
      passId: 'p',
      createdAt: h.clock.now().getTime(),
      proposals: [
        { method: 'emptiness', reason: 'Empty', candidates: ['n1'], replacements: [], savingsPerHour: 0 },
      ],
    };
    await expect(admit(foreign, lambdaContext('admit'))).rejects.toThrow(/cluster: other is not/);
  });
});
