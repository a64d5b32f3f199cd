// The stored price book over the catalog: the book's prices where it has them, the catalog's otherwise, and
// every fall-back to the catalog counted by cloud and reason (no book, too old, unreadable, cloud missing).
import { describe, expect, it } from 'vitest';
import { MemoryPriceStore } from '../../../shared/adapters/memory/prices.ts';
import { builtinCatalog } from '../../../shared/catalog/builtin.ts';
import { LOOP_METRICS } from '../../../shared/loop/disruption-metrics.ts';
import { PRICE_BOOK_MAX_AGE_MS, StoredPrices, catalogLookup } from '../../../shared/loop/prices.ts';
import { PricedInstanceTypes } from '../../../shared/loop/priced-instance-types.ts';
import type { NodeClass } from '../../../shared/model/nodeclass.ts';
import type { InstanceTypeReadOptions } from '../../../shared/ports/price-store.ts';
import { ec2NodeClass } from '../../support/e2e/fixtures.ts';
import { ManualClock } from '../../fakes/manual-clock.ts';
import { RecordingMetrics } from '../../fakes/recording-metrics.ts';

// Two regions are enough here, and spare each test the whole world's offerings.
const catalog = builtinCatalog(new Set(['us-east-1', 'us-central1']));
const aws = catalog.instanceTypes.find(
  (t) => t.cloud === 'aws' && t.offerings.some((o) => o.capacityType === 'spot'),
)!;
const zone = aws.offerings[0]!.zone;

function setup() {
  const store = new MemoryPriceStore();
  const clock = new ManualClock();
  const metrics = new RecordingMetrics();
  const prices = new StoredPrices({ store, clusterName: 'c1', catalog, clock, metrics, recheckMs: 0 });
  const fallbacks = (reason: string, cloud = 'aws') =>
    metrics.total(LOOP_METRICS.pricingFallbackTotal, { cloud, reason });
  return { store, clock, metrics, prices, fallbacks };
}

describe('stored prices over the catalog', () => {
  it('prices from the catalog and counts no-book when nothing was stored', async () => {
    const { prices, fallbacks } = setup();
    const lookup = await prices.lookup('aws');
    expect(lookup.spot(aws.name, zone)).toBe(catalogLookup(catalog, 'aws').spot(aws.name, zone));
    expect(fallbacks('no-book')).toBe(1);
  });

  it("uses the book's price where it has one and the catalog's for a type it lacks", async () => {
    const { store, clock, prices, fallbacks } = setup();
    await store.write('c1', {
      readAt: clock.now().getTime(),
      clouds: ['aws'],
      prices: [{ cloud: 'aws', instanceType: aws.name, zone, capacityType: 'spot', price: 0.0123 }],
    });
    const lookup = await prices.lookup('aws');
    expect(lookup.spot(aws.name, zone)).toBe(0.0123);
    const other = catalog.instanceTypes.find((t) => t.cloud === 'aws' && t.name !== aws.name)!;
    const od = other.offerings.find((o) => o.capacityType === 'on-demand')!;
    expect(lookup.onDemand(other.name, od.zone)).toBe(od.price);
    expect(fallbacks('no-book') + fallbacks('too-old')).toBe(0);
    // The book prices AWS only: GCE falls back, and says why.
    await prices.lookup('gcp');
    expect(fallbacks('cloud-missing', 'gcp')).toBe(1);
  });

  it('stops trusting a book older than the maximum age, and a new version changes the version', async () => {
    const { store, clock, prices, fallbacks } = setup();
    const row = {
      cloud: 'aws' as const,
      instanceType: aws.name,
      zone,
      capacityType: 'spot' as const,
      price: 0.5,
    };
    await store.write('c1', { readAt: clock.now().getTime(), clouds: ['aws'], prices: [row] });
    const first = await prices.version();
    clock.advance(PRICE_BOOK_MAX_AGE_MS + 1);
    expect((await prices.lookup('aws')).spot(aws.name, zone)).not.toBe(0.5);
    expect(fallbacks('too-old')).toBe(1);
    await store.write('c1', {
      readAt: clock.now().getTime(),
      clouds: ['aws'],
      prices: [{ ...row, price: 0.25 }],
    });
    expect(await prices.version()).not.toBe(first);
    expect((await prices.lookup('aws')).spot(aws.name, zone)).toBe(0.25);
  });

  it('prices from the catalog when the stored book is unreadable, counting it', async () => {
    const { store, prices, fallbacks } = setup();
    store.data.set('c1/HEAD', { version: 'v', readAt: 'soon' });
    expect((await prices.lookup('aws')).onDemand(aws.name, zone)).toBe(
      catalogLookup(catalog, 'aws').onDemand(aws.name, zone),
    );
    expect(fallbacks('unreadable')).toBe(1);
  });
});

describe('instance types priced from the stored book', () => {
  it('prices a provider read with the book, and reads again when a new book is stored', async () => {
    const { store, clock, prices } = setup();
    const reads: number[] = [];
    const provider = {
      instanceTypes: async (_nc: unknown, o?: InstanceTypeReadOptions) => {
        const lookup = await o!.prices!();
        reads.push(lookup.spot(aws.name, zone) ?? -1);
        return [aws];
      },
    };
    const types = new PricedInstanceTypes({ aws: provider }, prices, clock, 3_600_000);
    const nc = ec2NodeClass() as unknown as NodeClass;
    const write = (price: number) =>
      store.write('c1', {
        readAt: clock.now().getTime(),
        clouds: ['aws'],
        prices: [{ cloud: 'aws', instanceType: aws.name, zone, capacityType: 'spot', price }],
      });
    await write(0.5);
    await types.get('aws', nc);
    await types.get('aws', nc);
    expect(reads).toEqual([0.5]);
    clock.advance(1_000);
    await write(0.25);
    await types.get('aws', nc);
    expect(reads).toEqual([0.5, 0.25]);
    expect(await types.get('gcp', nc)).toBeUndefined();
  });
});
