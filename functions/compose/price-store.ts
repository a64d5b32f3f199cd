// Builds the DynamoDB PriceStore on the state table: one client per container, the adapter's own retries.
import { createDynamoDbClient } from '../../shared/adapters/dynamodb/client.ts';
import { DynamoDbPriceStore } from '../../shared/adapters/dynamodb/prices.ts';
import type { Closer, Credentials } from './local.ts';
import type { StateStoreSettings } from './state-store.ts';

export function buildPriceStore(
  settings: StateStoreSettings,
  credentials?: Credentials,
  closer?: Closer,
): DynamoDbPriceStore {
  const client = createDynamoDbClient({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(credentials ? { credentials } : {}),
    ...(settings.requestTimeoutMs ? { requestTimeoutMs: settings.requestTimeoutMs } : {}),
  });
  closer?.add(() => client.destroy());
  return new DynamoDbPriceStore({ client, tableName: settings.tableName });
}
