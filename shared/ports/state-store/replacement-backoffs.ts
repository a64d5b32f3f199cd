// The replacement backoff's entries as the StateStore keeps them (docs/mechanisms/replacement-backoff.md): one
// per candidate node, written by orchestration when a command's replacement fails, read by every pass. What the
// methods accept is checked here once for every adapter (InvalidStateInputError names method and argument).
import { z } from 'zod';
import type { BackoffEntry } from '../../disruption/replacement-backoff.ts';
import { parseInput } from './errors.ts';
import { storeName } from './records.ts';

export const backoffEntrySchema = z
  .object({
    candidate: storeName,
    nodePool: storeName,
    fingerprint: z.string().min(1).max(256),
    failures: z.number().int().min(1).max(1_000_000),
    lastFailure: z.date(),
    until: z.date(),
    expiresAt: z.date(),
  })
  .refine((e) => e.until.getTime() >= e.lastFailure.getTime(), {
    message: 'until must not be before lastFailure',
    path: ['until'],
  }) satisfies z.ZodType<BackoffEntry>;

/** An entry to delete only while it still holds this fingerprint (a newer failure's entry is kept). */
export const backoffReleaseSchema = z.object({
  candidate: storeName,
  fingerprint: z.string().min(1).max(256),
});
export type BackoffRelease = z.infer<typeof backoffReleaseSchema>;

/** A fleet's candidates are bounded by its nodes; one call stays well inside a Lambda's time. */
const MAX_ENTRIES = 10_000;

export const backoffInputs = {
  put: (entries: readonly BackoffEntry[]): BackoffEntry[] =>
    parseInput(z.array(backoffEntrySchema).max(MAX_ENTRIES), entries, 'putReplacementBackoffs.entries'),
  release: (releases: readonly BackoffRelease[]): BackoffRelease[] =>
    parseInput(
      z.array(backoffReleaseSchema).max(MAX_ENTRIES),
      releases,
      'deleteReplacementBackoffs.releases',
    ),
};
