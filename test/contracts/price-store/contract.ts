// The PriceStore contract: one suite run against the in-memory store, dynalite and DynamoDB Local. A book
// of both clouds' offerings spans several items on DynamoDB; readers see one whole book or another.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CorruptPriceBookError,
  PriceStoreError,
  StalePriceBookError,
  type PriceBook,
  type PriceRow,
  type PriceStore,
} from '../../../shared/ports/price-store.ts';

export interface PriceStoreHarness {
  /** A store over the shared backend, as another container would have. */
  make(): PriceStore;
  /** Overwrites the stored head or the first chunk of the latest book with garbage; returns the item's name. */
  corrupt(cluster: string, what: 'head' | 'chunk'): Promise<string>;
  /** True where a book of this size must span several items (DynamoDB's 400 KB item limit). */
  readonly chunked: boolean;
  close(): Promise<void>;
}

/** Both clouds' offerings at roughly real size: 900 EC2 types × 6 zones and 300 GCE types × 3 zones, two capacity types. */
export function bigBook(seed: number): PriceRow[] {
  const rows: PriceRow[] = [];
  const cloud = (c: 'aws' | 'gcp', types: number, zones: string[]) => {
    for (let t = 0; t < types; t++)
      for (const zone of zones)
        for (const capacityType of ['on-demand', 'spot'] as const)
          rows.push({
            cloud: c,
            instanceType: c === 'aws' ? `m${t % 9}x.${t}xlarge` : `n${t % 4}-standard-${t}`,
            zone,
            capacityType,
            price: Math.round((t + 1) * (capacityType === 'spot' ? 0.31 : 1) * (1 + seed / 1000) * 1e6) / 1e6,
          });
  };
  cloud('aws', 900, ['us-east-1a', 'us-east-1b', 'us-east-1c', 'us-east-1d', 'us-east-1e', 'us-east-1f']);
  cloud('gcp', 300, ['us-central1-a', 'us-central1-b', 'us-central1-c']);
  return rows;
}

let clusters = 0;

export function priceStoreContract(name: string, open: () => Promise<PriceStoreHarness>): void {
  describe(`PriceStore contract (${name})`, () => {
    let h: PriceStoreHarness;
    let store: PriceStore;
    let cluster: string;
    beforeAll(async () => {
      h = await open();
    });
    afterAll(async () => {
      await h?.close();
    });
    beforeEach(() => {
      store = h.make();
      cluster = `p${process.pid}-${++clusters}-${Date.now().toString(36)}`;
    });
    const latest = async (s: PriceStore): Promise<PriceBook | undefined> => {
      const head = await s.head(cluster);
      return head ? s.read(cluster, head) : undefined;
    };

    it('has no book for a cluster nothing priced', async () => {
      expect(await store.head(cluster)).toBeUndefined();
    });

    it('stores a book of both clouds whole and reads it back row for row', async () => {
      const prices = bigBook(1);
      const head = await store.write(cluster, { readAt: 1_000, clouds: ['aws', 'gcp'], prices });
      expect(head).toMatchObject({ readAt: 1_000, clouds: ['aws', 'gcp'], rows: prices.length });
      if (h.chunked) expect(head.chunks).toBeGreaterThan(1);
      const book = await latest(h.make());
      expect(book?.version).toBe(head.version);
      expect(book?.prices).toEqual(prices);
    });

    it('makes a newer book the latest and refuses an older one, keeping the newer', async () => {
      await store.write(cluster, { readAt: 1_000, clouds: ['aws'], prices: bigBook(1).slice(0, 10) });
      const newer = await store.write(cluster, {
        readAt: 2_000,
        clouds: ['aws'],
        prices: bigBook(2).slice(0, 10),
      });
      await expect(
        store.write(cluster, { readAt: 1_500, clouds: ['aws'], prices: bigBook(3).slice(0, 10) }),
      ).rejects.toBeInstanceOf(StalePriceBookError);
      const book = await latest(store);
      expect(book?.version).toBe(newer.version);
      expect(book?.prices).toEqual(bigBook(2).slice(0, 10));
    });

    it('lets a reader during a write see the old book or the new one, never a mix', async () => {
      const oldRows = bigBook(1);
      const newRows = bigBook(2);
      const old = await store.write(cluster, { readAt: 1_000, clouds: ['aws', 'gcp'], prices: oldRows });
      const reader = h.make();
      let done = false;
      const writing = store
        .write(cluster, { readAt: 2_000, clouds: ['aws', 'gcp'], prices: newRows })
        .finally(() => (done = true));
      const seen: string[] = [];
      while (!done) {
        const book = await latest(reader);
        seen.push(book?.version ?? 'none');
        expect(book?.prices).toEqual(book?.version === old.version ? oldRows : newRows);
      }
      const fresh = await writing;
      expect(seen[0]).toBe(old.version);
      expect((await latest(reader))?.prices).toEqual(newRows);
      expect(fresh.version).not.toBe(old.version);
    });

    it('names the item when the stored head is unreadable', async () => {
      await store.write(cluster, { readAt: 1_000, clouds: ['aws'], prices: bigBook(1).slice(0, 5) });
      const item = await h.corrupt(cluster, 'head');
      const error = await store.head(cluster).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CorruptPriceBookError);
      expect((error as CorruptPriceBookError).item).toBe(item);
      expect(String(error)).toContain(item);
      expect(String(error)).toContain('readAt');
    });

    it('names the item when a stored chunk is unreadable', async () => {
      await store.write(cluster, { readAt: 1_000, clouds: ['aws'], prices: bigBook(1).slice(0, 5) });
      const item = await h.corrupt(cluster, 'chunk');
      const head = await store.head(cluster);
      const error = await store.read(cluster, head!).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CorruptPriceBookError);
      expect((error as CorruptPriceBookError).item).toBe(item);
    });

    it('refuses a bad cluster name on every call, naming the method', async () => {
      const book = { readAt: 1, clouds: ['aws' as const], prices: bigBook(1).slice(0, 1) };
      const head = { version: 'v', readAt: 1, clouds: ['aws' as const], rows: 1, chunks: 1 };
      await expect(store.head('bad#cluster')).rejects.toThrow(/head\.cluster/);
      await expect(store.read('bad#cluster', head)).rejects.toThrow(/read\.cluster/);
      await expect(store.write('bad#cluster', book)).rejects.toThrow(/write\.cluster/);
    });

    it('refuses a book with a bad row before writing anything, naming the row and field', async () => {
      const prices = bigBook(1).slice(0, 4);
      const bad = [...prices.slice(0, 3), { ...prices[3]!, price: -1 }];
      const error = await store
        .write(cluster, { readAt: 1, clouds: ['aws'], prices: bad })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PriceStoreError);
      expect(String(error)).toContain('prices[3].price');
      expect(await store.head(cluster)).toBeUndefined();
    });
  });
}
