// The in-memory PriceStore (pure tests, the local fleet without DynamoDB): the same head-then-book semantics
// as the DynamoDB adapter, with the stored values parsed on read so bad data is reported as there.
import { z } from 'zod';
import {
  CorruptPriceBookError,
  StalePriceBookError,
  parseBookInput,
  parsePriceCluster,
  parseStoredItem,
  priceBookHeadSchema,
  priceRowSchema,
  type PriceBook,
  type PriceBookHead,
  type PriceBookInput,
  type PriceStore,
} from '../../ports/price-store.ts';

/** Items by key (`<cluster>/HEAD`, `<cluster>/V#<version>`), shared by the stores of one "table". */
export type MemoryPriceData = Map<string, unknown>;

export class MemoryPriceStore implements PriceStore {
  private versions = 0;
  constructor(readonly data: MemoryPriceData = new Map()) {}

  async head(cluster: string): Promise<PriceBookHead | undefined> {
    const key = `${parsePriceCluster(cluster, 'head')}/HEAD`;
    const raw = this.data.get(key);
    return raw === undefined ? undefined : parseStoredItem(priceBookHeadSchema, raw, key);
  }

  async read(cluster: string, head: PriceBookHead): Promise<PriceBook> {
    const key = `${parsePriceCluster(cluster, 'read')}/V#${head.version}`;
    const raw = this.data.get(key);
    if (raw === undefined) throw new CorruptPriceBookError(key, 'the item is missing');
    return { ...head, prices: parseStoredItem(z.array(priceRowSchema), raw, key) };
  }

  async write(cluster: string, input: PriceBookInput): Promise<PriceBookHead> {
    parsePriceCluster(cluster, 'write');
    const book = parseBookInput(input, `write(${cluster})`);
    const current = await this.head(cluster);
    if (current && current.readAt > book.readAt) throw new StalePriceBookError(current, book.readAt);
    const version = `${book.readAt.toString(36)}-m${++this.versions}`;
    this.data.set(
      `${cluster}/V#${version}`,
      book.prices.map((r) => ({ ...r })),
    );
    const head = {
      version,
      readAt: book.readAt,
      clouds: [...book.clouds],
      rows: book.prices.length,
      chunks: 1,
    };
    this.data.set(`${cluster}/HEAD`, head);
    return head;
  }
}
