// The pricing function through its handler against the EC2 and GCE emulators and DynamoDB Local: both clouds'
// prices are stored as one book; consolidate decides with the stored spot price (a spot price change in the
// emulator changes its decision only once pricing has run); with no book the catalog prices, counted; a cloud
// that fails leaves the last good book; a malformed event is refused naming its field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Closer, buildInstanceTypes, buildPriceStore } from '../../../functions/compose/index.ts';
import { buildEc2PriceSource, buildGcePriceSourceFrom } from '../../../functions/compose/price-sources.ts';
import type { ConsolidateHandlerDeps } from '../../../functions/consolidate/deps.ts';
import { createConsolidateHandler } from '../../../functions/consolidate/handler.ts';
import { createPricingHandler } from '../../../functions/pricing/handler.ts';
import type { PricingHandlerDeps } from '../../../functions/pricing/deps.ts';
import { parseAdmitPayload } from '../../../shared/loop/admit-payload.ts';
import { LOOP_METRICS } from '../../../shared/loop/disruption-metrics.ts';
import { passOptions } from '../../../shared/disruption/types.ts';
import type { DynamoDbPriceStore } from '../../../shared/adapters/dynamodb/prices.ts';
import { LOCAL_CREDENTIALS } from '../../support/dynamodb/credentials.ts';
import { fakeGoogleAuth } from '../../support/e2e/harness.ts';
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

const TYPE = 'g5.xlarge';

describe('pricing through its handler', () => {
  let h: E2eHarness;
  let prices: DynamoDbPriceStore;
  const closer = new Closer();
  const handedOff: unknown[] = [];
  const setSpot = (usd: number) => {
    const t = h.ec2.world.types.get(TYPE)!;
    h.ec2.world.types.set(TYPE, { ...t, spotPrice: usd });
  };
  const onDemand = () => h.ec2.world.types.get(TYPE)!.onDemandPrice;

  beforeAll(async () => {
    h = await startHarness({
      objects: [nodePool('aws-gpu', 'aws', { instanceTypes: [TYPE] })],
    });
    prices = buildPriceStore(h.settings.store, LOCAL_CREDENTIALS, closer);
    wireLaunchers(h);
    setSpot(onDemand() * 2);
    // The node launches on-demand; then its NodePool allows spot too, so replacing it with spot is a move.
    await bringUp(h, [pod('keep', { gpus: 1, replicaSet: 'keep' })]);
    expect(
      h
        .list('Node')
        .map(
          (n) => (n.metadata.labels as Record<string, string> | undefined)?.['karpenter.sh/capacity-type'],
        ),
    ).toEqual(['on-demand']);
    const pools = h.kube.typeOf('NodePool');
    const current = h.kube.store.get(pools, undefined, 'aws-gpu');
    const both = nodePool('aws-gpu', 'aws', { instanceTypes: [TYPE], capacityTypes: ['on-demand', 'spot'] });
    h.kube.store.update(pools, undefined, 'aws-gpu', { ...current, spec: both.spec }, undefined);
    h.clock.advance(5 * 60_000); // past consolidateAfter
    h.invoker.register('admit', async (p) => void handedOff.push(p));
  });
  afterAll(async () => {
    await closer.close();
    await h?.close();
  });

  const pricingDeps = (): PricingHandlerDeps => ({
    loop: {
      sources: [
        buildEc2PriceSource(h.settings.ec2, h.clock, LOCAL_CREDENTIALS, closer),
        buildGcePriceSourceFrom(h.settings.gce, fakeGoogleAuth(), closer),
      ],
      store: prices,
      clock: h.clock,
      logger: h.logger,
      metrics: h.metrics,
    },
    settings: { clusterName: h.clusterName },
    obs: { logger: h.logger, metrics: h.metrics },
  });
  const runPricing = (event: unknown = scheduledEvent(h.clock)) =>
    createPricingHandler(() => Promise.resolve(pricingDeps()))(event, lambdaContext('pricing'));

  /** A fresh consolidate container whose instance types come from the one compose builder. */
  const runConsolidate = async () => {
    handedOff.length = 0;
    const types = buildInstanceTypes({
      clusterName: h.clusterName,
      providers: { aws: h.ec2Provider(), gcp: h.gceProvider() },
      prices,
      ttlMs: 24 * 3_600_000,
      clock: h.clock,
      metrics: h.metrics,
      logger: h.logger,
    });
    const deps: ConsolidateHandlerDeps = {
      loop: {
        cluster: h.cluster(),
        store: h.store(),
        invoker: h.invoker,
        instanceTypes: types.forPools,
        clock: h.clock,
        nonce: () => `n${Math.random().toString(36).slice(2)}`,
        metrics: h.metrics,
      },
      settings: { clusterName: h.clusterName, options: passOptions({}), leaseTtlMs: undefined },
      obs: { logger: h.logger, metrics: h.metrics },
    };
    h.clock.advance(60_000);
    const r = await createConsolidateHandler(() => Promise.resolve(deps))(
      scheduledEvent(h.clock),
      lambdaContext('consolidate'),
    );
    await h.invoker.settled();
    return { r, proposals: handedOff.flatMap((p) => parseAdmitPayload(p).proposals) };
  };
  const fallbacks = (reason: string) =>
    h.metrics.total(LOOP_METRICS.pricingFallbackTotal, { cloud: 'aws', reason });

  it('with no stored book, a pass prices from the catalog and counts the fallback', async () => {
    expect(await prices.head(h.clusterName)).toBeUndefined();
    const before = fallbacks('no-book');
    await runConsolidate();
    expect(fallbacks('no-book')).toBeGreaterThan(before);
  });

  it("stores both clouds' on-demand and spot prices as one book", async () => {
    const r = await runPricing();
    expect(r.outcome).toBe('stored');
    const head = await prices.head(h.clusterName);
    expect(head?.clouds).toEqual(['aws', 'gcp']);
    const book = await prices.read(h.clusterName, head!);
    const row = (cloud: string, type: string, ct: string) =>
      book.prices.find((p) => p.cloud === cloud && p.instanceType === type && p.capacityType === ct);
    expect(row('aws', TYPE, 'spot')?.price).toBeCloseTo(onDemand() * 2, 6);
    expect(row('aws', TYPE, 'on-demand')?.price).toBeCloseTo(onDemand(), 6);
    expect(row('gcp', 'g2-standard-4', 'on-demand')?.price).toBeGreaterThan(0);
    expect(row('gcp', 'g2-standard-4', 'spot')?.price).toBeGreaterThan(0);
    expect(new Set(book.prices.map((p) => p.zone))).toEqual(
      new Set([...h.settings.gce.zones, 'us-east-1a', 'us-east-1b']),
    );
  });

  it('consolidate decides with the stored spot price: a cheaper emulator price counts only once stored', async () => {
    const fallbacksBefore = fallbacks('no-book');
    expect((await runConsolidate()).proposals).toEqual([]);
    setSpot(onDemand() * 0.3);
    // The price APIs now say spot is cheap, but passes read the stored book: still nothing to do.
    expect((await runConsolidate()).proposals).toEqual([]);
    expect((await runPricing()).outcome).toBe('stored');
    // A price change does not re-arm the consolidated state (Karpenter's cluster state cannot see it either);
    // its five-minute timeout does (docs/mechanisms/consolidated-state.md).
    h.clock.advance(5 * 60_000);
    const { proposals } = await runConsolidate();
    expect(proposals).toHaveLength(1);
    expect(proposals[0]!.candidates).toHaveLength(1);
    expect(proposals[0]!.replacements).toMatchObject([
      { instanceTypes: [TYPE], capacityType: 'spot', price: expect.closeTo(onDemand() * 0.3, 6) },
    ]);
    expect(proposals[0]!.savingsPerHour).toBeCloseTo(onDemand() * 0.7, 3);
    expect(fallbacks('no-book')).toBe(fallbacksBefore);
  });

  it('a cloud call that fails names the cloud and the call and keeps the last good book', async () => {
    const before = await prices.head(h.clusterName);
    h.ec2.world.faults.failNext.DescribeSpotPriceHistory = {
      code: 'UnauthorizedOperation',
      message: 'You are not authorized to perform this operation.',
      status: 403,
    };
    await expect(runPricing()).rejects.toThrow(
      /aws DescribeSpotPriceHistory failed: .*UnauthorizedOperation/,
    );
    expect(await prices.head(h.clusterName)).toEqual(before);
  });

  it('refuses a malformed event naming the field', async () => {
    const event = { ...scheduledEvent(h.clock), 'detail-type': 42 };
    await expect(runPricing(event)).rejects.toThrow(/pricing event.*detail-type/);
  });
});
