// What a consolidation pass writes back of its memory (docs/mechanisms/negative-cache.md, coverage-cycle.md):
// only the difference between what it loaded and what it publishes, so a quiet fleet's pass writes nothing.
import { coverageDelta } from '../disruption/coverage-cycle.ts';
import { negativeCacheDelta, type NegativeCache } from '../disruption/negative-cache.ts';
import type { PassResult } from '../disruption/pass.ts';
import type { StateStore } from '../ports/state-store/index.ts';
import type { CoverageCycle, UnseenPools } from '../ports/state-store/records.ts';

/** What the pass read with its state: the write-back is computed against exactly this. */
export interface LoadedMemory {
  readonly coverage: ReadonlyMap<string, CoverageCycle>;
  readonly negativeCache: NegativeCache;
  readonly unseenPools: UnseenPools;
}

/**
 * Writes the changed and new entries and deletes the removed ones (the adapters batch them 25 to a request and
 * re-send unprocessed items). A negative entry whose fingerprint is unchanged keeps its first expiry
 * (rememberVerdict), so an unchanged no-op is not rewritten; one re-simulated after its TTL is a new verdict and
 * is. A pass that lost its lease (`signal` aborted before the write-back) writes nothing: a newer pass owns the
 * memory. A crash between batches leaves entries that are each either the old or the new verdict: the next pass
 * looks each up by fingerprint and epoch and rewrites what is missing or stale.
 */
export async function writeBack(
  store: StateStore,
  cluster: string,
  loaded: LoadedMemory,
  memory: PassResult['memory'],
  signal?: AbortSignal,
): Promise<'written' | 'lease-lost'> {
  if (signal?.aborted) return 'lease-lost';
  const after = memory.coverage;
  if (after) {
    for (const w of coverageDelta(loaded.coverage, after)) {
      for (const expected of w.startCycles) await store.startCoverageCycle(cluster, w.nodePool, expected);
      if (w.evaluated.length) await store.markEvaluated(cluster, w.nodePool, w.cycle, w.evaluated);
    }
  }
  const next = memory.negativeCache;
  if (next) {
    const delta = negativeCacheDelta(loaded.negativeCache, next);
    if (delta.put.length)
      await store.putNegativeEntries(
        cluster,
        delta.epoch,
        delta.put.map(({ candidate, fingerprint, expiresAt }) => ({ candidate, fingerprint, expiresAt })),
      );
    if (delta.remove.length) await store.deleteNegativeEntries(cluster, delta.remove);
  }
  await writeUnseenPools(store, cluster, loaded.unseenPools, memory.unseenPools ?? []);
  return 'written';
}

/**
 * Karpenter keeps PreviouslyUnseenNodePools on its SingleNodeConsolidation object, so the pools a timed-out walk
 * never reached go first in the next walk (docs/mechanisms/coverage-cycle.md); a Lambda forgets between
 * invocations, so the set lives in the store. Fenced by the version read with the pass state, as the coverage
 * cycle is by its cycle number: a pass that raced a newer one fails with ConditionFailedError, writing nothing.
 */
async function writeUnseenPools(
  store: StateStore,
  cluster: string,
  before: UnseenPools,
  after: readonly string[],
): Promise<void> {
  const same = before.pools.length === after.length && before.pools.every((p, i) => p === after[i]);
  if (!same) await store.putUnseenPools(cluster, before.version, after);
}
