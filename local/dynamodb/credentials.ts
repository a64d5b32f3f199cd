// The one set of dummy credentials and region every local DynamoDB client uses: DynamoDB Local keeps one
// database per access key + region, so a client with other credentials would see empty tables.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createDynamoDbClient } from '../../shared/adapters/dynamodb/client.ts';

export const LOCAL_REGION = 'us-east-1';
export const LOCAL_CREDENTIALS = {
  accessKeyId: 'kraftsmanlocal',
  secretAccessKey: 'kraftsmanlocal',
} as const;

/** A client as the adapter is configured in production (one attempt per call), pointed at a local server. */
export function localClient(endpoint: string, requestTimeoutMs = 5_000): DynamoDBClient {
  return createDynamoDbClient({
    region: LOCAL_REGION,
    endpoint,
    credentials: LOCAL_CREDENTIALS,
    requestTimeoutMs,
  });
}

/** A plain SDK client for setup (table creation), with the SDK's own retries. */
export function setupClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({
    region: LOCAL_REGION,
    endpoint,
    credentials: LOCAL_CREDENTIALS,
    maxAttempts: 3,
  });
}
