// The retry policy every adapter's settings share: how often and how long to back off while a cloud or
// DynamoDB says "slow down" (capped exponential backoff with full jitter, shared/adapters/backoff.ts).
import { z } from 'zod';

export interface RetryPolicy {
  /** Tries in all, the first included. */
  readonly attempts: number;
  /** The cap of the first wait; each further wait doubles it, up to maxDelayMs. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

/** The cloud APIs' default: EC2 and Compute Engine throttle for seconds, so waits grow to 5 s. */
export const CLOUD_RETRY: RetryPolicy = { attempts: 5, baseDelayMs: 200, maxDelayMs: 5_000 };

/** A policy schema whose missing fields (or the whole policy) take `defaults`. */
export const retryPolicyWith = (defaults: RetryPolicy) =>
  z
    .object({
      attempts: z.number().int().min(1).default(defaults.attempts),
      baseDelayMs: z.number().int().min(0).default(defaults.baseDelayMs),
      maxDelayMs: z.number().int().min(0).default(defaults.maxDelayMs),
    })
    .default({ ...defaults });

export const retryPolicySchema = retryPolicyWith(CLOUD_RETRY);
