// The StateStore contract against the DynamoDB adapter talking to AWS's DynamoDB Local (Java, in memory).
import { startDynamoDbLocal } from '../../support/dynamodb/dynamodb-local.ts';
import { stateStoreContract } from './contract.ts';
import { dynamoHarness } from './dynamo-harness.ts';

stateStoreContract('dynamodb adapter on DynamoDB Local', () => dynamoHarness(() => startDynamoDbLocal()));
