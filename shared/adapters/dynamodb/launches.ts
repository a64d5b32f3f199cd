// Launch records on DynamoDB: one item per NodeClaim, created once (the launcher's idempotency key) after a
// fence check on the lease the launch happens under, then completed conditionally from `pending`.
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../ports/clock.ts';
import { ConditionFailedError, StaleWriteError } from '../../ports/state-store/errors.ts';
import { pendingLaunch } from '../../ports/state-store/records.ts';
import type { Fence, LaunchInput, LaunchOutcome, LaunchRecord } from '../../ports/state-store/records.ts';
import { toLaunch, toLeaseView } from './items.ts';
import { launchKey } from './keys.ts';
import type { Leases } from './leases.ts';
import type { Table } from './table.ts';

/*
 * Launch timeline:
 *   [lease item: fencedAt = now | HELD_BY_ME] ── [launch item | NOT_EXISTS] ── cloud call ── [status | IS_PENDING]
 *   A stale holder stops at the first write. Two launchers for one claim: the second finds the record and
 *   gets created = false (it must not call the cloud). A retry after a lost response recognises its createId.
 */
export const LAUNCH_CONDITIONS = { IS_PENDING: '#status = :pending' } as const;

export class Launches {
  constructor(
    private readonly table: Table,
    private readonly leases: Leases,
    private readonly clock: Clock,
  ) {}

  /** `fence` and `l` are checked by the caller (recordInputs.recordLaunch), as are complete's and get's arguments. */
  async record(fence: Fence, l: LaunchInput): Promise<{ record: LaunchRecord; created: boolean }> {
    const lock = await this.leases.fence(fence);
    const now = this.clock.now();
    if (now.getTime() >= Number(lock.expiresAt)) throw new StaleWriteError(fence, toLeaseView(lock));
    const createId = randomUUID();
    const record = pendingLaunch(fence, l, now);
    const out = await this.table.putIfAbsent(launchKey(fence.cluster, l.claimName), {
      ...record,
      createdAt: now.getTime(),
      updatedAt: now.getTime(),
      createId,
    });
    if (out.ok) return { record, created: true };
    if (!out.old)
      throw new ConditionFailedError(
        `launch ${fence.cluster}/${l.claimName} vanished while recording it`,
        undefined,
        { cause: out.cause },
      );
    return { record: toLaunch(out.old), created: out.old.createId === createId };
  }

  async complete(cluster: string, claimName: string, o: LaunchOutcome): Promise<LaunchRecord> {
    const now = this.clock.now().getTime();
    const out = await this.table.update(launchKey(cluster, claimName), {
      update:
        o.status === 'launched'
          ? 'SET #status = :status, #providerId = :detail, #updatedAt = :now'
          : 'SET #status = :status, #error = :detail, #updatedAt = :now',
      condition: LAUNCH_CONDITIONS.IS_PENDING,
      names: {
        '#status': 'status',
        '#providerId': 'providerId',
        '#error': 'error',
        '#updatedAt': 'updatedAt',
      },
      values: {
        ':status': o.status,
        ':pending': 'pending',
        ':detail': o.status === 'launched' ? o.providerId : o.error,
        ':now': now,
      },
    });
    if (out.ok) return toLaunch(out.item);
    const current = out.old ? toLaunch(out.old) : undefined;
    // The same outcome recorded twice (a retried call) is the same fact, not a conflict.
    if (
      current &&
      current.status === o.status &&
      (o.status === 'failed' || current.providerId === o.providerId)
    )
      return current;
    throw new ConditionFailedError(
      `launch ${cluster}/${claimName} is ${current?.status ?? 'absent'}, not pending`,
      current,
      { cause: out.cause },
    );
  }

  async get(cluster: string, claimName: string): Promise<LaunchRecord | undefined> {
    const item = await this.table.get(launchKey(cluster, claimName));
    return item ? toLaunch(item) : undefined;
  }
}
