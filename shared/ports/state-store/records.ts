// The StateStore's records: leases with fencing tokens, the pass state a consolidation pass loads in O(1)
// round trips, disruption commands, launch records and census results, each with the zod schema that
// guards it at the store's boundary. The vocabulary (methods, decisions, negative entries) is the core's.
import { z } from 'zod';
import { DECISIONS, METHOD_NAMES } from '../../disruption/types.ts';
import type { NegativeEntry } from '../../disruption/negative-cache.ts';
import type { ConsolidatedView } from '../../disruption/consolidated-state.ts';
import { CAPACITY_TYPES, CLOUDS } from '../../model/labels.ts';
import type { Cloud } from '../../model/labels.ts';
import type { UnavailableOffering } from '../../model/unavailable-offering.ts';
import type { CommandStatus } from './command-states.ts';

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
/** The coverage cycle of one NodePool: candidates evaluated since `cycle` started (docs/mechanisms/coverage-cycle.md). */
export interface CoverageCycle {
  readonly nodePool: string;
  readonly cycle: number;
  readonly evaluated: ReadonlySet<string>;
}
/** The core's NegativeEntry as stored; only valid while unexpired and written under the current epoch. */
export const negativeEntrySchema = z.object({
  candidate: storeName,
  fingerprint: z.string().min(1).max(4096),
  expiresAt: z.date(),
}) satisfies z.ZodType<NegativeEntry>;

/** The consolidated view as stored: a fingerprint and the time it was first seen. */
export const consolidatedViewSchema = z.object({
  fingerprint: z.string().min(1).max(256),
  since: z.date(),
  methods: z.array(z.enum(METHOD_NAMES)).min(1).max(METHOD_NAMES.length),
}) satisfies z.ZodType<ConsolidatedView>;

/** A negative entry with the epoch it was written under. */
export interface StoredNegativeEntry extends NegativeEntry {
  readonly epoch: number;
}

export const podVerdictSchema = z.object({
  podKey: storeName,
  podUid: z.string().min(1),
  reason: z.string().min(1).max(1024),
  expiresAt: z.date(),
});
/** A pending pod every NodePool rejected for a cluster-independent reason (docs/mechanisms/verdict-exclusion.md). */
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
/** An offering a launch found unavailable, remembered per cloud until `expiresAt`. */
export interface UnavailableOfferingRecord extends UnavailableOffering {
  readonly cloud: Cloud;
  readonly expiresAt: Date;
}

/**
 * Karpenter's PreviouslyUnseenNodePools (the pools a walk never reached, tried first by the next walk;
 * docs/mechanisms/coverage-cycle.md), which Karpenter keeps in process memory and kraftsman must keep here.
 * `version` fences writes as the cycle number fences the coverage cycle: 0 until the first write.
 */
export interface UnseenPools {
  readonly version: number;
  readonly pools: readonly string[];
}
/** A fleet has far fewer NodePools than this; the bound keeps the one item well below DynamoDB's 400 KB. */
export const MAX_UNSEEN_POOLS = 1000;
export const unseenPoolsSchema = z.array(storeName).max(MAX_UNSEEN_POOLS);
export const NO_UNSEEN_POOLS: UnseenPools = { version: 0, pools: [] };

/** Everything one consolidation pass reads from the store, already filtered by the reader's clock. */
export interface PassState {
  readonly epoch: number;
  readonly coverage: ReadonlyMap<string, CoverageCycle>;
  readonly unseenPools: UnseenPools;
  readonly negativeCache: ReadonlyMap<string, NegativeEntry>;
  /**
   * Stored negative entries that are not live: expired by the reader's clock or written under an older epoch.
   * A lookup reports them `expired` (or `absent`, for a cleared epoch) and the end-of-pass sweep deletes them
   * (docs/mechanisms/negative-cache.md); optional so that a reader may leave them out.
   */
  readonly negativeLeftovers?: ReadonlyMap<string, StoredNegativeEntry>;
  /** The view the last pass found consolidated, if it did (docs/mechanisms/consolidated-state.md). */
  readonly consolidated?: ConsolidatedView;
  readonly verdicts: ReadonlyMap<string, PodVerdict>;
  readonly nominations: ReadonlyMap<string, Nomination>;
  readonly unavailableOfferings: readonly UnavailableOfferingRecord[];
  readonly openCommands: readonly CommandRecord[];
}

// ── disruption commands ─────────────────────────────────────────────────────────────────────────────────
const uid = z.string().min(1).max(128);
const recordedProviderId = z.string().min(1).max(512);

/**
 * What admission saw of one candidate (docs/mechanisms/identity.md, "Commands"): orchestration drains,
 * evicts and terminates only while the Node and NodeClaim under these names are still these objects.
 */
export const candidateIdentitySchema = z.object({
  node: storeName,
  nodeUid: uid,
  /** Absent for a node without a NodeClaim. */
  claim: storeName.optional(),
  claimUid: uid.optional(),
  providerId: recordedProviderId.optional(),
});
export type CandidateIdentity = z.infer<typeof candidateIdentitySchema>;

/** A replacement NodeClaim as admission created it (its instance is in the claim's launch record). */
export const replacementIdentitySchema = z.object({ claim: storeName, claimUid: uid });
export type ReplacementIdentity = z.infer<typeof replacementIdentitySchema>;

export const commandInputSchema = z
  .object({
    id: storeName,
    method: z.enum(METHOD_NAMES),
    decision: z.enum(DECISIONS),
    /** Multi-node consolidation considers at most 100 candidates, so a command item stays far below 400 KB. */
    candidates: z.array(storeName).min(1).max(100),
    replacements: z.array(storeName).max(100),
    /** $/h the proposing pass expected to save (candidates' price − replacements'): realized when it completes. */
    savingsPerHour: z.number().finite().optional(),
    /**
     * One per candidate, in the same order. Optional only so that records written before identities were
     * recorded still read; orchestration treats such a record fail-closed (docs/functions/orchestrate.md).
     */
    identities: z.array(candidateIdentitySchema).max(100).optional(),
  })
  .refine(
    (c) =>
      c.identities === undefined ||
      (c.identities.length === c.candidates.length &&
        c.identities.every((i, k) => i.node === c.candidates[k])),
    { message: 'identities must name the candidates, in order', path: ['identities'] },
  );
export type CommandInput = z.infer<typeof commandInputSchema>;

/** A failed attempt at advancing a command: what went wrong, and not before when to try again. */
export const commandFailureSchema = z.object({
  error: z.string().min(1).max(2048),
  retryAt: z.date(),
});
export type CommandFailure = z.infer<typeof commandFailureSchema>;
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
  /** Set by the confirmation: the replacement NodeClaims as created (name and uid). */
  readonly replacementIdentities?: readonly ReplacementIdentity[];
  /** Consecutive failed attempts in the current status (a transition or a step that succeeds clears them). */
  readonly failures?: number;
  readonly lastError?: string;
  /** Orchestration leaves the command alone until then (exponential backoff). */
  readonly retryAt?: Date;
}

/** A command as admission writes it: launching, stamped with the admission lock's token and holder. */
export const admittedCommand = (fence: Fence, c: CommandInput, seq: number, now: Date): CommandRecord => ({
  ...c,
  cluster: fence.cluster,
  seq,
  status: 'launching',
  fencingToken: fence.token,
  admittedBy: fence.owner,
  createdAt: now,
  updatedAt: now,
});

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
/** A launch as it is first recorded: pending, stamped with the lease it happens under. */
export const pendingLaunch = (fence: Fence, l: LaunchInput, now: Date): LaunchRecord => ({
  ...l,
  cluster: fence.cluster,
  status: 'pending',
  fence: fence.name,
  fencingToken: fence.token,
  createdAt: now,
  updatedAt: now,
});
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

/**
 * How long a census row is listed after its sweep (docs/mechanisms/census.md): three ten-minute sweeps, so a
 * NodePool deleted since (or a census that stopped) leaves no stale row behind, while one late sweep does not
 * blank a live pool. DynamoDB's TTL removes the item later; every adapter hides it from reads at once.
 */
export const CENSUS_RETENTION_MS = 30 * 60_000;

/** Whether a census row is still listed at `now`. */
export const censusCurrent = (r: Pick<CensusResult, 'at'>, now: Date): boolean =>
  now.getTime() < r.at.getTime() + CENSUS_RETENTION_MS;

/**
 * One shard of a fanned-out census (docs/mechanisms/census.md#fan-out): the counts a census worker found for its
 * share of the candidates, per NodePool and decision, keyed by cluster, run and shard. Written once: a second
 * delivery of the same shard finds the record and adds nothing.
 */
export const censusShardSchema = z.object({
  runId: storeName,
  shard: z.number().int().min(0).max(9999),
  /** Candidates the worker simulated (the rest of its shard it counted unreached). */
  reached: z.number().int().min(0),
  nodePools: z.record(z.string(), z.record(z.string().min(1), z.number().int().min(0))),
  at: z.date(),
});
export type CensusShardRecord = z.infer<typeof censusShardSchema>;
