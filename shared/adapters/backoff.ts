// Retries one cloud call while the cloud says "slow down": capped exponential backoff with full jitter, as AWS
// and Google recommend. Each adapter says which of its errors are retryable; anything else fails at once.
export interface RetryPolicy {
  readonly attempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export type Sleep = (ms: number) => Promise<void>;
export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function withBackoff<T>(
  op: () => Promise<T>,
  retryable: (err: unknown) => boolean,
  policy: RetryPolicy,
  sleep: Sleep,
  random: () => number = Math.random,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await op();
    } catch (err) {
      if (attempt >= policy.attempts || !retryable(err)) throw err;
      const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
      await sleep(Math.round(cap * random()));
    }
  }
}
