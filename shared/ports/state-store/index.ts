// StateStore port: kraftsman's durable memory (docs/architecture.md, "Where state lives"). The interface is
// here; its records are in records.ts, its errors in errors.ts and the command state machine in
// command-states.ts. Implemented by shared/adapters/dynamodb and shared/adapters/memory; one contract suite
// (test/contracts/state-store).
import type { NegativeEntry } from '../../disruption/negative-cache.ts';
import type { BackoffEntry } from '../../disruption/replacement-backoff.ts';
import type { ConsolidatedView } from '../../disruption/consolidated-state.ts';
import type { CommandStatus } from './command-states.ts';
import type { BackoffRelease } from './replacement-backoffs.ts';
import type {
  CensusResult,
  CensusShardRecord,
  CommandFailure,
  CommandInput,
  CommandRecord,
  Fence,
  LaunchInput,
  LaunchOutcome,
  LaunchRecord,
  Lease,
  LeaseName,
  LeaseRequest,
  LeaseView,
  Nomination,
  PassState,
  PodVerdict,
  ReplacementIdentity,
  UnavailableOfferingRecord,
} from './records.ts';

export interface StateStore {
  /** Takes a free or expired lease; LockHeldError (carrying the holder) otherwise. Retrying a won acquire is safe. */
  acquireLease(request: LeaseRequest): Promise<Lease>;
  /** Extends a lease still held; LockLostError once it expired or was taken over. */
  heartbeatLease(lease: Fence, ttlMs: number): Promise<Lease>;
  /** Releases if still ours; after a takeover it changes nothing and throws LockLostError (the new holder keeps it). */
  releaseLease(lease: Fence): Promise<void>;
  readLease(cluster: string, name: LeaseName): Promise<LeaseView | undefined>;

  /** The O(1)-round-trip read of step 3 of a pass (docs/architecture.md, "One consolidation pass"). */
  loadPassState(cluster: string): Promise<PassState>;
  /** Begins a new coverage cycle iff the stored cycle is still `expected` (ConditionFailedError otherwise). */
  startCoverageCycle(cluster: string, nodePool: string, expected: number): Promise<number>;
  markEvaluated(
    cluster: string,
    nodePool: string,
    cycle: number,
    candidates: readonly string[],
  ): Promise<void>;
  /**
   * Replaces the unseen-pools memory iff its stored version is still `expected` (ConditionFailedError carrying
   * the current version otherwise); returns the new version. Retrying a write that already applied is safe.
   */
  putUnseenPools(cluster: string, expected: number, pools: readonly string[]): Promise<number>;
  /** Entries are stamped with the epoch the pass read, so a clear that raced the pass wins. */
  putNegativeEntries(cluster: string, epoch: number, entries: readonly NegativeEntry[]): Promise<void>;
  deleteNegativeEntries(cluster: string, candidates: readonly string[]): Promise<void>;
  /** One write: bumps the epoch, which invalidates every entry written before it. Returns the new epoch. */
  clearNegativeCache(cluster: string): Promise<number>;
  /** Stores the view a pass found consolidated, or forgets it (`undefined`): docs/mechanisms/consolidated-state.md. */
  putConsolidatedView(cluster: string, view: ConsolidatedView | undefined): Promise<void>;
  putVerdicts(cluster: string, verdicts: readonly PodVerdict[]): Promise<void>;
  putNominations(cluster: string, nominations: readonly Nomination[]): Promise<void>;
  deleteNominations(cluster: string, podKeys: readonly string[]): Promise<void>;
  putUnavailableOfferings(cluster: string, offerings: readonly UnavailableOfferingRecord[]): Promise<void>;

  /**
   * Fenced on the admission lock: allocates the next sequence number; StaleWriteError for a stale token. Clears
   * the negative cache (docs/mechanisms/negative-cache.md).
   */
  admitCommand(fence: Fence, command: CommandInput): Promise<CommandRecord>;
  /**
   * Fenced on the admitting holder (same token and owner): marks a `launching` command as fully started and
   * records its replacement NodeClaims as created (name and uid).
   */
  confirmCommand(
    fence: Fence,
    id: string,
    replacements?: readonly ReplacementIdentity[],
  ): Promise<CommandRecord>;
  getCommand(cluster: string, id: string): Promise<CommandRecord | undefined>;
  findCommandsByCandidate(cluster: string, candidate: string): Promise<CommandRecord[]>;
  listCommandsByStatus(cluster: string, status: CommandStatus): Promise<CommandRecord[]>;
  /** Conditional on `from`; ending a command (completed, failed, rolled back) clears the negative cache first (docs/mechanisms/negative-cache.md). */
  transitionCommand(
    cluster: string,
    id: string,
    from: CommandStatus,
    to: CommandStatus,
  ): Promise<CommandRecord>;
  /**
   * Conditional on `from` (ConditionFailedError once the command moved): counts one more failed attempt at
   * the command, with its error and when to try again; with `undefined`, forgets the failed attempts after a
   * step that succeeded. A transition forgets them too.
   */
  recordCommandFailure(
    cluster: string,
    id: string,
    from: CommandStatus,
    failure: CommandFailure | undefined,
  ): Promise<CommandRecord>;

  /** Idempotent per NodeClaim and fenced on `fence`: `created` is false when the record already existed. */
  recordLaunch(fence: Fence, launch: LaunchInput): Promise<{ record: LaunchRecord; created: boolean }>;
  completeLaunch(cluster: string, claimName: string, outcome: LaunchOutcome): Promise<LaunchRecord>;
  getLaunch(cluster: string, claimName: string): Promise<LaunchRecord | undefined>;

  /**
   * This deployment's id (docs/mechanisms/identity.md#instances): `candidate` is stored if no id is yet (a
   * conditional put-if-absent), and the stored id is returned either way, so racing first users agree on one.
   */
  deploymentId(cluster: string, candidate: string): Promise<string>;

  /**
   * Replacement-failure holds (docs/mechanisms/replacement-backoff.md), keyed by candidate: a put replaces the
   * candidate's entry; a list hides entries past their expiresAt; a release deletes an entry only while it
   * still has the fingerprint given, so a failure recorded meanwhile is kept.
   */
  listReplacementBackoffs(cluster: string): Promise<BackoffEntry[]>;
  putReplacementBackoffs(cluster: string, entries: readonly BackoffEntry[]): Promise<void>;
  deleteReplacementBackoffs(cluster: string, releases: readonly BackoffRelease[]): Promise<void>;

  putCensus(cluster: string, results: readonly CensusResult[]): Promise<void>;
  listCensus(cluster: string): Promise<CensusResult[]>;

  /**
   * A census worker's shard results (docs/mechanisms/census.md#fan-out), put only if absent: `created` is false
   * when this run's shard was already stored (a second delivery), and the stored record is left as it was.
   */
  putCensusShard(cluster: string, shard: CensusShardRecord): Promise<{ created: boolean }>;
  /** Every stored shard of one census run, by shard number. */
  listCensusShards(cluster: string, runId: string): Promise<CensusShardRecord[]>;
}
