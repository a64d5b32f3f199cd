// Harness for the PriceStore contract on a real DynamoDB server: the state table from infra/dynamodb, one
// DynamoDbPriceStore per "container", raw PutItems to plant bad data, everything stopped at the end.
import {
  GetItemCommand,
  PutItemCommand,
  type AttributeValue,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { DynamoDbPriceStore } from '../../../shared/adapters/dynamodb/prices.ts';
import { localClient, setupClient } from '../../support/dynamodb/credentials.ts';
import type { LocalDynamo } from '../../support/dynamodb/dynalite.ts';
import { createTable } from '../../support/dynamodb/tables.ts';
import type { PriceStoreHarness } from './contract.ts';

export async function dynamoPriceHarness(start: () => Promise<LocalDynamo>): Promise<PriceStoreHarness> {
  const server = await start();
  const tableName = 'kraftsman-prices-contract';
  const clients: DynamoDBClient[] = [];
  try {
    await createTable(server, tableName);
  } catch (error: unknown) {
    await server.stop();
    throw error;
  }
  const raw = setupClient(server.endpoint);
  clients.push(raw);
  return {
    chunked: true,
    make: () => {
      const client = localClient(server.endpoint);
      clients.push(client);
      return new DynamoDbPriceStore({ client, tableName });
    },
    corrupt: async (cluster, what) => {
      const pk = `C#${cluster}#PRICES`;
      const head = await raw.send(
        new GetItemCommand({ TableName: tableName, Key: { pk: { S: pk }, sk: { S: 'HEAD' } } }),
      );
      const version = head.Item?.version?.S ?? '';
      const sk = what === 'head' ? 'HEAD' : `V#${version}#0000`;
      const Item: Record<string, AttributeValue> =
        what === 'head'
          ? { ...(head.Item ?? {}), readAt: { S: 'yesterday' } }
          : { pk: { S: pk }, sk: { S: sk }, body: { S: '[["aws","m5.large","us-east-1a","x",1]]' } };
      await raw.send(new PutItemCommand({ TableName: tableName, Item }));
      return `${pk}/${sk}`;
    },
    close: async () => {
      for (const c of clients) c.destroy();
      await server.stop();
    },
  };
}
