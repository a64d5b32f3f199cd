// Harness for the contract runs on real DynamoDB servers: the state table from infra/dynamodb on a freshly
// started server, one DynamoDbStateStore per "container", everything stopped by the suite that started it.
import type { LocalDynamo } from '../../support/dynamodb/dynalite.ts';
import { startStateTable } from '../../support/dynamodb/state-table.ts';
import type { StoreHarness } from './contract.ts';

export async function dynamoHarness(start: () => Promise<LocalDynamo>): Promise<StoreHarness> {
  const table = await startStateTable(start, 'kraftsman-contract');
  return { make: (clock) => table.store(clock), close: () => table.close() };
}
