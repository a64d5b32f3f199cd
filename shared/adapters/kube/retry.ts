// Optimistic concurrency: a write carries the resourceVersion it read; on 409 Conflict it re-reads and
// tries again, a bounded number of times, then fails with ConflictError naming the object.
import { ConflictError, type ObjectRefInfo } from '../../ports/cluster/errors.ts';
import { isConflict, toClusterError } from './errors.ts';

export async function withConflictRetry<T>(
  object: ObjectRefInfo,
  attempts: number,
  attempt: () => Promise<T>,
): Promise<T> {
  let last: unknown;
  for (let i = 0; i < attempts; i++) {
    try {
      return await attempt();
    } catch (err: unknown) {
      if (!isConflict(err)) throw toClusterError(err, object);
      last = err;
    }
  }
  throw new ConflictError(object, attempts, { cause: last });
}
