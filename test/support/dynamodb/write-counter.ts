// Counts the writes a DynamoDbStateStore sends, at the SDK client (a middleware on the real client): write
// requests by operation and the items each BatchWriteItem carried, with the keys, so a test can name them.
import { DynamoDbStateStore } from '../../../shared/adapters/dynamodb/state-store.ts';
import type { Clock } from '../../../shared/ports/clock.ts';
import { fencingFor } from '../../../local/dynamodb/start.ts';
import { localClient } from './credentials.ts';
import type { StateTable } from './state-table.ts';

const WRITES = new Set(['BatchWriteItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'TransactWriteItems']);

type WriteRequest = {
  PutRequest?: { Item?: Record<string, { S?: string }> };
  DeleteRequest?: { Key?: Record<string, { S?: string }> };
};

export interface WriteCount {
  /** Write requests by operation (retries included). */
  readonly calls: Record<string, number>;
  readonly batchCalls: number;
  /** Items put and deleted through BatchWriteItem, by sort key. */
  readonly puts: string[];
  readonly deletes: string[];
}

export interface CountingStore {
  readonly store: DynamoDbStateStore;
  /** What was written since the last reset. */
  count(): WriteCount;
  reset(): void;
  /** Closes the client (the table's close() does not know it). */
  destroy(): void;
}

export function countingStore(
  table: StateTable,
  clock: Clock,
  options: { endpoint?: string; requestTimeoutMs?: number } = {},
): CountingStore {
  const client = localClient(options.endpoint ?? table.server.endpoint, options.requestTimeoutMs);
  let calls = new Map<string, number>();
  let puts: string[] = [];
  let deletes: string[] = [];
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const operation = String(context.commandName ?? '').replace(/Command$/, '');
      if (WRITES.has(operation)) calls.set(operation, (calls.get(operation) ?? 0) + 1);
      if (operation === 'BatchWriteItem') {
        const input = args.input as { RequestItems?: Record<string, WriteRequest[]> };
        for (const requests of Object.values(input.RequestItems ?? {}))
          for (const r of requests) {
            if (r.PutRequest) puts.push(String(r.PutRequest.Item?.sk?.S));
            if (r.DeleteRequest) deletes.push(String(r.DeleteRequest.Key?.sk?.S));
          }
      }
      return next(args);
    },
    { step: 'initialize', name: 'kraftsmanWriteCounter' },
  );
  const store = new DynamoDbStateStore({
    client,
    tableName: table.tableName,
    clock,
    fencing: fencingFor(table.server),
  });
  return {
    store,
    count: () => ({
      calls: Object.fromEntries([...calls].sort(([a], [b]) => a.localeCompare(b))),
      batchCalls: calls.get('BatchWriteItem') ?? 0,
      puts: [...puts].sort(),
      deletes: [...deletes].sort(),
    }),
    reset: () => {
      calls = new Map();
      puts = [];
      deletes = [];
    },
    destroy: () => client.destroy(),
  };
}
