// The census worker's use case (docs/mechanisms/census.md#fan-out): read the sweep's snapshot object, judge the
// shard's candidates against it within the budget, and store the shard's counts once (a second delivery of the
// same invocation finds them stored and adds nothing).
import { z } from 'zod';
import { runCensusShard } from '../disruption/census-shards.ts';
import type { Clock } from '../ports/clock.ts';
import type { SnapshotStore } from '../ports/snapshot-store.ts';
import type { StateStore } from '../ports/state-store/index.ts';
import { storeName } from '../ports/state-store/records.ts';
import { decodeCensusInput } from './census-snapshot.ts';
import { clockStopwatch } from './stopwatch.ts';

/** What the coordinator sends each worker (one Lambda Event payload, well under its 256 KB limit). */
export const censusShardRequestSchema = z
  .object({
    cluster: storeName,
    runId: storeName,
    shard: z.number().int().min(0).max(9999),
    candidates: z.array(z.string().min(1)).min(1),
    snapshotKey: z.string().min(1).max(1024),
    /** Simulation time the shard may spend; the rest of its candidates are counted unreached. */
    budgetMs: z.number().int().min(0),
  })
  .strict();
export type CensusShardRequest = z.infer<typeof censusShardRequestSchema>;

export interface CensusWorkerDeps {
  readonly store: StateStore;
  readonly snapshots: SnapshotStore;
  readonly clock: Clock;
}

export interface CensusShardOutcome {
  readonly shard: number;
  readonly reached: number;
  readonly unreached: number;
  /** False when this shard's result was already stored (a second delivery): nothing was added. */
  readonly created: boolean;
}

export async function censusShard(
  deps: CensusWorkerDeps,
  r: CensusShardRequest,
): Promise<CensusShardOutcome> {
  const stopwatch = clockStopwatch(deps.clock);
  const input = decodeCensusInput(await deps.snapshots.get(r.snapshotKey), `snapshot ${r.snapshotKey}`);
  const counts = runCensusShard(
    input.snapshot,
    input.now,
    input.options,
    r.candidates,
    { timeoutMs: r.budgetMs, claimedByCommands: input.claimedByCommands },
    stopwatch,
  );
  const { created } = await deps.store.putCensusShard(r.cluster, {
    runId: r.runId,
    shard: r.shard,
    reached: counts.reached,
    nodePools: counts.nodePools,
    at: deps.clock.now(),
  });
  return {
    shard: r.shard,
    reached: counts.reached,
    unreached: r.candidates.length - counts.reached,
    created,
  };
}
