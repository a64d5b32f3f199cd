// Harness for the contract runs on real DynamoDB servers: start the server, create the table from
// infra/dynamodb, hand out DynamoDbStateStores over clients with the shared dummy credentials, stop it all.
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDbStateStore } from '../../../shared/adapters/dynamodb/state-store.ts';
import { localClient } from '../../support/dynamodb/credentials.ts';
import type { LocalDynamo } from '../../support/dynamodb/dynalite.ts';
import { createTable } from '../../support/dynamodb/tables.ts';
import type { StoreHarness } from './contract.ts';

export async function dynamoHarness(start: () => Promise<LocalDynamo>): Promise<StoreHarness> {
  const server = await start();
  const tableName = 'kraftsman-contract';
  await createTable(server, tableName);
  const clients: DynamoDBClient[] = [];
  return {
    make: (clock) => {
      const client = localClient(server.endpoint);
      clients.push(client);
      return new DynamoDbStateStore({ client, tableName, clock });
    },
    close: async () => {
      for (const c of clients) c.destroy();
      await server.stop();
    },
  };
}
