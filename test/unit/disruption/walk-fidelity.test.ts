// The single-node walk against Karpenter v1.14 and the fork: what the coverage cycle counts as reached and when
// it restarts, what the negative cache fingerprints and how long it trusts a verdict, the Balanced policy's
// below-threshold skip, and when a pass may call the fleet consolidated.
import { describe, expect, it } from 'vitest';
import type { WalkHints } from '../../../shared/disruption/method.ts';
import { passOutcome, runPass, type PassResult } from '../../../shared/disruption/pass.ts';
import { passOptions, type PassOptions } from '../../../shared/disruption/types.ts';
import { catalogSchema } from '../../../shared/model/catalog.ts';
import { buildInstanceTypes, type InstanceType } from '../../../shared/scheduling/instance-type.ts';
import { candidate, versionedPool } from '../../support/disruption/versioned-fleet.ts';
import { node, NOW, nodePool, pod, reasonOf, snapshotOf, ZONES, type PoolSpec } from './fixtures.ts';

type Obj = Record<string, unknown>;

/** Node and claim versions apart from the pods', so a fingerprint that mixed them up would show. */
const VERSIONS = { node: '10', claim: '20' } as const;

/** A node that simulates to a no-op: a 3-CPU pod on a 4-CPU node has nowhere cheaper to go. */
const stuck = (name: string, pool = 'default', cpu = '3'): Obj[] =>
  candidate(name, { pool, cpu, versions: VERSIONS });

/** A big node with a small pod: replacing it with something smaller is a command. */
const oversized = (name: string, pool = 'default'): Obj[] =>
  candidate(name, { pool, type: 's-16', cpu: '1', versions: VERSIONS });

function catalogWith(spotFactor = 0.4, extra: Obj[] = []): InstanceType[] {
  return buildInstanceTypes(
    catalogSchema.parse({
      apiVersion: 'kraftsman.dev/v1alpha1',
      kind: 'InstanceTypeCatalog',
      instanceTypes: [
        ...[2, 4, 8, 16].map((n) => ({
          name: `s-${n}`,
          cloud: 'aws',
          capacity: { cpu: String(n), memory: `${n * 4}Gi`, pods: '110' },
          offerings: ZONES.flatMap((zone) => [
            { zone, capacityType: 'on-demand', price: 0.05 * n },
            { zone, capacityType: 'spot', price: 0.05 * n * spotFactor },
          ]),
        })),
        ...extra,
      ],
    }).instanceTypes,
  );
}

function pass(
  objs: Obj[],
  options: Partial<PassOptions> = {},
  hints?: WalkHints,
  opts: { ticks?: boolean; types?: InstanceType[]; now?: Date } = {},
): PassResult {
  let t = 0;
  const stopwatch = { elapsedMs: () => (opts.ticks ? (t += 1) : 0) };
  return runPass({
    snapshot: snapshotOf(objs, opts.types),
    now: opts.now ?? NOW,
    options: passOptions(options),
    stopwatch,
    hints,
  });
}

const evaluatedIn = (r: PassResult, pool: string): string[] => [
  ...(r.memory.coverage?.get(pool)?.evaluated ?? []),
];

describe('the coverage cycle counts only judged candidates', () => {
  it('does not count a candidate skipped for its pool budget as reached', () => {
    const frozen = versionedPool('frozen', { budgets: [{ nodes: '0' }] });
    const many = ['a0', 'a1', 'a2', 'a3', 'a4', 'a5'].flatMap((n) => stuck(n));
    const objs = [versionedPool('default'), frozen, ...many, ...stuck('f0', 'frozen')];
    // pools interleave (default, frozen, default, …), so f0 is reached second, before the walk times out
    const r = pass(objs, { singleNodeTimeoutMs: 30 }, undefined, { ticks: true });
    expect(r.timedOut).toBe(true);
    expect(reasonOf(r, 'f0')).toBe('budget-exhausted');
    expect(evaluatedIn(r, 'frozen')).toEqual([]);
    expect(evaluatedIn(r, 'default').length).toBeGreaterThan(0);
  });

  // The fork's SingleNodeConsolidation marks a candidate reached only after the threshold check: one that
  // cannot pass it was never evaluated and must not be demoted behind the tail on the next resumed walk.
  it('does not count a below-threshold candidate as reached', () => {
    const pinned = [0, 1, 2, 3, 4].map((i) =>
      pod(`cheap-${i}`, {
        node: 'cheap',
        cpu: '100m',
        nodeSelector: { 'kubernetes.io/hostname': 'cheap' },
      }),
    );
    const many = ['a0', 'a1', 'a2', 'a3', 'a4', 'a5'].flatMap((n) => stuck(n));
    const objs = [
      versionedPool('default'),
      nodePool('bal', { policy: 'Balanced' }),
      node('cheap', { type: 's-2', pool: 'bal' }),
      ...pinned,
      // a big node in the same pool, pinned too: it makes cheap's savings a small share of the pool's
      node('big', { type: 's-16', pool: 'bal' }),
      pod('big-app', { node: 'big', cpu: '15', nodeSelector: { 'kubernetes.io/hostname': 'big' } }),
      ...many,
    ];
    // pools interleave, so cheap is reached early, before the walk times out among the stuck ones
    const r = pass(objs, { singleNodeTimeoutMs: 30 }, undefined, { ticks: true });
    expect(r.timedOut).toBe(true);
    expect(reasonOf(r, 'cheap')).toBe('below-threshold');
    expect(evaluatedIn(r, 'bal')).toEqual(['big']); // judged by simulation; cheap was not
    expect(evaluatedIn(r, 'default').length).toBeGreaterThan(0);
  });

  it('restarts at the head after a walk that stopped at a command (no timeout)', () => {
    const objs = [versionedPool('default'), ...oversized('big'), ...stuck('a0'), ...stuck('a1')];
    const r = pass(objs, { maxCommands: 1 });
    expect(r.commands.map((c) => c.candidates.map((x) => x.name))).toEqual([['big']]);
    expect(evaluatedIn(r, 'default')).toEqual([]);
  });

  it('keeps its members after a timed-out walk', () => {
    const objs = [versionedPool('default'), ...['a0', 'a1', 'a2', 'a3', 'a4'].flatMap((n) => stuck(n))];
    const r = pass(objs, { singleNodeTimeoutMs: 30 }, undefined, { ticks: true });
    expect(r.timedOut).toBe(true);
    expect(evaluatedIn(r, 'default').sort()).toEqual(r.skipped.map((s) => s.node).sort());
  });
});

describe('the negative cache', () => {
  const fleet = [versionedPool('default'), ...stuck('a0'), ...stuck('a1')];

  it('still hits after a spot-price refresh (the revision is blind to price and availability)', () => {
    const first = pass(fleet, {}, undefined, { types: catalogWith(0.4) });
    const second = pass(fleet, {}, first.memory, { types: catalogWith(0.3) });
    expect(second.negativeTally?.byResult.hit).toBe(2);
  });

  it("still hits when a type another cloud's pool would use appears (the revision is per NodePool)", () => {
    const gcp = {
      name: 'g-4',
      cloud: 'gcp',
      capacity: { cpu: '4', memory: '16Gi', pods: '110' },
      offerings: [{ zone: 'us-central1-a', capacityType: 'on-demand', price: 0.01 }],
    };
    const first = pass(fleet, {}, undefined, { types: catalogWith() });
    const second = pass(fleet, {}, first.memory, { types: catalogWith(0.4, [gcp]) });
    expect(second.negativeTally?.byResult.hit).toBe(2);
  });

  it('misses when the pool gains an instance type', () => {
    const bigger = {
      name: 's-32',
      cloud: 'aws',
      capacity: { cpu: '32', memory: '128Gi', pods: '110' },
      offerings: [{ zone: 'us-east-1a', capacityType: 'on-demand', price: 1.6 }],
    };
    const first = pass(fleet, {}, undefined, { types: catalogWith() });
    const second = pass(fleet, {}, first.memory, { types: catalogWith(0.4, [bigger]) });
    expect(second.negativeTally?.byResult.changed).toBe(2);
  });

  it('keeps the first expiry when an observe-only pass re-stores the same verdict', () => {
    const first = pass(fleet);
    const later = new Date(NOW.getTime() + 60_000);
    const second = pass(fleet, {}, first.memory, { now: later });
    expect(second.negativeTally?.byResult.hit).toBe(2);
    const expiry = second.memory.negativeCache?.entries.get('a0')?.expiresAt.getTime();
    expect(expiry).toBe(NOW.getTime() + 5 * 60_000);
    // so the verdict expires five minutes after it was first computed, however often it is re-simulated
    const third = pass(fleet, {}, second.memory, { now: new Date(NOW.getTime() + 5 * 60_000) });
    expect(third.negativeTally?.byResult.expired).toBe(2);
  });

  it('takes its TTL from the pass options', () => {
    const r = pass(fleet, { negativeCacheTtlMs: 60_000 });
    expect(r.memory.negativeCache?.entries.get('a0')?.expiresAt.getTime()).toBe(NOW.getTime() + 60_000);
  });

  it('does not store a no-op reached while a held proposal was simulated away', () => {
    const objs = [versionedPool('default'), ...oversized('big'), ...stuck('a0')];
    const r = pass(objs, { maxCommands: 2 });
    expect(r.commands.map((c) => c.candidates.map((x) => x.name))).toEqual([['big']]);
    expect(reasonOf(r, 'a0')).toBe('no-cheaper-replacement');
    expect(r.memory.negativeCache?.entries.has('a0')).toBe(false);
  });
});

describe('when a pass may call the fleet consolidated', () => {
  it('not after skipping on a cached verdict, nor when a budget held a candidate back', () => {
    const base = { candidates: 3, commands: 0, timedOut: false, constrainedByBudgets: false };
    expect(passOutcome({ ...base, skippedOnCache: false })).toBe('consolidated');
    expect(passOutcome({ ...base, skippedOnCache: true })).toBe('no-proposals');
    expect(passOutcome({ ...base, skippedOnCache: false, constrainedByBudgets: true })).toBe('no-proposals');
  });

  it('a walk that passed a candidate over for budget does not report consolidated', () => {
    const frozen = versionedPool('frozen', { budgets: [{ nodes: '0' }] });
    const r = pass([versionedPool('default'), frozen, ...stuck('a0'), ...stuck('f0', 'frozen')]);
    expect(reasonOf(r, 'f0')).toBe('budget-exhausted');
    expect(r.outcome).toBe('no-proposals');
  });

  it('a pass that skipped on cache hits is labelled no-proposals', () => {
    const first = pass(fleet());
    const r = pass(fleet(), { skipUnchangedNegatives: true }, first.memory);
    expect(r.skipped.map((s) => s.reason)).toEqual(['cached-negative', 'cached-negative']);
    expect(r.outcome).toBe('no-proposals');
    function fleet() {
      return [versionedPool('default'), ...stuck('a0'), ...stuck('a1')];
    }
  });
});

describe('Balanced consolidation (Karpenter v1.14 balanced.go)', () => {
  // cheap: an s-2 with five pinned pods (disruption cost 6); busy: an s-16 whose one pod could move to cheap.
  const pinned = (i: number) => {
    const p = pod(`cheap-${i}`, {
      node: 'cheap',
      cpu: '100m',
      nodeSelector: { 'kubernetes.io/hostname': 'cheap' },
    });
    return p;
  };
  const objs = (policy: PoolSpec['policy']) => [
    nodePool('default', { policy }),
    node('cheap', { type: 's-2' }),
    ...[0, 1, 2, 3, 4].map(pinned),
    node('busy', { type: 's-16' }),
    pod('busy-app', { node: 'busy', cpu: '500m' }),
  ];

  it('skips a candidate whose best case cannot reach the threshold as below-threshold', () => {
    const r = pass(objs('Balanced'), { maxCommands: 2 });
    expect(r.commands.map((c) => c.candidates.map((x) => x.name))).toEqual([['busy']]);
    expect(r.skipped).toContainEqual({
      node: 'cheap',
      reason: 'below-threshold',
      method: 'single-node-consolidation',
    });
  });

  it('judges the same candidate by simulation under WhenEmptyOrUnderutilized', () => {
    const r = pass(objs('WhenEmptyOrUnderutilized'), { maxCommands: 2 });
    expect(reasonOf(r, 'cheap')).not.toBe('below-threshold');
  });

  it('applies in upstream mode too (it is Karpenter behaviour)', () => {
    const r = pass(objs('Balanced'), { maxCommands: 1, upstream: true });
    expect(r.commands.map((c) => c.candidates.map((x) => x.name))).toEqual([['busy']]);
  });
});
