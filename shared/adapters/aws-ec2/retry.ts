// Retries one EC2 call while EC2 throttles it (RequestLimitExceeded and friends): capped exponential
// backoff with full jitter, as AWS recommends; anything else fails at once.
import { classifyEc2Error } from './errors.ts';

export interface RetryPolicy {
  readonly attempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export type Sleep = (ms: number) => Promise<void>;
export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function withThrottleRetry<T>(
  op: () => Promise<T>,
  policy: RetryPolicy,
  sleep: Sleep,
  random: () => number = Math.random,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await op();
    } catch (err) {
      if (attempt >= policy.attempts || classifyEc2Error(err) !== 'throttled') throw err;
      const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
      await sleep(Math.round(cap * random()));
    }
  }
}
