// The census cut into shards and merged back (docs/mechanisms/census.md#fan-out): the same counts per NodePool as
// one sweep, and a shard without a result counted unreached, never dropped.
import { describe, expect, it } from 'vitest';
import { fleetCatalog } from '../../../local/fleet/catalog.ts';
import { censusSetup, runCensus, skippedEntries } from '../../../shared/disruption/census.ts';
import {
  mergeShards,
  planShards,
  runCensusShard,
  type ShardCounts,
} from '../../../shared/disruption/census-shards.ts';
import { passOptions } from '../../../shared/disruption/types.ts';
import { buildInstanceTypes } from '../../../shared/scheduling/instance-type.ts';
import { recognize } from '../../../shared/state/recognize.ts';
import { buildSnapshot } from '../../../shared/state/snapshot.ts';
import { generateRamp } from '../../fixtures/fleet/ramp.ts';

const seed = Number(process.env.KRAFTSMAN_SEED ?? Date.now() % 100_000);
const objects = recognize(
  generateRamp({ nodes: 60, pending: 80, seed }).objects.map((value) => ({ source: 'ramp', value })),
).objects;
const snapshot = buildSnapshot(objects, buildInstanceTypes(fleetCatalog().instanceTypes), {
  poolReadiness: true,
});
const now = new Date('2026-12-08T00:00:00Z');
const options = passOptions({});

describe(`census shards (ramp seed ${seed})`, () => {
  const whole = runCensus(snapshot, now, options);
  const setup = censusSetup(snapshot, now, options);
  const plans = planShards(setup.set.candidates, 7);
  const judged = new Map<number, ShardCounts>(
    plans.map((p) => [
      p.shard,
      runCensusShard(snapshot, now, options, p.candidates, { timeoutMs: Number.POSITIVE_INFINITY }),
    ]),
  );

  it('cuts the census order into contiguous shards that cover every candidate once', () => {
    expect(plans.length).toBeGreaterThanOrEqual(3);
    expect(plans.flatMap((p) => p.candidates)).toEqual(setup.set.candidates.map((c) => c.name));
    expect(plans.every((p) => p.candidates.length <= 7)).toBe(true);
  });

  it('merges to the same counts per NodePool as one sweep', () => {
    const merged = mergeShards(skippedEntries(setup), plans, judged);
    expect(merged.nodePools).toEqual(whole.nodePools);
    expect(merged.reached).toBe(whole.reached);
    expect(merged.failedShards).toEqual([]);
    expect(merged.truncated).toBe(false);
  });

  it("counts a missing shard's candidates unreached, in their own pools, and keeps the others' results", () => {
    const lost = new Map(judged);
    lost.delete(1);
    const merged = mergeShards(skippedEntries(setup), plans, lost);
    expect(merged.failedShards).toEqual([1]);
    expect(merged.truncated).toBe(true);
    for (const [pool, counts] of Object.entries(whole.nodePools)) {
      const n = plans[1]!.pools[pool] ?? 0;
      expect(merged.nodePools[pool]!.unreached, pool).toBe(counts.unreached + n);
      const total = (c: typeof counts) => c.delete + c.replace + c.none + c.unreached;
      expect(total(merged.nodePools[pool]!), pool).toBe(total(counts));
    }
    expect(merged.reached).toBe(whole.reached - plans[1]!.candidates.length);
  });

  it('counts the rest of a shard unreached once its budget is spent', () => {
    let ms = 0;
    const stopwatch = { elapsedMs: () => ms, work: () => void (ms += 10) };
    const r = runCensusShard(snapshot, now, options, plans[0]!.candidates, { timeoutMs: 15 }, stopwatch);
    expect(r.reached).toBe(2);
    const unreached = Object.values(r.nodePools).reduce((n, c) => n + (c.unreached ?? 0), 0);
    expect(unreached).toBe(plans[0]!.candidates.length - 2);
  });

  it('names a shard candidate the snapshot does not have', () => {
    expect(() =>
      runCensusShard(snapshot, now, options, ['no-such-node'], { timeoutMs: Number.POSITIVE_INFINITY }),
    ).toThrow(/shard candidate no-such-node is not a census candidate/);
  });

  it('refuses a shard size that is not a positive integer', () => {
    expect(() => planShards(setup.set.candidates, 0)).toThrow(/positive integer, got 0/);
  });
});
