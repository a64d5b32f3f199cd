// The StateStore contract against the DynamoDB adapter talking to dynalite (in-process).
import { startDynalite } from '../../support/dynamodb/dynalite.ts';
import { stateStoreContract } from './contract.ts';
import { dynamoHarness } from './dynamo-harness.ts';

stateStoreContract('dynamodb adapter on dynalite', () => dynamoHarness(startDynalite));
