// One instance per claim on Compute Engine, whatever the deliveries (docs/mechanisms/identity.md#one-instance-per-claim),
// through the launch-gcp and lifecycle handlers against the emulators and DynamoDB Local: a first delivery whose
// first zone is refused at once launches in the second zone and times out waiting (Lambda retries the invoke); the
// retry, reading an aggregated list that does not show that VM yet, must not launch a second in the first zone.
// And a duplicate that got through anyway is terminated by garbage collection, the claim's own instance kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settle } from '../../../local/gce/instances.ts';
import { buildGceProvider } from '../../../functions/compose/gce.ts';
import { Closer } from '../../../functions/compose/local.ts';
import { DUPLICATE_INSTANCES_METRIC } from '../../../shared/loop/duplicate-instances.ts';
import {
  GCE_ZONES,
  fakeGoogleAuth,
  lambdaContext,
  launchHandler,
  nodePool,
  pod,
  startHarness,
  type E2eHarness,
} from '../../support/e2e/index.ts';
import { gceRunning } from '../../support/e2e/identity.ts';
import { lifecycleOnce, providerIdOf, provisionOnce } from '../../support/e2e/steps.ts';
import { placeGceInstance } from '../../support/placed-instances.ts';

const MIN = 60_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('one Compute Engine instance per claim', () => {
  let h: E2eHarness;
  const closer = new Closer();
  beforeAll(async () => {
    h = await startHarness({
      registerNodes: false,
      objects: [
        nodePool('gcp-gpu', 'gcp', { instanceTypes: ['g2-standard-4'], capacityTypes: ['on-demand'] }),
      ],
    });
  });
  afterAll(async () => {
    await closer.close();
    await h?.close();
  });

  const claimNamed = (name: string) => h.list('NodeClaim').find((c) => c.metadata.name === name);
  const live = () => h.gce.world.live().map((i) => `gce://${h.gce.world.project}/${i.zone}/${i.name}`);

  it('a retried launch delivery adopts the first delivery’s VM in another zone instead of launching a second', async () => {
    const payloads: unknown[] = [];
    h.invoker.register('launch-gcp', async (p) => void payloads.push(p));
    h.seed([pod('twice-delivered', { gpus: 1, nodeSelector: { 'karpenter.sh/nodepool': 'gcp-gpu' } })]);
    await provisionOnce(h);
    const [payload] = payloads;
    const claim = (payload as { claims: string[] }).claims[0] ?? '';

    // Delivery 1: its first zone answers 403 quota at once, the second zone's insert is slow and the invocation
    // gives up waiting on it (a retryable failure: Lambda will deliver the payload again).
    const w = h.gce.world;
    w.faults.quotaNext = { metric: 'NVIDIA_L4_GPUS', limit: 0 };
    // Longer than one operations.wait answer (the emulator's, like Compute Engine's, returns RUNNING after a while).
    w.faults.operationDelayMs = 2_500;
    w.faults.unlistedLists = 10; // the aggregated list lags; a GET by name does not
    const impatient = buildGceProvider(
      { ...h.settings.gce, operationTimeoutMs: 20 },
      h.clock,
      h.logger,
      fakeGoogleAuth(),
      closer,
      undefined,
      h.deployment,
    );
    await expect(launchHandler(h, 'gcp', impatient)(payload, lambdaContext('launch-gcp'))).rejects.toThrow(
      /still RUNNING/,
    );
    for (let i = 0; i < 250 && w.live().length === 0; i++) {
      await sleep(20);
      settle(w);
    }
    const [first] = live();
    expect(first).toBeDefined();
    w.faults.operationDelayMs = 0;

    // Delivery 2, Lambda's retry of the same payload: the first zone would take it now.
    await launchHandler(h, 'gcp')(payload, lambdaContext('launch-gcp'));

    expect(live()).toEqual([first]);
    expect(providerIdOf(claimNamed(claim))).toBe(first);
    expect(await h.store().getLaunch(h.clusterName, claim)).toMatchObject({
      status: 'launched',
      providerId: first,
    });
  });

  it('garbage collection terminates a duplicate of a claim’s instance and keeps the one its status names', async () => {
    const w = h.gce.world;
    w.faults.unlistedLists = 0;
    for (const i of w.instances.values()) delete i.unlisted;
    const claim = h.list('NodeClaim')[0];
    const kept = providerIdOf(claim) ?? '';
    const [, , , zone = '', name = ''] = kept.split('/');
    const otherZone = GCE_ZONES.find((z) => z !== zone) ?? '';
    // What a second delivery racing the first would have left: the claim's name, labels and metadata, other zone.
    placeGceInstance(w, {
      zone: otherZone,
      name,
      claim: String(claim?.metadata.name),
      labels: {
        'kraftsman-cluster': h.clusterName,
        'kraftsman-deployment': await h.deployment(),
        'kraftsman-nodepool': 'gcp-gpu',
        'kraftsman-nodeclaim': String(claim?.metadata.name),
      },
    });
    h.clock.advance(2 * MIN);

    await lifecycleOnce(h);

    expect(gceRunning(w, zone, name)).toBe(true);
    expect(gceRunning(w, otherZone, name)).toBe(false);
    expect(h.metrics.total(DUPLICATE_INSTANCES_METRIC, { cloud: 'gcp' })).toBe(1);
    expect(providerIdOf(h.list('NodeClaim')[0])).toBe(kept);
  });
});
