// Single-table operations the adapter is built from: consistent get, conditional update/put that report the
// winning item (ALL_OLD, with a consistent re-read where the server does not return it, e.g. dynalite),
// paginated query, and batched writes/gets that re-send unprocessed items with backoff.
import {
  BatchGetItemCommand,
  BatchWriteItemCommand,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import type {
  AttributeValue,
  BatchGetItemCommandOutput,
  BatchWriteItemCommandOutput,
  GetItemCommandOutput,
  QueryCommandOutput,
  TransactWriteItem,
  UpdateItemCommandOutput,
  WriteRequest,
} from '@aws-sdk/client-dynamodb';
import { StoreUnavailableError } from '../../ports/state-store/errors.ts';
import { backoffDelay } from '../backoff.ts';
import { send } from './client.ts';
import type { Transport } from './client.ts';
import { marshalItem, unmarshalItem } from './codec.ts';
import type { Item, Plain } from './codec.ts';
import type { Key } from './keys.ts';

/** Expression text plus the superset of placeholders; only those the text uses are sent (DynamoDB rejects unused ones). */
export interface Expr {
  readonly update?: string;
  readonly condition?: string;
  readonly names: Readonly<Record<string, string>>;
  readonly values: { readonly [placeholder: string]: Plain };
}

function placeholders(
  e: Expr,
  extra = '',
): Pick<UpdateItemCommand['input'], 'ExpressionAttributeNames' | 'ExpressionAttributeValues'> {
  const text = `${e.update ?? ''} ${e.condition ?? ''} ${extra}`;
  const names = Object.fromEntries(Object.entries(e.names).filter(([k]) => new RegExp(`${k}\\b`).test(text)));
  const used = Object.entries(e.values).filter(([k]) => new RegExp(`${k}\\b`).test(text));
  const values = used.length > 0 ? marshalItem(Object.fromEntries(used)) : undefined;
  return {
    ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
    ...(values ? { ExpressionAttributeValues: values } : {}),
  };
}

export type Outcome =
  | { readonly ok: true; readonly item: Record<string, unknown> }
  | { readonly ok: false; readonly old: Record<string, unknown> | undefined; readonly cause: unknown };

/** One member of a transaction: a condition on an item that is not written, a put, or an update. */
export type TransactPart =
  | { readonly kind: 'check'; readonly key: Key; readonly expr: Expr }
  | {
      readonly kind: 'put';
      readonly key: Key;
      readonly fields: Record<string, Plain | undefined>;
      readonly expr?: Expr;
    }
  | { readonly kind: 'update'; readonly key: Key; readonly expr: Expr };

/** A cancelled transaction reports, per part, why (`ConditionalCheckFailed`, `None`, ...). */
export type TransactOutcome =
  | { readonly ok: true }
  | { readonly ok: false; readonly reasons: readonly (string | undefined)[]; readonly cause: unknown };

export class Table {
  constructor(
    readonly t: Transport,
    readonly name: string,
  ) {}

  async get(key: Key): Promise<Record<string, unknown> | undefined> {
    const out = await send<GetItemCommandOutput>(
      this.t,
      new GetItemCommand({ TableName: this.name, Key: marshalItem(key), ConsistentRead: true }),
      'GetItem',
    );
    return out.Item ? unmarshalItem(out.Item) : undefined;
  }

  /** Conditional UpdateItem; a lost condition is a value (with the winning item), never an exception. */
  async update(key: Key, e: Expr): Promise<Outcome> {
    const input = {
      TableName: this.name,
      Key: marshalItem(key),
      UpdateExpression: e.update,
      ConditionExpression: e.condition,
      ReturnValues: 'ALL_NEW' as const,
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
      ...placeholders(e),
    };
    try {
      const out = await send<UpdateItemCommandOutput>(this.t, new UpdateItemCommand(input), 'UpdateItem');
      return { ok: true, item: unmarshalItem(out.Attributes ?? {}) };
    } catch (error: unknown) {
      return this.lost(key, error);
    }
  }

  /** PutItem only if no item has this key; the existing item comes back on a loss. */
  async putIfAbsent(key: Key, fields: Record<string, Plain | undefined>): Promise<Outcome> {
    const item = marshalItem({ ...fields, ...key });
    const input = {
      TableName: this.name,
      Item: item,
      ConditionExpression: 'attribute_not_exists(#pk)',
      ExpressionAttributeNames: { '#pk': 'pk' },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    };
    try {
      await send(this.t, new PutItemCommand(input), 'PutItem');
      return { ok: true, item: unmarshalItem(item) };
    } catch (error: unknown) {
      return this.lost(key, error);
    }
  }

  /**
   * TransactWriteItems: every part's condition is evaluated at the moment the whole write applies, so a retry
   * that reaches the server late is judged against the table as it is then. A cancellation is a value.
   */
  async transact(parts: readonly TransactPart[]): Promise<TransactOutcome> {
    const items: TransactWriteItem[] = parts.map((p) => this.transactItem(p));
    for (let attempt = 1; ; attempt++) {
      try {
        await send(this.t, new TransactWriteItemsCommand({ TransactItems: items }), 'TransactWriteItems');
        return { ok: true };
      } catch (error: unknown) {
        if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') throw error;
        const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
        const codes = reasons.map((r) => r.Code);
        // A conflict with a concurrent transaction applied nothing: try again, as the SDK would.
        const conflict = codes.some((c) => c === 'TransactionConflict' || c === 'ThrottlingError');
        if (!conflict || attempt >= this.t.retry.attempts) return { ok: false, reasons: codes, cause: error };
        await this.t.sleep(backoffDelay(this.t.retry, attempt, this.t.random));
      }
    }
  }

  private transactItem(p: TransactPart): TransactWriteItem {
    const base = { TableName: this.name, ReturnValuesOnConditionCheckFailure: 'NONE' as const };
    if (p.kind === 'check')
      return {
        ConditionCheck: {
          ...base,
          Key: marshalItem(p.key),
          ConditionExpression: p.expr.condition,
          ...placeholders(p.expr),
        },
      };
    if (p.kind === 'update')
      return {
        Update: {
          ...base,
          Key: marshalItem(p.key),
          UpdateExpression: p.expr.update,
          ConditionExpression: p.expr.condition,
          ...placeholders(p.expr),
        },
      };
    return {
      Put: {
        ...base,
        Item: marshalItem({ ...p.fields, ...p.key }),
        ...(p.expr ? { ConditionExpression: p.expr.condition, ...placeholders(p.expr) } : {}),
      },
    };
  }

  private async lost(key: Key, error: unknown): Promise<Outcome> {
    if (!(error instanceof Error) || error.name !== 'ConditionalCheckFailedException') throw error;
    const returned = (error as { Item?: Record<string, AttributeValue> }).Item;
    // dynalite predates ReturnValuesOnConditionCheckFailure: read the winner back (one more round trip, losers only).
    const old = returned ? unmarshalItem(returned) : await this.get(key);
    return { ok: false, old, cause: error };
  }

  /** All items of one partition (optionally under an sk prefix, optionally from an index), every page. */
  async query(
    pk: { readonly attr: string; readonly value: string },
    options: { index?: string; skAttr?: string; skPrefix?: string } = {},
  ): Promise<Record<string, unknown>[]> {
    const skAttr = options.skAttr ?? 'sk';
    const condition = options.skPrefix === undefined ? '#p = :p' : '#p = :p AND begins_with(#s, :s)';
    const names: Record<string, string> =
      options.skPrefix === undefined ? { '#p': pk.attr } : { '#p': pk.attr, '#s': skAttr };
    const values = marshalItem({ ':p': pk.value, ':s': options.skPrefix });
    const items: Record<string, unknown>[] = [];
    let start: Record<string, AttributeValue> | undefined;
    do {
      const cmd = new QueryCommand({
        TableName: this.name,
        ...(options.index ? { IndexName: options.index } : { ConsistentRead: true }),
        KeyConditionExpression: condition,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ...(start ? { ExclusiveStartKey: start } : {}),
      });
      const out = await send<QueryCommandOutput>(this.t, cmd, 'Query');
      for (const i of out.Items ?? []) items.push(unmarshalItem(i));
      start = out.LastEvaluatedKey;
    } while (start);
    return items;
  }

  /** Unconditional puts and deletes, 25 per request (keys deduplicated: a batch may not name a key twice). */
  async batchWrite(
    puts: readonly Record<string, Plain | undefined>[],
    deletes: readonly Key[] = [],
  ): Promise<void> {
    const byKey = new Map<string, WriteRequest>();
    for (const p of puts)
      byKey.set(`${String(p.pk)}\u0000${String(p.sk)}`, { PutRequest: { Item: marshalItem(p) } });
    for (const d of deletes) byKey.set(`${d.pk}\u0000${d.sk}`, { DeleteRequest: { Key: marshalItem(d) } });
    const requests = [...byKey.values()];
    const chunks: WriteRequest[][] = [];
    for (let i = 0; i < requests.length; i += 25) chunks.push(requests.slice(i, i + 25));
    await inParallel(chunks, 4, (chunk) => this.writeChunk(chunk));
  }

  private async writeChunk(chunk: WriteRequest[]): Promise<void> {
    let pending = chunk;
    for (let attempt = 1; pending.length > 0; attempt++) {
      if (attempt > this.t.retry.attempts)
        throw new StoreUnavailableError(
          `DynamoDB BatchWriteItem left ${pending.length} items unprocessed after ${attempt - 1} attempts`,
        );
      if (attempt > 1) await this.t.sleep(backoffDelay(this.t.retry, attempt - 1, this.t.random));
      const out = await send<BatchWriteItemCommandOutput>(
        this.t,
        new BatchWriteItemCommand({ RequestItems: { [this.name]: pending } }),
        'BatchWriteItem',
      );
      pending = out.UnprocessedItems?.[this.name] ?? [];
    }
  }

  /** Consistent reads of up to 100 keys per request, unprocessed keys re-sent. */
  async batchGet(keys: readonly Key[]): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    for (let i = 0; i < keys.length; i += 100) {
      let pending: Item[] = keys.slice(i, i + 100).map((k) => marshalItem(k));
      for (let attempt = 1; pending.length > 0; attempt++) {
        if (attempt > this.t.retry.attempts)
          throw new StoreUnavailableError(`DynamoDB BatchGetItem left ${pending.length} keys unprocessed`);
        if (attempt > 1) await this.t.sleep(backoffDelay(this.t.retry, attempt - 1, this.t.random));
        const cmd = new BatchGetItemCommand({
          RequestItems: { [this.name]: { Keys: pending, ConsistentRead: true } },
        });
        const out = await send<BatchGetItemCommandOutput>(this.t, cmd, 'BatchGetItem');
        for (const it of out.Responses?.[this.name] ?? []) items.push(unmarshalItem(it));
        pending = out.UnprocessedKeys?.[this.name]?.Keys ?? [];
      }
    }
    return items;
  }
}

/**
 * `width` requests at a time. Once one fails no new one starts, and the error is thrown only after those in
 * flight have answered: a failed write-back never leaves writes landing after its caller moved on (released
 * the lease, say), so the next pass reads everything this one wrote (docs/mechanisms/negative-cache.md).
 */
async function inParallel<T>(
  items: readonly T[],
  width: number,
  run: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failed: { readonly error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (next < items.length && !failed) {
      const item = items[next++] as T;
      try {
        await run(item);
      } catch (error: unknown) {
        failed ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  if (failed) throw failed.error;
}
