// The census fanned out across Lambda invocations (docs/mechanisms/census.md#fan-out): the coordinator writes the
// sweep's snapshot object once, invokes one census worker per shard (Lambda Event invocations: Lambda queues and
// retries them), polls the shards' results in DynamoDB until its deadline, and merges them; a shard with no result
// by then counts its candidates unreached and is named in the result.
import {
  mergeShards,
  planShards,
  type CensusShardPlan,
  type ShardCounts,
} from '../disruption/census-shards.ts';
import { skippedEntries, type censusSetup, type CensusResult as Sweep } from '../disruption/census.ts';
import type { PassOptions } from '../disruption/types.ts';
import type { Clock } from '../ports/clock.ts';
import type { Invoker } from '../ports/invoker.ts';
import type { Logger } from '../ports/logger.ts';
import type { SnapshotStore } from '../ports/snapshot-store.ts';
import type { StateStore } from '../ports/state-store/index.ts';
import type { Timer } from '../ports/timer.ts';
import type { ClusterSnapshot } from '../state/snapshot.ts';
import { encodeCensusInput } from './census-snapshot.ts';
import type { CensusShardRequest } from './census-worker.ts';

/** How the census fans out: shards of `shardSize` candidates, results polled every `pollMs`. */
export interface CensusFanOut {
  readonly invoker: Invoker;
  readonly snapshots: SnapshotStore;
  /** Candidates per worker invocation; a census of at most this many stays in one invocation. */
  readonly shardSize: number;
  readonly pollMs: number;
  /** The clock the wait runs on, when not the loop's: the local fleet's simulated clock stands still while it waits. */
  readonly waitClock?: Clock;
}

export interface FanOutDeps {
  readonly store: StateStore;
  readonly clock: Clock;
  readonly timer: Timer;
  readonly logger: Logger;
  readonly fanOut: CensusFanOut;
}

export interface FanOutRequest {
  readonly cluster: string;
  readonly runId: string;
  readonly options: PassOptions;
  /** The coordinator's wait for results; workers get this less the margin to read, write and start. */
  readonly budgetMs: number;
}

export interface FannedOut {
  readonly sweep: Sweep;
  readonly shards: number;
  readonly failedShards: readonly number[];
}

/** A worker's time to start, read the snapshot and store its counts: a fifth of the budget, at most a minute. */
export const workerMarginMs = (budgetMs: number): number => Math.min(60_000, Math.floor(budgetMs / 5));

/** The shards a census of this setup would fan out to: none (one invocation) when one shard holds them all. */
export function shardsFor(setup: ReturnType<typeof censusSetup>, shardSize: number): CensusShardPlan[] {
  const plans = planShards(setup.set.candidates, shardSize);
  return plans.length > 1 ? plans : [];
}

export async function fanOutCensus(
  deps: FanOutDeps,
  request: FanOutRequest,
  setup: ReturnType<typeof censusSetup>,
  /** The unmarked live snapshot and what marks it: each worker's censusSetup marks it as runCensus does. */
  input: {
    readonly snapshot: ClusterSnapshot;
    readonly now: Date;
    readonly claimedByCommands: ReadonlySet<string>;
  },
  plans: readonly CensusShardPlan[],
): Promise<FannedOut> {
  const { fanOut } = deps;
  const clock = fanOut.waitClock ?? deps.clock;
  const deadline = clock.now().getTime() + request.budgetMs;
  const snapshotKey = `census/${request.cluster}/${request.runId}.json`;
  await fanOut.snapshots.put(snapshotKey, encodeCensusInput({ ...input, options: request.options }));
  const budgetMs = Math.max(0, request.budgetMs - workerMarginMs(request.budgetMs));
  const invoked = await Promise.all(
    plans.map(async (p) => {
      const payload: CensusShardRequest = {
        cluster: request.cluster,
        runId: request.runId,
        shard: p.shard,
        candidates: [...p.candidates],
        snapshotKey,
        budgetMs,
      };
      try {
        await fanOut.invoker.invoke('census-worker', payload);
        return true;
      } catch (err: unknown) {
        // Not thrown: the other shards run on; this one's candidates are counted unreached and the shard named.
        deps.logger.error('census worker not invoked', { shard: p.shard, error: String(err) });
        return false;
      }
    }),
  );
  const expected = plans.filter((_, i) => invoked[i]).length;
  const results = await poll({ ...deps, clock }, request, expected, deadline);
  await fanOut.snapshots.delete(snapshotKey);
  const merged = mergeShards(skippedEntries(setup), plans, results);
  if (merged.failedShards.length)
    deps.logger.warn('census shards without a result', { shards: merged.failedShards });
  return {
    sweep: {
      nodePools: merged.nodePools,
      candidates: skippedEntries(setup),
      truncated: merged.truncated,
      reached: merged.reached,
    },
    shards: plans.length,
    failedShards: merged.failedShards,
  };
}

/** Reads the run's stored shards until `expected` are in or the deadline passes (the last read counts). */
async function poll(
  deps: FanOutDeps,
  request: FanOutRequest,
  expected: number,
  deadline: number,
): Promise<Map<number, ShardCounts>> {
  for (;;) {
    const stored = await deps.store.listCensusShards(request.cluster, request.runId);
    const results = new Map<number, ShardCounts>(stored.map((s) => [s.shard, s]));
    const left = deadline - deps.clock.now().getTime();
    if (results.size >= expected || left <= 0) return results;
    await deps.timer.sleep(Math.min(deps.fanOut.pollMs, left));
  }
}
