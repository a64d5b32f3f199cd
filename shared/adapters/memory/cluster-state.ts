// The in-memory store's data per cluster and its lease rules (free, held, same run), kept apart from the
// StateStore methods so that both stay small; the DynamoDB adapter's LEASE_CONDITIONS say the same in words.
import { LockHeldError } from '../../ports/state-store/errors.ts';
import type {
  CensusResult,
  CensusShardRecord,
  CommandRecord,
  Fence,
  LaunchRecord,
  Lease,
  LeaseName,
  LeaseView,
  Nomination,
  PodVerdict,
  UnavailableOfferingRecord,
  UnseenPools,
} from '../../ports/state-store/records.ts';
import { NO_UNSEEN_POOLS } from '../../ports/state-store/records.ts';
import type { NegativeEntry } from '../../disruption/negative-cache.ts';
import type { BackoffEntry } from '../../disruption/replacement-backoff.ts';
import type { ConsolidatedView } from '../../disruption/consolidated-state.ts';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
export type StoredLease = Mutable<LeaseView> & { seq: number };

export interface ClusterState {
  leases: Map<LeaseName, StoredLease>;
  epoch: number;
  cycles: Map<string, number>;
  unseen: UnseenPools;
  evaluated: Map<string, Map<string, number>>;
  negative: Map<string, NegativeEntry & { epoch: number }>;
  consolidated?: ConsolidatedView;
  verdicts: Map<string, PodVerdict>;
  nominations: Map<string, Nomination>;
  unavailable: Map<string, UnavailableOfferingRecord>;
  commands: Map<string, CommandRecord>;
  launches: Map<string, LaunchRecord>;
  census: Map<string, CensusResult>;
  /** Census shard results by `runId#shard` (docs/mechanisms/census.md#fan-out). */
  censusShards: Map<string, CensusShardRecord>;
  /** Replacement-failure holds by candidate (docs/mechanisms/replacement-backoff.md). */
  backoffs: Map<string, BackoffEntry>;
  /** Set once by the first deploymentId call. */
  deployment?: string;
}

/** The stored data, separable from the store so that several stores (several "containers") can share it. */
export type MemoryStateData = Map<string, ClusterState>;

export const newClusterState = (): ClusterState => ({
  leases: new Map(),
  epoch: 0,
  cycles: new Map(),
  unseen: NO_UNSEEN_POOLS,
  evaluated: new Map(),
  negative: new Map(),
  verdicts: new Map(),
  nominations: new Map(),
  unavailable: new Map(),
  commands: new Map(),
  launches: new Map(),
  census: new Map(),
  censusShards: new Map(),
  backoffs: new Map(),
});

export const isLive = (expiresAt: Date, now: Date): boolean => expiresAt.getTime() > now.getTime();

export function toLease(l: Lease): Lease {
  return {
    cluster: l.cluster,
    name: l.name,
    owner: l.owner,
    token: l.token,
    acquiredAt: l.acquiredAt,
    expiresAt: l.expiresAt,
  };
}

/** A copy, so that callers never hold the stored object. */
export function toView(l: StoredLease): LeaseView {
  return {
    ...toLease(l),
    released: l.released,
    ...(l.lastRunId !== undefined ? { lastRunId: l.lastRunId } : {}),
  };
}

export function viewOf(s: ClusterState, name: LeaseName): LeaseView | undefined {
  const l = s.leases.get(name);
  return l ? toView(l) : undefined;
}

/** Free, expired or released leases are taken with the next token; a retry by the holder gets its lease. */
export function acquire(
  s: ClusterState,
  r: { cluster: string; name: LeaseName; owner: string; ttlMs: number; runId?: string | undefined },
  now: Date,
): StoredLease {
  const old = s.leases.get(r.name);
  if (old && old.owner === r.owner && !old.released && isLive(old.expiresAt, now)) return old;
  if (old && !old.released && isLive(old.expiresAt, now)) throw new LockHeldError(toView(old), 'held');
  if (old && r.runId !== undefined && old.lastRunId === r.runId)
    throw new LockHeldError(toView(old), 'same-run');
  const next: StoredLease = {
    cluster: r.cluster,
    name: r.name,
    owner: r.owner,
    token: (old?.token ?? 0) + 1,
    acquiredAt: now,
    expiresAt: new Date(now.getTime() + r.ttlMs),
    released: false,
    lastRunId: r.runId ?? old?.lastRunId,
    seq: old?.seq ?? 0,
  };
  s.leases.set(r.name, next);
  return next;
}

/** The fence: the current, unexpired holder with this token, or undefined. */
export function heldBy(s: ClusterState, fence: Fence, now: Date): StoredLease | undefined {
  const l = s.leases.get(fence.name);
  const held =
    l && l.owner === fence.owner && l.token === fence.token && !l.released && isLive(l.expiresAt, now);
  return held ? l : undefined;
}
