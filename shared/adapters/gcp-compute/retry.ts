// Retries one Compute Engine call while it is rate limited or the backend fails transiently:
// capped exponential backoff with full jitter; anything else fails at once.
import { classifyGceError } from './errors.ts';

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
      if (attempt >= policy.attempts || classifyGceError(err) !== 'throttled') throw err;
      await sleep(
        Math.round(Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1)) * random()),
      );
    }
  }
}
