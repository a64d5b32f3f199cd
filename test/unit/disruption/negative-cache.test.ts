// The negative-result cache: each fingerprint component, failing closed, TTL on lookup, no-op-only, epoch, sweep, skip rule.
import { describe, expect, it } from 'vitest';
import {
  clearNegativeCache,
  EMPTY_TALLY,
  lookupNegative,
  mayMarkConsolidated,
  negativeCache,
  negativeCacheDelta,
  NEGATIVE_CACHE_TTL_MS,
  observeEpoch,
  rememberVerdict,
  shouldSkip,
  sweepNegativeCache,
  tallyLookup,
} from '../../../shared/disruption/negative-cache.ts';
import { negativeFingerprint, type FingerprintInput } from '../../../shared/disruption/fingerprint.ts';
import { MemoryStateStore } from '../../../shared/adapters/memory/state-store.ts';

const obj = (uid: string | undefined, resourceVersion: string | undefined, generation?: number) => ({
  metadata: { uid, resourceVersion, generation },
});
const base: FingerprintInput = {
  candidate: 'node-a',
  node: obj('n-uid', '100'),
  claim: obj('c-uid', '200'),
  nodePool: obj('pool-uid', '5', 3),
  instanceTypeRevision: 'it-7',
  pods: [obj('p1', '11'), obj('p2', '12')],
  readyNodePools: [
    { pool: obj('pool-uid', '5', 3), revision: 'it-7' },
    { pool: obj('other-uid', '9', 1), revision: 'it-2' },
  ],
};
const fp = (over: Partial<FingerprintInput> = {}) => negativeFingerprint({ ...base, ...over });
const t0 = new Date('2026-11-30T00:00:00Z');
const after = (ms: number) => new Date(t0.getTime() + ms);

describe('the fingerprint', () => {
  it('is stable for the same inputs and independent of pod and pool order', () => {
    expect(fp()).toBe(fp());
    expect(fp()).toMatch(/^fp1:[0-9a-f]{28}$/);
    expect(fp({ pods: [...base.pods].reverse(), readyNodePools: [...base.readyNodePools].reverse() })).toBe(
      fp(),
    );
  });

  it.each<[string, Partial<FingerprintInput>]>([
    ['candidate name', { candidate: 'node-b' }],
    ['node resourceVersion', { node: obj('n-uid', '101') }],
    ['claim resourceVersion', { claim: obj('c-uid', '201') }],
    ['NodePool UID', { nodePool: obj('pool-uid-2', '5', 3) }],
    ['NodePool generation', { nodePool: obj('pool-uid', '5', 4) }],
    ['instance-type revision', { instanceTypeRevision: 'it-8' }],
    ['a moving pod’s resourceVersion', { pods: [obj('p1', '11'), obj('p2', '13')] }],
    ['a moving pod’s UID', { pods: [obj('p1', '11'), obj('p3', '12')] }],
    ['a pod joining', { pods: [...base.pods, obj('p4', '1')] }],
    ['a pod leaving', { pods: [obj('p1', '11')] }],
    [
      'a ready NodePool’s generation',
      { readyNodePools: [base.readyNodePools[0]!, { pool: obj('other-uid', '9', 2), revision: 'it-2' }] },
    ],
    [
      'a ready NodePool’s revision',
      { readyNodePools: [base.readyNodePools[0]!, { pool: obj('other-uid', '9', 1), revision: 'it-3' }] },
    ],
    [
      'a ready NodePool’s UID',
      { readyNodePools: [base.readyNodePools[0]!, { pool: obj('third-uid', '9', 1), revision: 'it-2' }] },
    ],
    [
      'a NodePool becoming ready',
      { readyNodePools: [...base.readyNodePools, { pool: obj('new-uid', '1', 1), revision: 'it-1' }] },
    ],
    ['a NodePool no longer ready', { readyNodePools: [base.readyNodePools[0]!] }],
  ])('changes with the %s', (_what, over) => {
    expect(fp(over)).toBeDefined();
    expect(fp(over)).not.toBe(fp());
  });

  it.each<[string, Partial<FingerprintInput>]>([
    ['no Node object', { node: undefined }],
    ['a Node without resourceVersion', { node: obj('n-uid', undefined) }],
    ['a claim derived from labels (no NodeClaim)', { claim: undefined }],
    ['a claim without resourceVersion', { claim: obj('c-uid', undefined) }],
    ['a NodePool without UID', { nodePool: obj(undefined, '5', 3) }],
    ['a NodePool without generation', { nodePool: obj('pool-uid', '5') }],
    ['no instance-type revision', { instanceTypeRevision: undefined }],
    ['a pod without UID', { pods: [obj(undefined, '11')] }],
    ['a pod without resourceVersion', { pods: [obj('p1', undefined)] }],
    [
      'a ready NodePool without UID',
      { readyNodePools: [{ pool: obj(undefined, '9', 1), revision: 'it-2' }] },
    ],
    [
      'a ready NodePool without revision',
      { readyNodePools: [{ pool: obj('other-uid', '9', 1), revision: undefined }] },
    ],
  ])('cannot be built with %s (fail closed)', (_what, over) => {
    expect(fp(over)).toBeUndefined();
  });
});

describe('lookups', () => {
  const f = fp() as string;
  const cache = rememberVerdict(negativeCache(3), 'node-a', f, 'no-op', t0);

  it('hit only with the same fingerprint before expiry', () => {
    expect(lookupNegative(cache, 'node-a', f, after(NEGATIVE_CACHE_TTL_MS - 1)).result).toBe('hit');
    expect(lookupNegative(cache, 'node-a', fp({ node: obj('n-uid', '101') }), after(1)).result).toBe(
      'changed',
    );
    expect(lookupNegative(cache, 'node-b', f, after(1)).result).toBe('absent');
  });

  it('check expiry on lookup: the five-minute TTL ends exactly at expiresAt', () => {
    expect(lookupNegative(cache, 'node-a', f, after(NEGATIVE_CACHE_TTL_MS)).result).toBe('expired');
    const short = rememberVerdict(negativeCache(), 'node-a', f, 'no-op', t0, 1_000);
    expect(lookupNegative(short, 'node-a', f, after(999)).result).toBe('hit');
    expect(lookupNegative(short, 'node-a', f, after(1_000)).result).toBe('expired');
  });

  it('never hit without a fingerprint', () => {
    expect(lookupNegative(cache, 'node-a', undefined, after(1)).result).toBe('no-fingerprint');
  });

  it('an entry written under an older epoch belongs to a cleared cache: absent', () => {
    expect(lookupNegative(observeEpoch(cache, 4), 'node-a', f, after(1)).result).toBe('absent');
    expect(observeEpoch(cache, 2)).toBe(cache);
  });
});

describe('remembering verdicts', () => {
  const f = fp() as string;

  it('stores only no-ops', () => {
    for (const verdict of ['delete', 'replace'] as const) {
      expect(rememberVerdict(negativeCache(), 'node-a', f, verdict, t0).entries.size).toBe(0);
    }
  });

  it('forgets a candidate whose fresh verdict is actionable or that has no fingerprint', () => {
    const c = rememberVerdict(negativeCache(), 'node-a', f, 'no-op', t0);
    expect(rememberVerdict(c, 'node-a', f, 'replace', t0).entries.has('node-a')).toBe(false);
    expect(rememberVerdict(c, 'node-a', undefined, 'no-op', t0).entries.has('node-a')).toBe(false);
  });

  it('never mutates the cache it was given', () => {
    const c = negativeCache();
    rememberVerdict(c, 'node-a', f, 'no-op', t0);
    expect(c.entries.size).toBe(0);
  });

  it('refuses a non-positive TTL', () => {
    expect(() => rememberVerdict(negativeCache(), 'node-a', f, 'no-op', t0, 0)).toThrow(/ttlMs/);
  });
});

describe('clearing and sweeping', () => {
  const f = fp() as string;
  const c = rememberVerdict(
    rememberVerdict(negativeCache(1), 'a', f, 'no-op', t0, 1_000),
    'b',
    f,
    'no-op',
    t0,
    10_000,
  );

  it('clears everything when a command completes, by moving to the next epoch', () => {
    const cleared = clearNegativeCache(c);
    expect(cleared.epoch).toBe(2);
    expect(lookupNegative(cleared, 'b', f, after(1)).result).toBe('absent');
  });

  it('sweeps expired and older-epoch entries at pass end', () => {
    const swept = sweepNegativeCache(c, after(1_000));
    expect([...swept.cache.entries.keys()]).toEqual(['b']);
    expect(swept.removed).toEqual(['a']);
    const stale = sweepNegativeCache(observeEpoch(c, 5), after(0));
    expect(stale.removed).toEqual(['a', 'b']);
  });

  it('loads store entries under the epoch the store reported', () => {
    const loaded = negativeCache(7, [{ candidate: 'a', fingerprint: f, expiresAt: after(5_000) }]);
    expect(lookupNegative(loaded, 'a', f, after(1)).result).toBe('hit');
  });

  it('saves only new or changed entries and deletes the removed ones', () => {
    const before = negativeCache(1, [
      { candidate: 'a', fingerprint: f, expiresAt: after(1_000) },
      { candidate: 'gone', fingerprint: f, expiresAt: after(1_000) },
    ]);
    const next = rememberVerdict(sweepNegativeCache(before, after(0)).cache, 'new', f, 'no-op', t0);
    const withoutGone = {
      epoch: next.epoch,
      entries: new Map([...next.entries].filter(([k]) => k !== 'gone')),
    };
    const delta = negativeCacheDelta(before, withoutGone);
    expect(delta.epoch).toBe(1);
    expect(delta.put.map((e) => e.candidate)).toEqual(['new']);
    expect(delta.remove).toEqual(['gone']);
  });
});

describe('what the pass does with a lookup', () => {
  const f = fp() as string;
  const cache = rememberVerdict(negativeCache(), 'a', f, 'no-op', t0);
  const hit = lookupNegative(cache, 'a', f, after(1));

  it('is observe-only by default: a hit does not skip', () => {
    expect(shouldSkip(hit, { skipUnchangedNegatives: false })).toBe(false);
    expect(shouldSkip(hit, { skipUnchangedNegatives: true })).toBe(true);
    expect(
      shouldSkip(lookupNegative(cache, 'a', undefined, after(1)), { skipUnchangedNegatives: true }),
    ).toBe(false);
  });

  it('counts hits while observing, and flags hits the fresh simulation contradicted', () => {
    let t = tallyLookup(EMPTY_TALLY, 'a', hit, 'no-op');
    t = tallyLookup(t, 'b', { result: 'absent' }, 'replace');
    t = tallyLookup(t, 'a', hit, 'delete');
    expect(t.byResult.hit).toBe(2);
    expect(t.byResult.absent).toBe(1);
    expect(t.contradictedHits).toBe(1);
    expect(mayMarkConsolidated(t)).toBe(true);
  });

  it('a pass that skipped a candidate on a hit cannot mark the fleet consolidated', () => {
    const t = tallyLookup(EMPTY_TALLY, 'a', hit, 'skipped');
    expect(t.skipped).toEqual(['a']);
    expect(mayMarkConsolidated(t)).toBe(false);
  });
});

describe('through the StateStore port (memory adapter)', () => {
  it('round-trips entries, and a command completing elsewhere clears them by the epoch', async () => {
    let now = t0;
    const store = new MemoryStateStore({ now: () => now });
    const f = fp() as string;
    const first = await store.loadPassState('c1');
    const loaded = negativeCache(first.epoch, first.negativeCache.values());
    const next = rememberVerdict(loaded, 'node-a', f, 'no-op', now);
    const delta = negativeCacheDelta(loaded, next);
    await store.putNegativeEntries('c1', delta.epoch, delta.put);
    await store.deleteNegativeEntries('c1', delta.remove);

    now = after(60_000);
    const second = await store.loadPassState('c1');
    expect(
      lookupNegative(negativeCache(second.epoch, second.negativeCache.values()), 'node-a', f, now).result,
    ).toBe('hit');

    await store.clearNegativeCache('c1');
    const third = await store.loadPassState('c1');
    expect(
      lookupNegative(negativeCache(third.epoch, third.negativeCache.values()), 'node-a', f, now).result,
    ).toBe('absent');
  });
});
