// The PriceStore contract against the DynamoDB adapter talking to AWS's DynamoDB Local (Java, in memory).
import { startDynamoDbLocal } from '../../support/dynamodb/dynamodb-local.ts';
import { priceStoreContract } from './contract.ts';
import { dynamoPriceHarness } from './dynamo-harness.ts';

priceStoreContract('dynamodb adapter on DynamoDB Local', () =>
  dynamoPriceHarness(() => startDynamoDbLocal()),
);
