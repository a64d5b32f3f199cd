// Leases on DynamoDB: the admission lock and the pass leases, one item per cluster + name, each write a single
// conditional UpdateItem. The fence check here is what every write a stale holder could make goes through.
import type { Clock } from '../../ports/clock.ts';
import {
  ConditionFailedError,
  LockHeldError,
  LockLostError,
  StaleWriteError,
} from '../../ports/state-store/errors.ts';
import type { Fence, Lease, LeaseName, LeaseRequest, LeaseView } from '../../ports/state-store/records.ts';
import { toLeaseView } from './items.ts';
import { leaseKey } from './keys.ts';
import type { Expr, Table, TransactPart } from './table.ts';

/*
 * Lease timeline (times are the writer's clock; `token` only ever grows):
 *
 *   A acquires        A heartbeats           A stops (crash, pause)      expiresAt        B acquires
 *   token 7 ───────── expiresAt pushed ───── · · · · · · · · · · · · ────── │ ─────────── token 8 ─────▶
 *   [FREE]            [HELD_BY_ME]                                           │ free from    [FREE]
 *                                                                            │ here on
 *   A's late heartbeat / fenced write after expiresAt: HELD_BY_ME fails (expired, or token 7 ≠ 8)
 *   → LockLostError / StaleWriteError carrying the item that won.
 *   A retried acquire whose first attempt won: FREE fails, the ALL_OLD item names A → it is A's lease.
 *   A second firing of the same scheduled run (same runId), even after A released: NOT_SAME_RUN fails.
 *
 * Whose clock: DynamoDB has no server time in a condition expression, so `:now` is the caller's clock. A holder
 * writes only while ITS clock is before expiresAt (HELD_BY_ME); a taker may take only once ITS clock is
 * `maxClockSkewMs` past it (FREE, `:expiredBy` = now − maxClockSkewMs). With any two callers' clocks at most
 * maxClockSkewMs apart, the holder's last write and the taker's first never overlap in real time:
 *
 *   real time ──────────────────────────────────────────────────────────────────────────────────▶
 *   holder H (clock behind by d ≤ M)  writes ─────────────────────┤ H reads expiresAt (real E + d)
 *   taker  T (clock ahead by e, d + e ≤ M)                                  ├── T may take (real E + M − e)
 *                                                        E + d  ≤  E + M − e   ⇔   d + e ≤ M
 *
 * A released lease (the holder said so: it will not write again) is free at once, whatever the clocks.
 */
export const LEASE_CONDITIONS = {
  FREE: '(attribute_not_exists(#pk) OR #expiresAt <= :expiredBy OR #released = :true)',
  NOT_SAME_RUN: '(attribute_not_exists(#lastRunId) OR #lastRunId <> :runId)',
  HELD_BY_ME: '(#owner = :owner AND #token = :token AND #released = :false AND #expiresAt > :now)',
  OWNED_BY_ME: '(#owner = :owner AND #token = :token)',
} as const;

export const LEASE_NAMES_MAP = {
  '#pk': 'pk',
  '#cluster': 'cluster',
  '#name': 'name',
  '#owner': 'owner',
  '#token': 'token',
  '#acquiredAt': 'acquiredAt',
  '#expiresAt': 'expiresAt',
  '#released': 'released',
  '#lastRunId': 'lastRunId',
  '#fencedAt': 'fencedAt',
  '#seq': 'seq',
  '#lastCommandId': 'lastCommandId',
} as const;

const toLease = (v: LeaseView): Lease => ({
  cluster: v.cluster,
  name: v.name,
  owner: v.owner,
  token: v.token,
  acquiredAt: v.acquiredAt,
  expiresAt: v.expiresAt,
});

export class Leases {
  /** `maxClockSkewMs`: the most two callers' clocks may differ (the timeline above); 0 trusts every clock. */
  constructor(
    private readonly table: Table,
    private readonly clock: Clock,
    private readonly maxClockSkewMs = 0,
  ) {
    if (!Number.isInteger(maxClockSkewMs) || maxClockSkewMs < 0)
      throw new RangeError(`lease maxClockSkewMs must be a non-negative integer, got ${maxClockSkewMs}`);
  }

  /** `r` is checked by the caller (recordInputs.acquireLease). */
  async acquire(r: LeaseRequest): Promise<Lease> {
    const now = this.clock.now().getTime();
    const expiredBy = now - this.maxClockSkewMs;
    const out = await this.table.update(leaseKey(r.cluster, r.name), {
      update:
        'SET #cluster = :cluster, #name = :name, #owner = :owner, #token = if_not_exists(#token, :zero) + :one, ' +
        `#acquiredAt = :now, #expiresAt = :expiresAt, #released = :false${r.runId ? ', #lastRunId = :runId' : ''}`,
      condition: r.runId
        ? `${LEASE_CONDITIONS.FREE} AND ${LEASE_CONDITIONS.NOT_SAME_RUN}`
        : LEASE_CONDITIONS.FREE,
      names: LEASE_NAMES_MAP,
      values: {
        ':cluster': r.cluster,
        ':name': r.name,
        ':owner': r.owner,
        ':zero': 0,
        ':one': 1,
        ':now': now,
        ':expiredBy': expiredBy,
        ':expiresAt': now + r.ttlMs,
        ':false': false,
        ':true': true,
        ':runId': r.runId ?? '',
      },
    });
    if (out.ok) return toLease(toLeaseView(out.item) as LeaseView);
    const holder = toLeaseView(out.old);
    // Lease items are never deleted, so a lost condition always has a holder; anything else is a foreign writer.
    if (!holder)
      throw new ConditionFailedError(`lease ${r.cluster}/${r.name} vanished while acquiring it`, undefined, {
        cause: out.cause,
      });
    // Our own earlier attempt won (response lost to a timeout, then retried): the lease is ours.
    if (holder.owner === r.owner && !holder.released && holder.expiresAt.getTime() > now)
      return toLease(holder);
    const sameRun = r.runId !== undefined && holder.lastRunId === r.runId;
    const heldByOther = !holder.released && holder.expiresAt.getTime() > expiredBy;
    throw new LockHeldError(holder, heldByOther || !sameRun ? 'held' : 'same-run', { cause: out.cause });
  }

  async heartbeat(fence: Fence, ttlMs: number): Promise<Lease> {
    const now = this.clock.now().getTime();
    const out = await this.table.update(leaseKey(fence.cluster, fence.name), {
      update: 'SET #expiresAt = :expiresAt',
      condition: LEASE_CONDITIONS.HELD_BY_ME,
      names: LEASE_NAMES_MAP,
      values: {
        ':owner': fence.owner,
        ':token': fence.token,
        ':false': false,
        ':now': now,
        ':expiresAt': now + ttlMs,
      },
    });
    if (!out.ok) throw new LockLostError(fence, toLeaseView(out.old), { cause: out.cause });
    return toLease(toLeaseView(out.item) as LeaseView);
  }

  async release(fence: Fence): Promise<void> {
    const now = this.clock.now().getTime();
    const out = await this.table.update(leaseKey(fence.cluster, fence.name), {
      update: 'SET #released = :true, #expiresAt = :now',
      condition: LEASE_CONDITIONS.OWNED_BY_ME,
      names: LEASE_NAMES_MAP,
      values: { ':owner': fence.owner, ':token': fence.token, ':true': true, ':now': now },
    });
    if (!out.ok) throw new LockLostError(fence, toLeaseView(out.old), { cause: out.cause });
  }

  /**
   * The fence as a transaction part: the write it travels with applies only while the lease item still names
   * this holder and token, judged when the transaction applies (so also on a late retry). `also` adds to the
   * lease item in the same transaction (the admission sequence number).
   */
  fencePart(
    fence: Fence,
    also?: { update: string; condition: string; values: Expr['values'] },
  ): TransactPart {
    const values = {
      ':owner': fence.owner,
      ':token': fence.token,
      ':false': false,
      ':now': this.clock.now().getTime(),
      ...(also?.values ?? {}),
    };
    const key = leaseKey(fence.cluster, fence.name);
    if (!also)
      return {
        kind: 'check',
        key,
        expr: { condition: LEASE_CONDITIONS.HELD_BY_ME, names: LEASE_NAMES_MAP, values },
      };
    return {
      kind: 'update',
      key,
      expr: {
        update: `SET #fencedAt = :now, ${also.update}`,
        condition: `${LEASE_CONDITIONS.HELD_BY_ME} AND ${also.condition}`,
        names: LEASE_NAMES_MAP,
        values,
      },
    };
  }

  /** Why a fenced transaction was refused: StaleWriteError when the lease is no longer this holder's. */
  async staleUnlessHeld(fence: Fence): Promise<LeaseView | undefined> {
    const current = await this.read(fence.cluster, fence.name);
    const held =
      current !== undefined &&
      current.owner === fence.owner &&
      current.token === fence.token &&
      !current.released &&
      current.expiresAt.getTime() > this.clock.now().getTime();
    if (!held) throw new StaleWriteError(fence, current);
    return current;
  }

  async read(cluster: string, name: LeaseName): Promise<LeaseView | undefined> {
    return toLeaseView(await this.table.get(leaseKey(cluster, name)));
  }

  /**
   * The fence: a conditional write on the lease item that succeeds only for the current, unexpired holder.
   * `also` adds to the same write (the admission sequence number). Returns the lease item after the write,
   * or throws StaleWriteError with the item that won.
   */
  async fence(
    fence: Fence,
    also?: {
      update: string;
      condition: string;
      values: Record<string, string | number>;
      isOwnRetry: (old: Record<string, unknown>) => boolean;
    },
  ): Promise<Record<string, unknown>> {
    const now = this.clock.now().getTime();
    const out = await this.table.update(leaseKey(fence.cluster, fence.name), {
      update: `SET #fencedAt = :now${also ? `, ${also.update}` : ''}`,
      condition: also ? `${LEASE_CONDITIONS.HELD_BY_ME} AND ${also.condition}` : LEASE_CONDITIONS.HELD_BY_ME,
      names: LEASE_NAMES_MAP,
      values: {
        ':owner': fence.owner,
        ':token': fence.token,
        ':false': false,
        ':now': now,
        ...(also?.values ?? {}),
      },
    });
    if (out.ok) return out.item;
    if (
      out.old &&
      also?.isOwnRetry(out.old) &&
      out.old.owner === fence.owner &&
      out.old.token === fence.token
    )
      return out.old;
    throw new StaleWriteError(fence, toLeaseView(out.old), { cause: out.cause });
  }
}
