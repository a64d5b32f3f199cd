// The local DynamoDB credentials and clients live with the local servers (local/dynamodb); tests re-use them.
export {
  LOCAL_CREDENTIALS,
  LOCAL_REGION,
  localClient,
  setupClient,
} from '../../../local/dynamodb/credentials.ts';
