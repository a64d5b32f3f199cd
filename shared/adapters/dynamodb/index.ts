// The DynamoDB adapter's public surface: what a function's composition root needs to build the StateStore.
export { createDynamoDbClient, RoundTripCounter, THROTTLING_ERRORS } from './client.ts';
export type { DynamoDbClientOptions } from './client.ts';
export { DynamoDbStateStore } from './state-store.ts';
export type { DynamoDbStateStoreOptions } from './state-store.ts';
export type { FencingMode } from './commands.ts';
export { GSI1 } from './keys.ts';
