// Retries one call while the service says "slow down": capped exponential backoff with full jitter, as AWS
// and Google recommend. The one backoff of the adapters: the clouds' retry wrappers and DynamoDB's use it.
import type { RetryPolicy } from '../config/retry-policy.ts';

export type Sleep = (ms: number) => Promise<void>;
export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The wait after `failures` failed tries: uniform in [0, min(max, base · 2^(failures-1))]. */
export function backoffDelay(policy: RetryPolicy, failures: number, random: () => number): number {
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, failures - 1));
  return Math.round(cap * random());
}

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
      await sleep(backoffDelay(policy, attempt, random));
    }
  }
}
