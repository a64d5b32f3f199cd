// The PriceStore port: the cluster's latest price book (both clouds' on-demand and spot $/h per instance type
// and zone), written whole by the pricing function and read by every pass (docs/functions/pricing.md).
import { z } from 'zod';
import { CLOUDS, type Cloud } from '../model/labels.ts';
import { formatZodIssues } from '../model/zod-issues.ts';
import { parseInput } from './state-store/errors.ts';
import { storeName } from './state-store/records.ts';

export const PRICED_CAPACITY_TYPES = ['on-demand', 'spot'] as const;
export type PricedCapacityType = (typeof PRICED_CAPACITY_TYPES)[number];

export const priceRowSchema = z.object({
  cloud: z.enum(CLOUDS),
  instanceType: z.string().min(1),
  zone: z.string().min(1),
  capacityType: z.enum(PRICED_CAPACITY_TYPES),
  price: z.number().finite().nonnegative(),
});
export type PriceRow = z.infer<typeof priceRowSchema>;

export const priceBookInputSchema = z.object({
  /** When the prices were read (ms since the epoch); readers judge the book's age by it. */
  readAt: z.number().int().nonnegative(),
  /** The clouds this book prices: a cloud listed here with no row for a type means "not offered". */
  clouds: z.array(z.enum(CLOUDS)).min(1),
  prices: z.array(priceRowSchema),
});
export type PriceBookInput = z.infer<typeof priceBookInputSchema>;

/** What the head item says about the stored book: enough to decide whether to read the rest. */
export interface PriceBookHead {
  readonly version: string;
  readonly readAt: number;
  readonly clouds: readonly Cloud[];
  readonly rows: number;
  readonly chunks: number;
}
/** The head item as every adapter reads it back. */
export const priceBookHeadSchema = z.object({
  version: z.string().min(1),
  readAt: z.number().int().nonnegative(),
  clouds: z.array(z.enum(CLOUDS)),
  rows: z.number().int().nonnegative(),
  chunks: z.number().int().positive(),
});

export interface PriceBook extends PriceBookHead {
  readonly prices: readonly PriceRow[];
}

export interface PriceStore {
  /** The head of the latest complete book, one small read; undefined when none was ever written. */
  head(cluster: string): Promise<PriceBookHead | undefined>;
  /** The book `head` names, whole; a book written since does not mix in. */
  read(cluster: string, head: PriceBookHead): Promise<PriceBook>;
  /** Stores a complete book and only then makes it the latest; an older `readAt` never replaces a newer one. */
  write(cluster: string, book: PriceBookInput): Promise<PriceBookHead>;
}

export class PriceStoreError extends Error {
  override readonly name: string = 'PriceStoreError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
/** Stored data that does not parse: `item` names the item (its key) so an operator can find it. */
export class CorruptPriceBookError extends PriceStoreError {
  override readonly name = 'CorruptPriceBookError';
  constructor(
    readonly item: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`stored price book item ${item} is unreadable: ${detail}`, options);
  }
}
/** A book that is older than the latest one stored: it was not made the latest. */
export class StalePriceBookError extends PriceStoreError {
  override readonly name = 'StalePriceBookError';
  constructor(
    readonly current: PriceBookHead,
    readAt: number,
  ) {
    super(
      `price book read at ${new Date(readAt).toISOString()} is older than the stored ${current.version} (read at ${new Date(current.readAt).toISOString()})`,
    );
  }
}

/**
 * A cluster name, checked before any read or write as the state table's keys are (the DynamoDB price store
 * lives on that table): InvalidStateInputError naming the method.
 */
export const parsePriceCluster = (cluster: string, method: 'head' | 'read' | 'write'): string =>
  parseInput(storeName, cluster, `${method}.cluster`);

/** Validates a book before any write: a bad row names its index and field. */
export function parseBookInput(book: unknown, where: string): PriceBookInput {
  const parsed = priceBookInputSchema.safeParse(book);
  if (!parsed.success)
    throw new PriceStoreError(`invalid price book for ${where}: ${formatZodIssues(parsed.error)}`);
  return parsed.data;
}

/** Parses an item the store read back: CorruptPriceBookError names the item and each bad field. */
export function parseStoredItem<T>(schema: z.ZodType<T>, raw: unknown, item: string): T {
  const parsed = schema.safeParse(raw);
  if (!parsed.success)
    throw new CorruptPriceBookError(
      item,
      parsed.error.issues.map((i) => `${i.path.join('.') || '(item)'}: ${i.message}`).join('; '),
    );
  return parsed.data;
}

/** $/h of one cloud's offerings, as the providers price instance types; undefined: no price, not offered. */
export interface PriceLookup {
  onDemand(instanceType: string, zone: string): number | undefined;
  spot(instanceType: string, zone: string): number | undefined;
}

/** Where a provider's instance-type read takes its prices from instead of the cloud's price APIs. */
export interface InstanceTypeReadOptions {
  readonly prices?: () => Promise<PriceLookup>;
}

/** One cloud's current prices, read from its price APIs by the pricing function. */
export interface PriceSource {
  readonly cloud: Cloud;
  prices(): Promise<PriceRow[]>;
}

/** A price API call that failed: names the cloud and the call, keeps the SDK error as `cause`. */
export class PriceReadError extends Error {
  override readonly name = 'PriceReadError';
  constructor(
    readonly cloud: Cloud,
    readonly call: string,
    options?: { cause?: unknown },
  ) {
    const cause = options?.cause;
    super(
      `${cloud} ${call} failed: ${cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause)}`,
      options,
    );
  }
}
