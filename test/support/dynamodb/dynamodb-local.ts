// DynamoDB Local is started by the local fleet's own code (local/dynamodb); tests re-use it.
export { startDynamoDbLocal } from '../../../local/dynamodb/dynamodb-local.ts';
