// Negative-result cache (docs/mechanisms/negative-cache.md): no-op verdicts keyed by a fingerprint of all they depend on
// (fingerprint.ts), trusted for a TTL, cleared by an epoch bump when a command is admitted or ends; immutable values, pure
// functions. API: negativeCache, lookupNegative, rememberVerdict, forgetNegative, clearNegativeCache, observeEpoch, sweepNegativeCache, negativeCacheDelta, shouldSkip, tallyLookup, mayMarkConsolidated.
import type { NegativeCacheResult } from './metric-names.ts';

export const NEGATIVE_CACHE_TTL_MS = 5 * 60_000;

export interface NegativeCacheOptions {
  /** How long a no-op verdict is trusted: bounds what the fingerprint cannot see (spot prices, offerings). */
  readonly ttlMs: number;
  /** consolidation-skip-unchanged-negatives: off by default, so the cache only observes and counts hits. */
  readonly skipUnchangedNegatives: boolean;
}
export const DEFAULT_NEGATIVE_CACHE_OPTIONS: NegativeCacheOptions = {
  ttlMs: NEGATIVE_CACHE_TTL_MS,
  skipUnchangedNegatives: false,
};

// ── the cache ───────────────────────────────────────────────────────────────────────────────────────────────

/** A remembered no-op verdict, as the StateStore keeps it: trusted until `expiresAt` while the fingerprint holds. */
export interface NegativeEntry {
  readonly candidate: string;
  readonly fingerprint: string;
  readonly expiresAt: Date;
}
/** An entry as the cache holds it: with the epoch it was written under. */
export interface CachedNegativeEntry extends NegativeEntry {
  readonly epoch: number;
}
export interface NegativeCache {
  /** Bumped by every completed command; entries of an older epoch are ignored. */
  readonly epoch: number;
  readonly entries: ReadonlyMap<string, CachedNegativeEntry>;
}

/** A cache at `epoch`. Entries without an epoch (the store's PassState, already filtered to it) take `epoch`. */
export function negativeCache(
  epoch = 0,
  entries: Iterable<NegativeEntry & { readonly epoch?: number }> = [],
): NegativeCache {
  const map = new Map<string, CachedNegativeEntry>();
  for (const e of entries)
    map.set(e.candidate, {
      candidate: e.candidate,
      fingerprint: e.fingerprint,
      expiresAt: e.expiresAt,
      epoch: e.epoch ?? epoch,
    });
  return { epoch, entries: map };
}

/** A lookup's result, or `no-fingerprint`: the candidate could not be looked up (fail closed, never counted). */
export type NegativeLookupResult = NegativeCacheResult | 'no-fingerprint';
export type NegativeLookup =
  | { readonly result: 'hit'; readonly entry: CachedNegativeEntry }
  | { readonly result: Exclude<NegativeLookupResult, 'hit'> };

/**
 * A hit only for an entry of the current epoch, unexpired at `now` (checked here, not in the background), with
 * the same fingerprint. An entry of an older epoch belongs to a cleared cache: absent, as the fork's Clear leaves it.
 */
export function lookupNegative(
  cache: NegativeCache,
  candidate: string,
  fingerprint: string | undefined,
  now: Date,
): NegativeLookup {
  if (fingerprint === undefined) return { result: 'no-fingerprint' };
  const entry = cache.entries.get(candidate);
  if (!entry || entry.epoch !== cache.epoch) return { result: 'absent' };
  if (entry.expiresAt.getTime() <= now.getTime()) return { result: 'expired' };
  if (entry.fingerprint !== fingerprint) return { result: 'changed' };
  return { result: 'hit', entry };
}

export type SimulatedVerdict = 'no-op' | 'delete' | 'replace';

/**
 * Records a simulated verdict: only a no-op with a fingerprint is remembered (until now + ttl); any other
 * verdict, or a no-op without a fingerprint, forgets the candidate. So a stale entry can delay a
 * consolidation, never cause one.
 */
export function rememberVerdict(
  cache: NegativeCache,
  candidate: string,
  fingerprint: string | undefined,
  verdict: SimulatedVerdict,
  now: Date,
  ttlMs: number = NEGATIVE_CACHE_TTL_MS,
): NegativeCache {
  if (!Number.isFinite(ttlMs) || ttlMs <= 0)
    throw new RangeError(`negative cache ttlMs must be a positive number of milliseconds, got ${ttlMs}`);
  const entries = new Map(cache.entries);
  if (verdict === 'no-op' && fingerprint !== undefined) {
    // The same verdict on the same fingerprint keeps its first expiry: the TTL bounds how long a verdict is
    // trusted since it was first computed, so observe-only re-simulation cannot keep it alive for ever.
    const old = entries.get(candidate);
    if (
      old &&
      old.fingerprint === fingerprint &&
      old.epoch === cache.epoch &&
      old.expiresAt.getTime() > now.getTime()
    )
      return cache;
    entries.set(candidate, {
      candidate,
      fingerprint,
      expiresAt: new Date(now.getTime() + ttlMs),
      epoch: cache.epoch,
    });
  } else {
    entries.delete(candidate);
  }
  return { epoch: cache.epoch, entries };
}

/** Drops one candidate's entry (an expired or changed one, on lookup). */
export function forgetNegative(cache: NegativeCache, candidate: string): NegativeCache {
  if (!cache.entries.has(candidate)) return cache;
  const entries = new Map(cache.entries);
  entries.delete(candidate);
  return { epoch: cache.epoch, entries };
}

/** A command admitted or ended (any method): everything is forgotten, in one epoch bump. */
export function clearNegativeCache(cache: NegativeCache): NegativeCache {
  return { epoch: cache.epoch + 1, entries: new Map() };
}

/** Adopts a newer epoch read from the store (a command completed elsewhere); older entries stop hitting. */
export function observeEpoch(cache: NegativeCache, epoch: number): NegativeCache {
  return epoch > cache.epoch ? { epoch, entries: cache.entries } : cache;
}

/** The end-of-pass sweep: drops expired entries and entries of older epochs. */
export function sweepNegativeCache(
  cache: NegativeCache,
  now: Date,
): { readonly cache: NegativeCache; readonly removed: readonly string[] } {
  const entries = new Map<string, CachedNegativeEntry>();
  const removed: string[] = [];
  for (const [name, e] of cache.entries) {
    if (e.epoch === cache.epoch && e.expiresAt.getTime() > now.getTime()) entries.set(name, e);
    else removed.push(name);
  }
  return { cache: { epoch: cache.epoch, entries }, removed: removed.sort() };
}

/** What to save: putNegativeEntries(epoch, put) and deleteNegativeEntries(remove). */
export function negativeCacheDelta(
  before: NegativeCache,
  after: NegativeCache,
): { readonly epoch: number; readonly put: CachedNegativeEntry[]; readonly remove: string[] } {
  const put = [...after.entries.values()].filter((e) => {
    const old = before.entries.get(e.candidate);
    return (
      !old ||
      old.fingerprint !== e.fingerprint ||
      old.expiresAt.getTime() !== e.expiresAt.getTime() ||
      old.epoch !== e.epoch
    );
  });
  const remove = [...before.entries.keys()].filter((n) => !after.entries.has(n));
  return {
    epoch: after.epoch,
    put: put.sort((a, b) => a.candidate.localeCompare(b.candidate)),
    remove: remove.sort(),
  };
}

// ── what a pass does with a lookup ──────────────────────────────────────────────────────────────────────────

/** Skip the simulation only on a hit and only when skipping is switched on; observe-only otherwise. */
export function shouldSkip(
  lookup: NegativeLookup,
  options: Pick<NegativeCacheOptions, 'skipUnchangedNegatives'>,
): boolean {
  return lookup.result === 'hit' && options.skipUnchangedNegatives;
}

export interface NegativeCacheTally {
  readonly byResult: Readonly<Record<NegativeLookupResult, number>>;
  /** Candidates passed over on a hit: a pass with any cannot mark the fleet consolidated. */
  readonly skipped: readonly string[];
  /** Observe-only evidence: hits whose fresh simulation was not a no-op (should stay 0 before skipping is trusted). */
  readonly contradictedHits: number;
}
export const EMPTY_TALLY: NegativeCacheTally = {
  byResult: { hit: 0, absent: 0, changed: 0, expired: 0, 'no-fingerprint': 0 },
  skipped: [],
  contradictedHits: 0,
};

/** Counts one lookup and what followed it: 'skipped', or the verdict the simulation reached anyway. */
export function tallyLookup(
  t: NegativeCacheTally,
  candidate: string,
  lookup: NegativeLookup,
  then: 'skipped' | SimulatedVerdict,
): NegativeCacheTally {
  return {
    byResult: { ...t.byResult, [lookup.result]: t.byResult[lookup.result] + 1 },
    skipped: then === 'skipped' ? [...t.skipped, candidate] : t.skipped,
    contradictedHits:
      t.contradictedHits + (lookup.result === 'hit' && then !== 'skipped' && then !== 'no-op' ? 1 : 0),
  };
}

/** Seed: "A pass that skipped candidates on cache hits can't mark the fleet consolidated." */
export function mayMarkConsolidated(t: NegativeCacheTally): boolean {
  return t.skipped.length === 0;
}
