// The pass options consolidate runs with and admit re-validates with, from the environment: the walk budgets
// (Karpenter's 1 min multi-node, 3 min single-node, 10 s per candidate), how many proposals a walk holds, and
// the kraftsman differences (upstream off). Both functions read the same keys, so a proposal is re-validated
// under the options that produced it (docs/mechanisms/candidate-budget.md, docs/mechanisms/batched-admission.md).
import { z } from 'zod';
import { MAX_PROPOSALS } from '../disruption/proposal.ts';
import { passOptions, type PassOptions } from '../disruption/types.ts';
import { durationMs, flag } from './env.ts';

/** A whole number from an environment string, within [min, max]. */
export const intInRange = (fallback: number, min: number, max: number) =>
  z
    .string()
    .default(String(fallback))
    .transform((text, ctx) => {
      const n = Number(text.trim());
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `"${text}" is not a whole number from ${min} to ${max}` });
        return z.NEVER;
      }
      return n;
    });

export const disruptionEnv = {
  KRAFTSMAN_UPSTREAM: flag(false),
  KRAFTSMAN_MULTI_NODE_TIMEOUT: durationMs('1m'),
  KRAFTSMAN_SINGLE_NODE_TIMEOUT: durationMs('3m'),
  KRAFTSMAN_CANDIDATE_TIMEOUT: durationMs('10s'),
  KRAFTSMAN_NEGATIVE_CACHE_TTL: durationMs('5m'),
  /** Proposals one single-node walk may hold; 1 is Karpenter's, at most what one admit event carries. */
  KRAFTSMAN_MAX_COMMANDS: intInRange(1, 1, MAX_PROPOSALS),
  KRAFTSMAN_SPOT_TO_SPOT: flag(false),
  /** Off: the negative cache only observes (docs/mechanisms/negative-cache.md); on, a hit skips the simulation. */
  KRAFTSMAN_SKIP_UNCHANGED_NEGATIVES: flag(false),
  KRAFTSMAN_INSTANCE_TYPES_TTL: durationMs('5m'),
};

type DisruptionEnv = z.output<z.ZodObject<typeof disruptionEnv>>;

export function disruptionOptions(e: DisruptionEnv): PassOptions {
  return passOptions({
    upstream: e.KRAFTSMAN_UPSTREAM,
    multiNodeTimeoutMs: e.KRAFTSMAN_MULTI_NODE_TIMEOUT,
    singleNodeTimeoutMs: e.KRAFTSMAN_SINGLE_NODE_TIMEOUT,
    candidateTimeoutMs: e.KRAFTSMAN_CANDIDATE_TIMEOUT,
    negativeCacheTtlMs: e.KRAFTSMAN_NEGATIVE_CACHE_TTL,
    maxCommands: e.KRAFTSMAN_MAX_COMMANDS,
    spotToSpot: e.KRAFTSMAN_SPOT_TO_SPOT,
    skipUnchangedNegatives: e.KRAFTSMAN_SKIP_UNCHANGED_NEGATIVES,
  });
}
