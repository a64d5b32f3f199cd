// The AWS list prices bench:bill uses: us-east-1, looked up on 2026-12-08 (docs/benchmarks.md, "bench:bill").
// Free tiers are left out: the bill is what the reconciler adds to an account that has used them up.

export const PRICE_TABLE = {
  date: '2026-12-08',
  region: 'us-east-1',
  /** Lambda on arm64 (Graviton): the first 7.5 billion GB-s of a month, and every request. */
  lambdaPerGbSecond: 0.0000133334,
  lambdaPerRequest: 0.2 / 1e6,
  /**
   * DynamoDB on-demand after the 1 November 2024 cut (50% off): $0.625 per million write request units, $0.125
   * per million read request units (Standard table class).
   */
  dynamoPerWru: 0.625 / 1e6,
  dynamoPerRru: 0.125 / 1e6,
  /** SQS standard queue: $0.40 per million requests (each 64 KB chunk of a request is one). */
  sqsPerRequest: 0.4 / 1e6,
  /**
   * EventBridge: scheduled rules on the default bus and AWS service events (the EC2 interruption rule) are not
   * charged; only custom events are ($1.00 per million).
   */
  eventBridgeScheduledPerInvocation: 0,
  /** CloudWatch Logs ingestion, Standard class (Lambda's logs, first 10 TB a month): $0.50 per GB. */
  logsPerGbIngested: 0.5,
  /** CloudWatch custom metrics (EMF makes them): $0.30 per metric a month for the first 10,000, pro-rated hourly. */
  perCustomMetricMonth: 0.3,
  /** Secrets Manager: $0.40 per secret a month (the three kubeconfig secrets; their reads are at cold start). */
  perSecretMonth: 0.4,
} as const;

export type PriceTable = typeof PRICE_TABLE;

/** The sources the figures were read from (stated in docs/benchmarks.md). */
export const PRICE_SOURCES = [
  'aws.amazon.com/lambda/pricing (Arm price, US East (N. Virginia))',
  'aws.amazon.com/dynamodb/pricing/on-demand (after the November 2024 reduction)',
  'aws.amazon.com/sqs/pricing, aws.amazon.com/eventbridge/pricing, aws.amazon.com/cloudwatch/pricing',
] as const;
