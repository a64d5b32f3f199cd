// Builds the DynamoDB PriceStore on the state table: one client per container, the adapter's own retries.
import { DynamoDbPriceStore } from '../../shared/adapters/dynamodb/prices.ts';
import type { Closer, Credentials } from './local.ts';
import { stateTableClient, type StateStoreSettings } from './state-store.ts';

export function buildPriceStore(
  settings: StateStoreSettings,
  credentials?: Credentials,
  closer?: Closer,
): DynamoDbPriceStore {
  const client = stateTableClient(settings, credentials, closer);
  return new DynamoDbPriceStore({ client, tableName: settings.tableName });
}
