// Runs work under a pass lease, written once for every function: acquire → heartbeat → release.
//
//   t0 acquire (token n, expires t0+ttl) ──▶ work(lease) ─────────────────────────────▶ release
//        └─ every heartbeatMs: heartbeat extends to now+ttl
//             └─ LockLostError (expired and taken over): lease.signal aborts, work stops; fenced writes
//                with token n are refused by the store anyway (StaleWriteError), so a slow holder is safe
//   a failed heartbeat (store unavailable) is retried on the next beat; once the last good expiry passes
//   without one, the lease counts as lost.
// An overlapping start finds the lease held and returns `held` at once: that is a normal outcome, not a failure.
import type { Clock } from '../ports/clock.ts';
import type { Logger } from '../ports/logger.ts';
import { LockHeldError, LockLostError } from '../ports/state-store/errors.ts';
import type { StateStore } from '../ports/state-store/index.ts';
import type { Fence, LeaseName, LeaseView } from '../ports/state-store/records.ts';
import type { Timer } from '../ports/timer.ts';

export interface LeaseDeps {
  readonly store: StateStore;
  readonly clock: Clock;
  readonly timer: Timer;
  readonly logger: Logger;
}

export interface LeaseSpec {
  readonly cluster: string;
  readonly name: LeaseName;
  /** leaseOwner(requestId, nonce): unique per attempt, so a redelivered event never shares a live lease. */
  readonly owner: string;
  readonly ttlMs: number;
  /** Defaults to a third of the TTL: two beats may fail before the lease can expire. */
  readonly heartbeatMs?: number;
  /** The scheduled event's id: a second delivery of the same run is refused even after the first released. */
  readonly runId?: string;
}

export interface HeldLease {
  readonly fence: Fence;
  /** Aborts when the lease is lost; long work checks it between steps. */
  readonly signal: AbortSignal;
}

export type LeaseRun<T> =
  | { readonly outcome: 'ran'; readonly value: T; readonly lost: boolean }
  | { readonly outcome: 'held'; readonly holder: LeaseView; readonly reason: 'held' | 'same-run' };

/** A lease owner the store accepts: the request id (without '#' or spaces) and a per-attempt nonce. */
export function leaseOwner(requestId: string, nonce: string): string {
  const clean = (s: string) => s.replace(/[#\s]/g, '_');
  return `${clean(requestId)}.${clean(nonce)}`.slice(0, 253);
}

export async function withLease<T>(
  deps: LeaseDeps,
  spec: LeaseSpec,
  work: (lease: HeldLease) => Promise<T>,
): Promise<LeaseRun<T>> {
  let lease;
  try {
    lease = await deps.store.acquireLease({
      cluster: spec.cluster,
      name: spec.name,
      owner: spec.owner,
      ttlMs: spec.ttlMs,
      ...(spec.runId ? { runId: spec.runId } : {}),
    });
  } catch (err: unknown) {
    if (err instanceof LockHeldError) return { outcome: 'held', holder: err.holder, reason: err.reason };
    throw err;
  }
  const fence: Fence = { cluster: lease.cluster, name: lease.name, owner: lease.owner, token: lease.token };
  const lost = new AbortController();
  const stop = new AbortController();
  const beating = heartbeat(deps, spec, fence, lease.expiresAt, lost, stop.signal);
  try {
    const value = await work({ fence, signal: lost.signal });
    return { outcome: 'ran', value, lost: lost.signal.aborted };
  } finally {
    stop.abort();
    await beating;
    await release(deps, fence, lost.signal.aborted);
  }
}

async function heartbeat(
  deps: LeaseDeps,
  spec: LeaseSpec,
  fence: Fence,
  firstExpiry: Date,
  lost: AbortController,
  stop: AbortSignal,
): Promise<void> {
  const every = spec.heartbeatMs ?? Math.max(1, Math.floor(spec.ttlMs / 3));
  let expiresAt = firstExpiry;
  while (!stop.aborted && !lost.signal.aborted) {
    await deps.timer.sleep(every, stop);
    if (stop.aborted) return;
    try {
      expiresAt = (await deps.store.heartbeatLease(fence, spec.ttlMs)).expiresAt;
    } catch (err: unknown) {
      const gone = err instanceof LockLostError || deps.clock.now() >= expiresAt;
      deps.logger.warn(gone ? 'lease lost' : 'lease heartbeat failed; retrying on the next beat', {
        lease: fence.name,
        token: fence.token,
        error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
      });
      if (gone) lost.abort();
    }
  }
}

/** After a takeover the release changes nothing (the new holder keeps the lease): not an error here. */
async function release(deps: LeaseDeps, fence: Fence, wasLost: boolean): Promise<void> {
  try {
    await deps.store.releaseLease(fence);
  } catch (err: unknown) {
    if (err instanceof LockLostError) {
      if (!wasLost)
        deps.logger.warn('lease expired before release', { lease: fence.name, token: fence.token });
      return;
    }
    throw err;
  }
}
