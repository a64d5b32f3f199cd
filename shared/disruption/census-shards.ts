// The census split into shards and merged back (docs/mechanisms/census.md#fan-out): the coordinator cuts the
// census order into contiguous shards, each worker judges its shard against the same snapshot, and the merge adds
// the shards' counts to the skipped nodes' — a shard with no result counts all its candidates unreached.
import { censusSetup, countByPool, judgeCandidate, type CensusCounts, type CensusEntry } from './census.ts';
import type { ClusterSnapshot } from '../state/snapshot.ts';
import { ZERO_STOPWATCH } from './pass-context.ts';
import type { PassOptions, Stopwatch } from './types.ts';

/** One shard: its number, its candidates in census order, and how many of them each NodePool holds. */
export interface CensusShardPlan {
  readonly shard: number;
  readonly candidates: readonly string[];
  readonly pools: Readonly<Record<string, number>>;
}

/** What one worker found for its shard: counts per NodePool (unreached among them) and how many it judged. */
export interface ShardCounts {
  readonly reached: number;
  readonly nodePools: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

/** A shard's candidate is no candidate of the snapshot the worker rebuilt: the two disagree on the input. */
export class CensusShardError extends Error {
  override readonly name = 'CensusShardError';
}

/** Contiguous slices of `shardSize` candidates, in the census's order (candidates are judged independently). */
export function planShards(
  candidates: readonly { readonly name: string; readonly nodePool: string }[],
  shardSize: number,
): CensusShardPlan[] {
  if (!Number.isInteger(shardSize) || shardSize < 1)
    throw new RangeError(`census shard size must be a positive integer, got ${shardSize}`);
  const plans: CensusShardPlan[] = [];
  for (let at = 0; at < candidates.length; at += shardSize) {
    const slice = candidates.slice(at, at + shardSize);
    const pools: Record<string, number> = {};
    for (const c of slice) pools[c.nodePool] = (pools[c.nodePool] ?? 0) + 1;
    plans.push({ shard: plans.length, candidates: slice.map((c) => c.name), pools });
  }
  return plans;
}

/**
 * One shard judged as runCensus judges every candidate: same setup from the same snapshot, each candidate alone;
 * past the budget the rest of the shard is counted unreached.
 */
export function runCensusShard(
  snapshot: ClusterSnapshot,
  now: Date,
  options: PassOptions,
  names: readonly string[],
  scope: { readonly timeoutMs: number; readonly claimedByCommands?: ReadonlySet<string> },
  stopwatch: Stopwatch = ZERO_STOPWATCH,
): ShardCounts {
  const { ctx, set } = censusSetup(snapshot, now, options, stopwatch, scope.claimedByCommands);
  const byName = new Map(set.candidates.map((c) => [c.name, c] as const));
  const entries: CensusEntry[] = [];
  const unreached = new Map<string, number>();
  const start = stopwatch.elapsedMs();
  for (const name of names) {
    const c = byName.get(name);
    if (!c) throw new CensusShardError(`shard candidate ${name} is not a census candidate of the snapshot`);
    if (stopwatch.elapsedMs() - start > scope.timeoutMs) {
      unreached.set(c.nodePool, (unreached.get(c.nodePool) ?? 0) + 1);
      continue;
    }
    stopwatch.work?.('candidate', 1);
    entries.push(judgeCandidate(ctx, c));
  }
  const nodePools: Record<string, Record<string, number>> = {};
  for (const [pool, counts] of Object.entries(countByPool(entries, unreached)))
    nodePools[pool] = { ...counts };
  return { reached: entries.length, nodePools };
}

/** The merged census: counts by NodePool, and which shards brought no result (theirs counted unreached). */
export interface MergedCensus {
  readonly nodePools: Readonly<Record<string, CensusCounts>>;
  readonly reached: number;
  readonly truncated: boolean;
  readonly failedShards: readonly number[];
}

const ZERO: CensusCounts = { delete: 0, replace: 0, none: 0, empty: 0, drifted: 0, unreached: 0 };
const KEYS = Object.keys(ZERO) as (keyof CensusCounts)[];

/** Adds the shards' counts to the skipped nodes'; a plan without a result counts its candidates unreached. */
export function mergeShards(
  skipped: readonly CensusEntry[],
  plans: readonly CensusShardPlan[],
  results: ReadonlyMap<number, ShardCounts>,
): MergedCensus {
  const out: Record<string, { -readonly [K in keyof CensusCounts]: number }> = {};
  const of = (pool: string) => (out[pool] ??= { ...ZERO });
  for (const [pool, counts] of Object.entries(countByPool(skipped, new Map())))
    for (const k of KEYS) of(pool)[k] += counts[k];
  const failedShards: number[] = [];
  let reached = 0;
  for (const plan of plans) {
    const r = results.get(plan.shard);
    if (!r) {
      failedShards.push(plan.shard);
      for (const [pool, n] of Object.entries(plan.pools)) of(pool).unreached += n;
      continue;
    }
    reached += r.reached;
    for (const [pool, counts] of Object.entries(r.nodePools))
      for (const k of KEYS) of(pool)[k] += counts[k] ?? 0;
  }
  const truncated = Object.values(out).some((c) => c.unreached > 0);
  return { nodePools: out, reached, truncated, failedShards };
}
