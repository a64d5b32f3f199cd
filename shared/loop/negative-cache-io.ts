// The negative cache across invocations (docs/mechanisms/negative-cache.md): what a pass reads of it from the
// stored pass state, and what it publishes after the pass. The live entries and the leftovers (expired, or
// written under a cleared epoch) are both loaded, so a lookup can tell `expired` from `absent`, as the fork's
// in-memory cache does, and the end-of-pass sweep deletes the leftovers from the store. Lookups are published
// by result and the stored entries as a gauge in observe-only mode too: that is the evidence a user reads
// before switching skipping on.
import { KRAFTSMAN_METRICS, LABELS, NEGATIVE_CACHE_RESULTS } from '../disruption/metric-names.ts';
import { negativeCache, type NegativeCache } from '../disruption/negative-cache.ts';
import type { PassResult } from '../disruption/pass.ts';
import type { Metrics } from '../ports/metrics.ts';
import type { PassState } from '../ports/state-store/records.ts';

/** The cache a pass starts from: the stored entries at the stored epoch, leftovers kept with their own epoch. */
export function loadNegativeCache(state: PassState): NegativeCache {
  return negativeCache(state.epoch, [
    ...(state.negativeLeftovers?.values() ?? []),
    ...[...state.negativeCache.values()].map((e) => ({ ...e, epoch: state.epoch })),
  ]);
}

/** counter {result} for every lookup the walk made (hit, absent, expired, changed) and gauge of stored entries. */
export function emitNegativeCache(metrics: Metrics, r: PassResult): void {
  const tally = r.negativeTally;
  if (tally)
    for (const result of NEGATIVE_CACHE_RESULTS) {
      const n = tally.byResult[result];
      if (n > 0) metrics.count(KRAFTSMAN_METRICS.negativeCacheLookupsTotal, n, { [LABELS.result]: result });
    }
  const cache = r.memory.negativeCache;
  if (cache) metrics.gauge(KRAFTSMAN_METRICS.negativeCacheEntries, cache.entries.size);
}
