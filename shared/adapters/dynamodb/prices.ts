// The PriceStore on the state table: a book is chunk items under a version, then one head item naming that
// version, so a reader sees the old book or the new one, never a mix. Layout: README.md in this folder.
import { randomUUID } from 'node:crypto';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { z } from 'zod';
import { DYNAMODB_RETRY } from '../../config/dynamodb.ts';
import {
  CorruptPriceBookError,
  StalePriceBookError,
  parseBookInput,
  parsePriceCluster,
  parseStoredItem,
  priceBookHeadSchema,
  type PriceBook,
  type PriceBookHead,
  type PriceBookInput,
  type PriceRow,
  type PriceStore,
} from '../../ports/price-store.ts';
import { parseInput } from '../../ports/state-store/errors.ts';
import { realSleep } from '../backoff.ts';
import { RoundTripCounter } from './client.ts';
import { DEFAULT_CHUNK_BYTES, packRows, unpackRows } from './price-chunks.ts';
import { Table } from './table.ts';

/*
 * Write timeline (one pricing run; readers at any moment):
 *
 *   writer: BatchWrite V#<v2>#0 … V#<v2>#n ───────────── [HEAD := v2 | NOT_NEWER] ──────────
 *   reader:      GET HEAD → v1 ── BatchGet V#<v1>#* ──   (v1's chunks are never overwritten)
 *   reader:                                                   GET HEAD → v2 ── BatchGet V#<v2>#*
 *
 *   Chunks are immutable and keyed by version, and the head switches in one conditional write, so a crash
 *   before the head leaves orphan chunks (cleaned by ttl) and the last good book in place. Chunks get
 *   `ttl` a week after their read time: readers stop trusting a book long before (shared/loop/prices.ts).
 */
export const PRICE_CONDITIONS = {
  /** An older book (a late retry, a slow run) never replaces a newer one. */
  NOT_NEWER: 'attribute_not_exists(#pk) OR #readAt <= :readAt',
} as const;

const CHUNK_RETENTION_S = 7 * 24 * 3_600;
const pricesPk = (cluster: string): string => `C#${cluster}#PRICES`;
const HEAD_SK = 'HEAD';
const chunkSk = (version: string, i: number): string => `V#${version}#${String(i).padStart(4, '0')}`;

export interface DynamoDbPriceStoreOptions {
  readonly client: DynamoDBClient;
  readonly tableName: string;
  /** Row text per chunk item; tests lower it to force many chunks from a small book. */
  readonly chunkBytes?: number;
}

export class DynamoDbPriceStore implements PriceStore {
  readonly roundTrips = new RoundTripCounter();
  private readonly table: Table;
  private readonly chunkBytes: number;
  constructor(options: DynamoDbPriceStoreOptions) {
    const transport = {
      client: options.client,
      counter: this.roundTrips,
      retry: DYNAMODB_RETRY,
      sleep: realSleep,
      random: Math.random,
    };
    this.table = new Table(
      transport,
      parseInput(z.string().min(3).max(255), options.tableName, 'DynamoDbPriceStore.tableName'),
    );
    this.chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  }

  async head(cluster: string): Promise<PriceBookHead | undefined> {
    const pk = pricesPk(parsePriceCluster(cluster, 'head'));
    const item = await this.table.get({ pk, sk: HEAD_SK });
    return item ? parseHead(item, `${pk}/${HEAD_SK}`) : undefined;
  }

  async read(cluster: string, head: PriceBookHead): Promise<PriceBook> {
    const pk = pricesPk(parsePriceCluster(cluster, 'read'));
    const keys = Array.from({ length: head.chunks }, (_, i) => ({ pk, sk: chunkSk(head.version, i) }));
    const items = new Map((await this.table.batchGet(keys)).map((it) => [String(it.sk), it]));
    const prices: PriceRow[] = [];
    for (const key of keys) {
      const where = `${pk}/${key.sk}`;
      const body = items.get(key.sk)?.body;
      if (typeof body !== 'string')
        throw new CorruptPriceBookError(
          where,
          body === undefined ? 'the item is missing' : 'body is not a string',
        );
      const rows = unpackRows(body);
      if (!rows.ok) throw new CorruptPriceBookError(where, rows.detail);
      prices.push(...rows.rows);
    }
    if (prices.length !== head.rows)
      throw new CorruptPriceBookError(
        `${pk}/${HEAD_SK}`,
        `names ${head.rows} rows, its chunks hold ${prices.length}`,
      );
    return { ...head, prices };
  }

  async write(cluster: string, input: PriceBookInput): Promise<PriceBookHead> {
    const pk = pricesPk(parsePriceCluster(cluster, 'write'));
    const book = parseBookInput(input, `write(${cluster})`);
    const version = `${book.readAt.toString(36)}-${randomUUID().slice(0, 8)}`;
    const bodies = packRows(book.prices, this.chunkBytes);
    const ttl = Math.ceil(book.readAt / 1000) + CHUNK_RETENTION_S;
    await this.table.batchWrite(bodies.map((body, i) => ({ pk, sk: chunkSk(version, i), body, ttl })));
    const head: PriceBookHead = {
      version,
      readAt: book.readAt,
      clouds: [...book.clouds],
      rows: book.prices.length,
      chunks: bodies.length,
    };
    const out = await this.table.update(
      { pk, sk: HEAD_SK },
      {
        update:
          'SET #version = :version, #readAt = :readAt, #clouds = :clouds, #rows = :rows, #chunks = :chunks',
        condition: PRICE_CONDITIONS.NOT_NEWER,
        names: {
          '#pk': 'pk',
          '#version': 'version',
          '#readAt': 'readAt',
          '#clouds': 'clouds',
          '#rows': 'rows',
          '#chunks': 'chunks',
        },
        values: {
          ':version': version,
          ':readAt': head.readAt,
          ':clouds': [...head.clouds],
          ':rows': head.rows,
          ':chunks': head.chunks,
        },
      },
    );
    if (!out.ok) {
      if (!out.old) throw out.cause;
      throw new StalePriceBookError(parseHead(out.old, `${pk}/${HEAD_SK}`), book.readAt);
    }
    return head;
  }
}

const parseHead = (item: Record<string, unknown>, where: string): PriceBookHead =>
  parseStoredItem(priceBookHeadSchema, item, where);
