// The PriceStore contract against the DynamoDB adapter talking to dynalite (in-process).
import { startDynalite } from '../../support/dynamodb/dynalite.ts';
import { priceStoreContract } from './contract.ts';
import { dynamoPriceHarness } from './dynamo-harness.ts';

priceStoreContract('dynamodb adapter on dynalite', () => dynamoPriceHarness(startDynalite));
