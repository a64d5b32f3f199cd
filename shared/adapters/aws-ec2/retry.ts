// Retries one EC2 call while EC2 throttles it (RequestLimitExceeded and friends); see ../backoff.ts.
import type { RetryPolicy } from '../../config/retry-policy.ts';
import { withBackoff, type Sleep } from '../backoff.ts';
import { classifyEc2Error } from './errors.ts';

export const withThrottleRetry = <T>(
  op: () => Promise<T>,
  policy: RetryPolicy,
  sleep: Sleep,
  random?: () => number,
): Promise<T> => withBackoff(op, (err) => classifyEc2Error(err) === 'throttled', policy, sleep, random);
