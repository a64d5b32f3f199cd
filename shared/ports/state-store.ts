// StateStore port: kraftsman's durable memory (DESIGN.md §2–3): leases with fencing tokens, the pass state a
// consolidation pass loads in O(1) round trips, disruption commands, launch records and census results.
// Implemented by shared/adapters/dynamodb and shared/adapters/memory; one contract suite (test/contracts/state-store).
import { z } from 'zod';
import { CAPACITY_TYPES, CLOUDS } from '../model/labels.ts';
import type { CapacityType, Cloud } from '../model/labels.ts';

// ── names ───────────────────────────────────────────────────────────────────────────────────────────────
/** Keys are built from these, so '#' (the key separator) and empty strings are refused at the boundary. */
export const storeName = z
  .string()
  .min(1)
  .max(253)
  .regex(/^[^#\s]+$/, 'must be non-empty, without "#" or spaces');

export const ADMISSION_LOCK = 'admission' as const;
export const PASS_LEASES = [
  'consolidation',
  'provisioning',
  'orchestration',
  'lifecycle',
  'census',
  'pricing',
] as const;
export type PassLeaseName = (typeof PASS_LEASES)[number];
export const LEASE_NAMES = [ADMISSION_LOCK, ...PASS_LEASES] as const;
export type LeaseName = (typeof LEASE_NAMES)[number];

// ── leases ──────────────────────────────────────────────────────────────────────────────────────────────
export const leaseRequestSchema = z.object({
  cluster: storeName,
  name: z.enum(LEASE_NAMES),
  /** Unique per invocation (e.g. the Lambda request id): a retried acquire recognises its own win by it. */
  owner: storeName,
  ttlMs: z.number().int().min(1).max(3_600_000),
  /** The schedule's event id: a second firing of the same run is refused even after the first released. */
  runId: storeName.optional(),
});
export type LeaseRequest = z.input<typeof leaseRequestSchema>;

export const fenceSchema = z.object({
  cluster: storeName,
  name: z.enum(LEASE_NAMES),
  owner: storeName,
  token: z.number().int().min(1),
});
/** What a holder carries into every fenced write. */
export interface Fence {
  readonly cluster: string;
  readonly name: LeaseName;
  readonly owner: string;
  /** Monotonically increasing per cluster + lease name, across holders. */
  readonly token: number;
}
export interface Lease extends Fence {
  readonly acquiredAt: Date;
  readonly expiresAt: Date;
}
export const LEASE_STATUSES = ['held', 'expired', 'released'] as const;
export type LeaseStatus = (typeof LEASE_STATUSES)[number];
export interface LeaseView extends Lease {
  readonly released: boolean;
  readonly lastRunId?: string;
}
/** Status is derived from the clock, never stored (Powertools idempotency). */
export function leaseStatus(view: LeaseView, now: Date): LeaseStatus {
  if (view.released) return 'released';
  return view.expiresAt.getTime() > now.getTime() ? 'held' : 'expired';
}

// ── pass state ──────────────────────────────────────────────────────────────────────────────────────────
/** The coverage cycle of one NodePool: candidates evaluated since `cycle` started (seed, "Surviving the timeout"). */
export interface CoverageCycle {
  readonly nodePool: string;
  readonly cycle: number;
  readonly evaluated: ReadonlySet<string>;
}
export const negativeEntrySchema = z.object({
  candidate: storeName,
  fingerprint: z.string().min(1).max(4096),
  expiresAt: z.date(),
});
/** A remembered no-op verdict; only valid while unexpired and written under the current epoch. */
export type NegativeEntry = z.infer<typeof negativeEntrySchema>;

export const podVerdictSchema = z.object({
  podKey: storeName,
  podUid: z.string().min(1),
  reason: z.string().min(1).max(1024),
  expiresAt: z.date(),
});
/** A pending pod every NodePool rejected for a cluster-independent reason (seed, "Sharing the pass"). */
export type PodVerdict = z.infer<typeof podVerdictSchema>;

export const nominationSchema = z
  .object({
    podKey: storeName,
    nodeName: storeName.optional(),
    claimName: storeName.optional(),
    expiresAt: z.date(),
  })
  .refine((n) => n.nodeName !== undefined || n.claimName !== undefined, {
    message: 'needs nodeName or claimName',
  });
export type Nomination = z.infer<typeof nominationSchema>;

export const unavailableOfferingSchema = z.object({
  cloud: z.enum(CLOUDS),
  instanceType: storeName,
  zone: storeName,
  capacityType: z.enum(CAPACITY_TYPES),
  reason: z.string().min(1).max(1024),
  expiresAt: z.date(),
});
export interface UnavailableOffering {
  readonly cloud: Cloud;
  readonly instanceType: string;
  readonly zone: string;
  readonly capacityType: CapacityType;
  readonly reason: string;
  readonly expiresAt: Date;
}

/** Everything one consolidation pass reads from the store, already filtered by the reader's clock. */
export interface PassState {
  readonly epoch: number;
  readonly coverage: ReadonlyMap<string, CoverageCycle>;
  readonly negativeCache: ReadonlyMap<string, NegativeEntry>;
  readonly verdicts: ReadonlyMap<string, PodVerdict>;
  readonly nominations: ReadonlyMap<string, Nomination>;
  readonly unavailableOfferings: readonly UnavailableOffering[];
  readonly openCommands: readonly CommandRecord[];
}

// ── disruption commands ─────────────────────────────────────────────────────────────────────────────────
export const DISRUPTION_METHODS = [
  'emptiness',
  'drift',
  'multi-node-consolidation',
  'single-node-consolidation',
  'expiration',
] as const;
export type DisruptionMethod = (typeof DISRUPTION_METHODS)[number];
export const DECISIONS = ['delete', 'replace'] as const;
export type Decision = (typeof DECISIONS)[number];
export const COMMAND_STATUSES = [
  'launching',
  'draining',
  'rolling-back',
  'completed',
  'rolled-back',
] as const;
export type CommandStatus = (typeof COMMAND_STATUSES)[number];
export const OPEN_COMMAND_STATUSES: readonly CommandStatus[] = ['launching', 'draining', 'rolling-back'];
/** The queue's state machine (Karpenter's orchestration queue): replacements launch, candidates drain, or roll back. */
export const COMMAND_TRANSITIONS: Readonly<Record<CommandStatus, readonly CommandStatus[]>> = {
  launching: ['draining', 'rolling-back'],
  draining: ['completed', 'rolling-back'],
  'rolling-back': ['rolled-back'],
  completed: [],
  'rolled-back': [],
};

export const commandInputSchema = z.object({
  id: storeName,
  method: z.enum(DISRUPTION_METHODS),
  decision: z.enum(DECISIONS),
  /** Multi-node consolidation considers at most 100 candidates, so a command item stays far below 400 KB. */
  candidates: z.array(storeName).min(1).max(100),
  replacements: z.array(storeName).max(100),
});
export type CommandInput = z.infer<typeof commandInputSchema>;
export interface CommandRecord extends CommandInput {
  readonly cluster: string;
  /** Position in the cluster's admission sequence: strictly increasing, allocated under the admission lock. */
  readonly seq: number;
  readonly status: CommandStatus;
  readonly fencingToken: number;
  readonly admittedBy: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  /**
   * Set by the admitter's fenced confirmation once every admission step (taint, claims, launches) is done.
   * Orchestration drains only confirmed commands; an unconfirmed one past the admission budget is rolled back.
   */
  readonly confirmedAt?: Date;
}

// ── launches and census ─────────────────────────────────────────────────────────────────────────────────
export const launchInputSchema = z.object({
  claimName: storeName,
  cloud: z.enum(CLOUDS),
  nodePool: storeName,
  commandId: storeName.optional(),
});
export type LaunchInput = z.infer<typeof launchInputSchema>;
export const LAUNCH_STATUSES = ['pending', 'launched', 'failed'] as const;
export type LaunchStatus = (typeof LAUNCH_STATUSES)[number];
export interface LaunchRecord extends LaunchInput {
  readonly cluster: string;
  readonly status: LaunchStatus;
  readonly fence: LeaseName;
  readonly fencingToken: number;
  readonly providerId?: string;
  readonly error?: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}
export const launchOutcomeSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('launched'), providerId: z.string().min(1) }),
  z.object({ status: z.literal('failed'), error: z.string().min(1).max(4096) }),
]);
export type LaunchOutcome = z.infer<typeof launchOutcomeSchema>;

export const censusResultSchema = z.object({
  nodePool: storeName,
  candidates: z.number().int().min(0),
  counts: z.record(z.string().min(1), z.number().int().min(0)),
  at: z.date(),
});
export type CensusResult = z.infer<typeof censusResultSchema>;

// ── the port ────────────────────────────────────────────────────────────────────────────────────────────
export interface StateStore {
  /** Takes a free or expired lease; LockHeldError (carrying the holder) otherwise. Retrying a won acquire is safe. */
  acquireLease(request: LeaseRequest): Promise<Lease>;
  /** Extends a lease still held; LockLostError once it expired or was taken over. */
  heartbeatLease(lease: Fence, ttlMs: number): Promise<Lease>;
  /** Releases if still ours; after a takeover it changes nothing and throws LockLostError (the new holder keeps it). */
  releaseLease(lease: Fence): Promise<void>;
  readLease(cluster: string, name: LeaseName): Promise<LeaseView | undefined>;

  /** The O(1)-round-trip read of step 3 of a pass (DESIGN.md §3). */
  loadPassState(cluster: string): Promise<PassState>;
  /** Begins a new coverage cycle iff the stored cycle is still `expected` (ConditionFailedError otherwise). */
  startCoverageCycle(cluster: string, nodePool: string, expected: number): Promise<number>;
  markEvaluated(
    cluster: string,
    nodePool: string,
    cycle: number,
    candidates: readonly string[],
  ): Promise<void>;
  /** Entries are stamped with the epoch the pass read, so a clear that raced the pass wins. */
  putNegativeEntries(cluster: string, epoch: number, entries: readonly NegativeEntry[]): Promise<void>;
  deleteNegativeEntries(cluster: string, candidates: readonly string[]): Promise<void>;
  /** One write: bumps the epoch, which invalidates every entry written before it. Returns the new epoch. */
  clearNegativeCache(cluster: string): Promise<number>;
  putVerdicts(cluster: string, verdicts: readonly PodVerdict[]): Promise<void>;
  putNominations(cluster: string, nominations: readonly Nomination[]): Promise<void>;
  deleteNominations(cluster: string, podKeys: readonly string[]): Promise<void>;
  putUnavailableOfferings(cluster: string, offerings: readonly UnavailableOffering[]): Promise<void>;

  /** Fenced on the admission lock: allocates the next sequence number; StaleWriteError for a stale token. */
  admitCommand(fence: Fence, command: CommandInput): Promise<CommandRecord>;
  /** Fenced on the admitting holder (same token and owner): marks a `launching` command as fully started. */
  confirmCommand(fence: Fence, id: string): Promise<CommandRecord>;
  getCommand(cluster: string, id: string): Promise<CommandRecord | undefined>;
  findCommandsByCandidate(cluster: string, candidate: string): Promise<CommandRecord[]>;
  listCommandsByStatus(cluster: string, status: CommandStatus): Promise<CommandRecord[]>;
  /** Conditional on `from`; moving to `completed` clears the negative cache first (seed, "Remembering no-ops"). */
  transitionCommand(
    cluster: string,
    id: string,
    from: CommandStatus,
    to: CommandStatus,
  ): Promise<CommandRecord>;

  /** Idempotent per NodeClaim and fenced on `fence`: `created` is false when the record already existed. */
  recordLaunch(fence: Fence, launch: LaunchInput): Promise<{ record: LaunchRecord; created: boolean }>;
  completeLaunch(cluster: string, claimName: string, outcome: LaunchOutcome): Promise<LaunchRecord>;
  getLaunch(cluster: string, claimName: string): Promise<LaunchRecord | undefined>;

  putCensus(cluster: string, results: readonly CensusResult[]): Promise<void>;
  listCensus(cluster: string): Promise<CensusResult[]>;
}

// ── errors ──────────────────────────────────────────────────────────────────────────────────────────────
export class StateStoreError extends Error {
  override readonly name: string = 'StateStoreError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
/** The lease is held by someone else (or this run already ran): `holder` is the winning item. */
export class LockHeldError extends StateStoreError {
  override readonly name = 'LockHeldError';
  constructor(
    readonly holder: LeaseView,
    readonly reason: 'held' | 'same-run',
    options?: { cause?: unknown },
  ) {
    super(
      `lease ${holder.cluster}/${holder.name} ${reason === 'held' ? `is held by ${holder.owner} (token ${holder.token})` : `already ran run ${holder.lastRunId}`}`,
      options,
    );
  }
}
/** A heartbeat or release for a lease that expired or was taken over: `current` is what the store holds. */
export class LockLostError extends StateStoreError {
  override readonly name = 'LockLostError';
  constructor(
    readonly fence: Fence,
    readonly current: LeaseView | undefined,
    options?: { cause?: unknown },
  ) {
    super(
      `lease ${fence.cluster}/${fence.name} token ${fence.token} is no longer held by ${fence.owner}${current ? ` (now ${current.owner}, token ${current.token})` : ''}`,
      options,
    );
  }
}
/** A fenced write from a stale holder was refused: `current` is the lease item that won. */
export class StaleWriteError extends StateStoreError {
  override readonly name = 'StaleWriteError';
  constructor(
    readonly fence: Fence,
    readonly current: LeaseView | undefined,
    options?: { cause?: unknown },
  ) {
    super(
      `write fenced by ${fence.cluster}/${fence.name} token ${fence.token} refused: ${current ? `current token ${current.token} held by ${current.owner}` : 'no lease'}`,
      options,
    );
  }
}
/** A conditional write lost: `current` is the item that made the condition fail (undefined if absent). */
export class ConditionFailedError<T = unknown> extends StateStoreError {
  override readonly name = 'ConditionFailedError';
  constructor(
    message: string,
    readonly current: T | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
/** Bad input to the store, named by method and field. */
export class InvalidStateInputError extends StateStoreError {
  override readonly name = 'InvalidStateInputError';
}
/** An item the store read does not parse: a bug or a foreign writer. */
export class CorruptItemError extends StateStoreError {
  override readonly name = 'CorruptItemError';
}
/** The backing service failed (after retries for throttling and timeouts); the SDK error is the `cause`. */
export class StoreUnavailableError extends StateStoreError {
  override readonly name = 'StoreUnavailableError';
}

/** Parses store input with zod and names the method and field on failure. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue && issue.path.length > 0 ? `.${issue.path.join('.')}` : '';
  throw new InvalidStateInputError(`${where}${path}: ${issue?.message ?? 'invalid'}`, {
    cause: result.error,
  });
}
