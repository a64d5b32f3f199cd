// Retries one Compute Engine call while it is rate limited or the backend fails transiently; see ../backoff.ts.
import type { RetryPolicy } from '../../config/retry-policy.ts';
import { withBackoff, type Sleep } from '../backoff.ts';
import { classifyGceError } from './errors.ts';

export const withThrottleRetry = <T>(
  op: () => Promise<T>,
  policy: RetryPolicy,
  sleep: Sleep,
  random?: () => number,
): Promise<T> => withBackoff(op, (err) => classifyGceError(err) === 'throttled', policy, sleep, random);
