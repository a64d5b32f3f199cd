// What discovery workers receive and send back (docs/mechanisms/parallel-discovery.md): the parsed input
// as plain data (never live objects), one task per candidate, and a verdict or an error per task, checked by zod.
import { z } from 'zod';
import type { ClusterObjects } from '../../state/objects.ts';
import type { SnapshotOptions } from '../../state/snapshot.ts';
import type { InstanceTypeSpec } from '../../model/catalog.ts';
import type { PassOptions } from '../../disruption/types.ts';
import { SKIP_REASONS, METHOD_NAMES, DECISIONS } from '../../disruption/types.ts';
import type { CensusEntry } from '../../disruption/census.ts';
import type { SpeculativeVerdict } from '../../disruption/speculation.ts';

/** Everything a worker needs to rebuild the consumer's pass or census context. */
export interface WorkerInit {
  readonly command: 'plan' | 'census';
  readonly objects: ClusterObjects;
  readonly instanceTypes: readonly InstanceTypeSpec[];
  /** As the consumer built its snapshot: the CLI's static catalog, or the running loop's pool readiness. */
  readonly snapshotOptions: SnapshotOptions;
  readonly now: string;
  readonly options: PassOptions;
  readonly claimedByCommands: readonly string[];
  /** podKeys the provisioner found incompatible with every NodePool (the Lambda's pass only). */
  readonly verdicts?: readonly string[];
  /** In-flight NodeClaims the consumer's sync gate ran past: left out of the rebuilt snapshot. */
  readonly runPast?: readonly string[];
}

/** Marks a worker thread started on a Lambda bundle (the handler itself): it serves discovery, not invocations. */
export const DISCOVERY_WORKER = 'kraftsmanDiscoveryWorker';

/**
 * One candidate to simulate with `held` gone, for generation `gen` (a worker skips a task of an older one). `at` is
 * its slot in the claims: a worker takes the task only if it claims the slot first (the consumer may take it back).
 */
export interface WorkerTask {
  readonly kind: 'task';
  readonly name: string;
  readonly held: readonly string[];
  readonly gen: number;
  readonly at: number;
}

/** Sent at the start of a walk or census: one Int32 slot per candidate, 0 free, CLAIMED_BY_* once taken. */
export interface WorkerClaims {
  readonly kind: 'claims';
  readonly claims: SharedArrayBuffer;
}

export const CLAIMED_BY_WORKER = 1;
export const CLAIMED_BY_CONSUMER = 2;

/** Slots of the shared Int32Array: replies posted so far (the consumer waits on it), and the current generation. */
export const SIGNAL = { replies: 0, generation: 1 } as const;

export const replySchema = z.union([
  z.object({ name: z.string(), gen: z.number().int(), verdict: z.unknown().optional() }).strict(),
  z.object({ error: z.string() }).strict(),
]);
export type WorkerReply = z.infer<typeof replySchema>;

export const walkVerdictSchema: z.ZodType<SpeculativeVerdict> = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('no-op'),
    candidate: z.string(),
    held: z.array(z.string()),
    reason: z.enum(SKIP_REASONS),
    detail: z.string(),
  }),
  z.object({ kind: z.literal('command-found'), candidate: z.string(), held: z.array(z.string()) }),
  z.object({ kind: z.literal('timed-out'), candidate: z.string(), held: z.array(z.string()) }),
]);

export const censusEntrySchema: z.ZodType<CensusEntry> = z
  .object({
    node: z.string(),
    nodePool: z.string(),
    decision: z.enum([...DECISIONS, 'none']),
    method: z.enum(METHOD_NAMES).optional(),
    reason: z.enum(SKIP_REASONS).optional(),
    savingsPerHour: z.number().optional(),
  })
  .strict();
