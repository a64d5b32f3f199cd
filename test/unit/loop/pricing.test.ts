// The pricing use case over the in-memory store: every source's rows stored as one book; a source that fails
// or prices nothing fails the run, naming each, with nothing written; an older run is superseded, not stored.
import { describe, expect, it } from 'vitest';
import { MemoryPriceStore } from '../../../shared/adapters/memory/prices.ts';
import { PricingError, pricing } from '../../../shared/loop/pricing.ts';
import { PriceReadError, type PriceRow, type PriceSource } from '../../../shared/ports/price-store.ts';
import { ManualClock } from '../../fakes/manual-clock.ts';
import { MemoryLogger } from '../../fakes/memory-logger.ts';
import { RecordingMetrics } from '../../fakes/recording-metrics.ts';

const row = (cloud: 'aws' | 'gcp', price: number): PriceRow => ({
  cloud,
  instanceType: cloud === 'aws' ? 'm5.large' : 'n2-standard-2',
  zone: cloud === 'aws' ? 'us-east-1a' : 'us-central1-a',
  capacityType: 'spot',
  price,
});
const source = (cloud: 'aws' | 'gcp', rows: () => Promise<PriceRow[]>): PriceSource => ({
  cloud,
  prices: rows,
});

function deps(sources: PriceSource[], store = new MemoryPriceStore(), clock = new ManualClock()) {
  return { sources, store, clock, logger: new MemoryLogger(), metrics: new RecordingMetrics() };
}

describe('pricing', () => {
  it("stores both clouds' rows as one book and reports the rows per cloud", async () => {
    const d = deps([
      source('aws', async () => [row('aws', 0.1)]),
      source('gcp', async () => [row('gcp', 0.2)]),
    ]);
    const r = await pricing(d, { cluster: 'c1' });
    expect(r).toMatchObject({ outcome: 'stored', rows: { aws: 1, gcp: 1 } });
    const head = await d.store.head('c1');
    expect((await d.store.read('c1', head!)).prices).toEqual([row('aws', 0.1), row('gcp', 0.2)]);
  });

  it('fails naming every cloud that could not be priced, and keeps the stored book', async () => {
    const d = deps([source('aws', async () => [row('aws', 0.1)])]);
    await pricing(d, { cluster: 'c1' });
    const kept = await d.store.head('c1');
    const failing = deps(
      [
        source('aws', () =>
          Promise.reject(new PriceReadError('aws', 'GetProducts', { cause: new Error('denied') })),
        ),
        source('gcp', async () => []),
      ],
      d.store,
    );
    const error = await pricing(failing, { cluster: 'c1' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PricingError);
    expect(String(error)).toContain('aws GetProducts failed: Error: denied');
    expect(String(error)).toContain('gcp priced no offering');
    expect(await d.store.head('c1')).toEqual(kept);
  });

  it('an overlapping run that read its prices earlier is superseded by the newer book', async () => {
    const clock = new ManualClock();
    const store = new MemoryPriceStore();
    let release: () => void = () => {};
    const slow = deps(
      [source('aws', () => new Promise((r) => (release = () => r([row('aws', 1)]))))],
      store,
      clock,
    );
    const running = pricing(slow, { cluster: 'c1' });
    clock.advance(60_000);
    const fast = await pricing(deps([source('aws', async () => [row('aws', 2)])], store, clock), {
      cluster: 'c1',
    });
    release();
    expect(await running).toEqual({
      outcome: 'superseded',
      current: fast.outcome === 'stored' ? fast.version : '',
    });
  });
});
