// EC2 is eventually consistent: right after CreateFleet, DescribeInstances or CreateTags on the new
// instance may answer InvalidInstanceID.NotFound. For instances this container launched a moment ago
// that answer is retried with the shared backoff instead of being taken for "the instance is gone".
import { withBackoff, type Sleep } from '../backoff.ts';
import type { RetryPolicy } from '../../config/retry-policy.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Call } from './ec2-context.ts';
import { classifyEc2Error, toCloudError } from './errors.ts';

/** How long after its launch a "does not exist" about an instance is read as eventual consistency. */
export const EVENTUAL_CONSISTENCY_MS = 120_000;

export class RecentLaunches {
  private readonly at = new Map<string, number>();
  constructor(
    private readonly clock: Clock,
    private readonly windowMs = EVENTUAL_CONSISTENCY_MS,
  ) {}

  record(instanceIds: readonly string[]): void {
    const now = this.clock.now().getTime();
    for (const [id, t] of this.at) if (now - t > this.windowMs) this.at.delete(id);
    for (const id of instanceIds) this.at.set(id, now);
  }

  isFresh(instanceId: string): boolean {
    const t = this.at.get(instanceId);
    return t !== undefined && this.clock.now().getTime() - t <= this.windowMs;
  }
}

/** Like the provider's `call`, but InvalidInstanceID.NotFound is retried as well as throttling. */
export function callAfterLaunch(policy: RetryPolicy, sleep: Sleep): Call {
  return async (what, op) => {
    try {
      return await withBackoff(
        op,
        (err) => ['throttled', 'not-found'].includes(classifyEc2Error(err)),
        policy,
        sleep,
      );
    } catch (err) {
      throw toCloudError(err, what);
    }
  };
}
