// The DynamoDB client as the adapter uses it: created once per container with explicit retry settings
// (SDK maxAttempts 1, our own backoff), every HTTP round trip counted, SDK errors translated at this edge.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { StoreUnavailableError } from '../../ports/state-store.ts';

export interface DynamoDbClientOptions {
  readonly region: string;
  /** http://127.0.0.1:PORT for DynamoDB Local or dynalite; omitted in AWS. */
  readonly endpoint?: string;
  readonly credentials?: { readonly accessKeyId: string; readonly secretAccessKey: string };
  /** Per-attempt socket timeout; a timed-out write is retried, which every write here tolerates. */
  readonly requestTimeoutMs?: number;
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

export interface RetryPolicy {
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}
export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 8, baseDelayMs: 25, maxDelayMs: 2_000 };

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
 * Sends one command, retrying throttling and transient failures with full-jitter exponential backoff.
 * ConditionalCheckFailedException is returned to the caller untouched (it is an answer, not a failure);
 * anything else, or exhausting the attempts, becomes StoreUnavailableError with the SDK error as `cause`.
 */
export async function send<T>(t: Transport, command: Sendable, operation: string): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    t.counter.record(operation);
    try {
      return (await t.client.send(command as never)) as T;
    } catch (error: unknown) {
      if (error instanceof Error && ANSWERS.has(error.name)) throw error;
      if (!isRetryable(error) || attempt >= t.retry.maxAttempts) {
        const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        const tries = isRetryable(error) ? ` after ${attempt} attempts` : '';
        throw new StoreUnavailableError(`DynamoDB ${operation} failed${tries} (${what})`, { cause: error });
      }
      await t.sleep(backoff(t, attempt));
    }
  }
}

export function backoff(t: Transport, attempt: number): number {
  return Math.floor(t.random() * Math.min(t.retry.maxDelayMs, t.retry.baseDelayMs * 2 ** attempt));
}

export const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
