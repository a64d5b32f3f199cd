// What the CLI's discovery workers receive and send back (docs/mechanisms/parallel-discovery.md): the parsed input
// as plain data (never live objects), one task per candidate, and a verdict or an error per task, checked by zod.
import { z } from 'zod';
import type { ClusterObjects } from '../../../shared/state/objects.ts';
import type { InstanceTypeSpec } from '../../../shared/model/catalog.ts';
import type { PassOptions } from '../../../shared/disruption/types.ts';
import { SKIP_REASONS, METHOD_NAMES, DECISIONS } from '../../../shared/disruption/types.ts';
import type { CensusEntry } from '../../../shared/disruption/census.ts';
import type { SpeculativeVerdict } from '../../../shared/disruption/speculation.ts';

/** Everything a worker needs to rebuild the consumer's pass or census context. */
export interface WorkerInit {
  readonly command: 'plan' | 'census';
  readonly objects: ClusterObjects;
  readonly instanceTypes: readonly InstanceTypeSpec[];
  readonly now: string;
  readonly options: PassOptions;
  readonly claimedByCommands: readonly string[];
}

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
