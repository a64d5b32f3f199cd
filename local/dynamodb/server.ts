// A DynamoDB server on 127.0.0.1 for the local fleet and the tests: DynamoDB Local (the jar) or dynalite.

export interface LocalDynamo {
  readonly endpoint: string;
  readonly kind: 'dynalite' | 'dynamodb-local';
  /** True where UpdateTimeToLive and ReturnValuesOnConditionCheckFailure exist (DynamoDB Local). */
  readonly full: boolean;
  stop(): Promise<void>;
}
