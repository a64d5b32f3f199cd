// Settings of the DynamoDB StateStore adapter (shared/adapters/dynamodb): where the table is, how long one
// request may take and how throttling is retried. Parsed once per cold start (every bad key at once).
import { z } from 'zod';
import { parseConfig } from './parse.ts';
import { retryPolicyWith, type RetryPolicy } from './retry-policy.ts';

/**
 * DynamoDB throttles for milliseconds, not seconds: more, shorter waits than the clouds' policy (the first
 * wait is capped at 50 ms, the longest at 2 s).
 */
export const DYNAMODB_RETRY: RetryPolicy = { attempts: 8, baseDelayMs: 50, maxDelayMs: 2_000 };

/**
 * The most two deployed functions' clocks may differ (Lambda hosts keep time by Amazon Time Sync, well under a
 * millisecond apart; a second of room is a thousand times that): a lease is taken over only this long after
 * its expiry, so a taker running ahead cannot take a live lease (shared/adapters/dynamodb/leases.ts).
 */
export const LEASE_CLOCK_SKEW_MS = 1_000;

export const dynamoDbConfigSchema = z.object({
  region: z.string().min(1, 'region is required'),
  /** http://127.0.0.1:PORT for DynamoDB Local or dynalite; omitted in AWS. */
  endpoint: z.url().optional(),
  tableName: z.string().min(3).max(255),
  /** Per-attempt socket timeout; a timed-out write is retried, which every write of the adapter tolerates. */
  requestTimeoutMs: z.number().int().min(1).default(5_000),
  retry: retryPolicyWith(DYNAMODB_RETRY),
});
export type DynamoDbConfig = z.output<typeof dynamoDbConfigSchema>;

export function parseDynamoDbConfig(input: unknown): DynamoDbConfig {
  return parseConfig(dynamoDbConfigSchema, input, 'DynamoDB state store');
}
