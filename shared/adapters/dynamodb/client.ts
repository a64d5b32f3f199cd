// The DynamoDB client as the adapter uses it: created once per container with explicit retry settings
// (SDK maxAttempts 1, our own backoff), every HTTP round trip counted, SDK errors translated at this edge.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDbConfig } from '../../config/dynamodb.ts';
import type { RetryPolicy } from '../../config/retry-policy.ts';
import { StoreUnavailableError } from '../../ports/state-store/errors.ts';
import { withBackoff } from '../backoff.ts';

/** The settings of shared/config/dynamodb.ts that shape the client, plus static credentials for local use. */
export interface DynamoDbClientOptions extends Pick<DynamoDbConfig, 'region' | 'endpoint'> {
  readonly requestTimeoutMs?: number;
  readonly credentials?: { readonly accessKeyId: string; readonly secretAccessKey: string };
}

/**
 * One attempt per SDK call (`maxAttempts: 1`): retries are ours (`withRetries`), so that they are counted,
 * bounded and tested, and so that the SDK's retries do not multiply with ours.
 */
export function createDynamoDbClient(options: DynamoDbClientOptions): DynamoDBClient {
  return new DynamoDBClient({
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.credentials ? { credentials: options.credentials } : {}),
    maxAttempts: 1,
    // Without throwOnRequestTimeout this smithy version only logs a warning and waits for ever.
    requestHandler: {
      requestTimeout: options.requestTimeoutMs ?? 5_000,
      connectionTimeout: 2_000,
      throwOnRequestTimeout: true,
    },
  });
}

/** DynamoDB's throttling errors (retried with backoff, as the SDK's own standard strategy would). */
export const THROTTLING_ERRORS: ReadonlySet<string> = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'Throttling',
]);
/** Errors that are answers to a conditional write, not failures: handed back to the caller untouched. */
const ANSWERS: ReadonlySet<string> = new Set([
  'ConditionalCheckFailedException',
  'TransactionCanceledException',
]);
/** Transient failures where the request may or may not have been applied: safe only because every write is. */
const TRANSIENT_ERRORS: ReadonlySet<string> = new Set([
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'InternalServerError',
  'ServiceUnavailable',
  // Another transaction touched one of the items at the same moment; nothing was applied.
  'TransactionConflictException',
  'TransactionInProgressException',
]);
const TRANSIENT_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ECONNREFUSED',
  'ECONNABORTED',
]);

export function isRetryable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (THROTTLING_ERRORS.has(error.name) || TRANSIENT_ERRORS.has(error.name)) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && TRANSIENT_CODES.has(code)) return true;
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return status !== undefined && status >= 500;
}

/** Counts round trips per operation, for `bench:state-store` and the O(1)-per-pass check. */
export class RoundTripCounter {
  private readonly counts = new Map<string, number>();
  record(operation: string): void {
    this.counts.set(operation, (this.counts.get(operation) ?? 0) + 1);
  }
  get total(): number {
    let n = 0;
    for (const v of this.counts.values()) n += v;
    return n;
  }
  byOperation(): Record<string, number> {
    return Object.fromEntries([...this.counts].sort(([a], [b]) => a.localeCompare(b)));
  }
  reset(): void {
    this.counts.clear();
  }
}

export interface Transport {
  readonly client: DynamoDBClient;
  readonly counter: RoundTripCounter;
  readonly retry: RetryPolicy;
  readonly sleep: (ms: number) => Promise<void>;
  readonly random: () => number;
}

/** Any command of this client; typed loosely because the SDK's overloads do not accept a union of commands. */
type Sendable = { readonly input: unknown };

/**
 * Sends one command, retrying throttling and transient failures with the adapters' one backoff.
 * ConditionalCheckFailedException is returned to the caller untouched (it is an answer, not a failure);
 * anything else, or exhausting the attempts, becomes StoreUnavailableError with the SDK error as `cause`.
 */
export async function send<T>(t: Transport, command: Sendable, operation: string): Promise<T> {
  let attempts = 0;
  const once = async (): Promise<T> => {
    attempts += 1;
    t.counter.record(operation);
    return (await t.client.send(command as never)) as T;
  };
  try {
    return await withBackoff(
      once,
      (e) => !isConditionFailure(e) && isRetryable(e),
      t.retry,
      t.sleep,
      t.random,
    );
  } catch (error: unknown) {
    if (isConditionFailure(error)) throw error;
    const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    const tries = isRetryable(error) ? ` after ${attempts} attempts` : '';
    throw new StoreUnavailableError(`DynamoDB ${operation} failed${tries} (${what})`, { cause: error });
  }
}

/** Answers to a conditional write (a lost condition, a cancelled transaction): handed back untouched. */
const isConditionFailure = (error: unknown): boolean => error instanceof Error && ANSWERS.has(error.name);
