// Builds the DynamoDB StateStore: one client per container, the adapter's own retries (SDK attempts 1).
import {
  createDynamoDbClient,
  DynamoDbStateStore,
  type FencingMode,
} from '../../shared/adapters/dynamodb/index.ts';
import { LEASE_CLOCK_SKEW_MS } from '../../shared/config/dynamodb.ts';
import type { Clock } from '../../shared/ports/clock.ts';
import type { Closer, Credentials } from './local.ts';

export interface StateStoreSettings {
  readonly region: string;
  readonly tableName: string;
  /** A local endpoint (DynamoDB Local in tests and the local fleet); AWS's own otherwise. */
  readonly endpoint?: string;
  readonly requestTimeoutMs?: number;
}

/** The state table's DynamoDB client, closed with the container (the state and price stores each take one). */
export function stateTableClient(
  settings: StateStoreSettings,
  credentials?: Credentials,
  closer?: Closer,
): ReturnType<typeof createDynamoDbClient> {
  const client = createDynamoDbClient({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(credentials ? { credentials } : {}),
    ...(settings.requestTimeoutMs ? { requestTimeoutMs: settings.requestTimeoutMs } : {}),
  });
  closer?.add(() => client.destroy());
  return client;
}

export function buildStateStore(
  settings: StateStoreSettings,
  clock: Clock,
  credentials?: Credentials,
  closer?: Closer,
  /** DynamoDB's transactions (the default); the local fleet on dynalite takes the two-write path. */
  fencing?: FencingMode,
): DynamoDbStateStore {
  const client = stateTableClient(settings, credentials, closer);
  // Leases are judged with room for the callers' clocks to differ (docs/deploy.md, "Leases and clocks").
  return new DynamoDbStateStore({
    client,
    tableName: settings.tableName,
    clock,
    maxClockSkewMs: LEASE_CLOCK_SKEW_MS,
    ...(fencing ? { fencing } : {}),
  });
}
