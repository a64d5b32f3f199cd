// A local DynamoDB with the state table created from infra/dynamodb, handing out DynamoDbStateStores (each
// on its own client, like separate Lambda containers) and closing clients and server together.
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDbStateStore } from '../../../shared/adapters/dynamodb/state-store.ts';
import type { DynamoDbStateStoreOptions } from '../../../shared/adapters/dynamodb/state-store.ts';
import type { Clock } from '../../../shared/ports/clock.ts';
import { localClient } from './credentials.ts';
import type { LocalDynamo } from './dynalite.ts';
import { createTable } from './tables.ts';
import { fencingFor } from '../../../local/dynamodb/start.ts';

export interface StateTable {
  readonly server: LocalDynamo;
  readonly tableName: string;
  /** A store over its own client; `endpoint` lets a test route it through a fault proxy. */
  store(
    clock: Clock,
    options?: { endpoint?: string; requestTimeoutMs?: number } & Partial<
      Pick<DynamoDbStateStoreOptions, 'retry' | 'sleep' | 'random' | 'fencing' | 'maxClockSkewMs'>
    >,
  ): DynamoDbStateStore;
  close(): Promise<void>;
}

export async function startStateTable(
  start: () => Promise<LocalDynamo>,
  tableName = 'kraftsman-state-test',
): Promise<StateTable> {
  const server = await start();
  try {
    await createTable(server, tableName);
  } catch (error: unknown) {
    await server.stop();
    throw error;
  }
  const clients: DynamoDBClient[] = [];
  return {
    server,
    tableName,
    store: (clock, options = {}) => {
      const { endpoint, requestTimeoutMs, ...rest } = options;
      const client = localClient(endpoint ?? server.endpoint, requestTimeoutMs);
      clients.push(client);
      return new DynamoDbStateStore({ client, tableName, clock, fencing: fencingFor(server), ...rest });
    },
    close: async () => {
      for (const c of clients) c.destroy();
      await server.stop();
    },
  };
}
