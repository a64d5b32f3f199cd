// Sooner than upstream through the walk budget (issue 16, decay; docs/fleet.md, "Sooner than upstream: the walk
// budget"): in `decay-walk` one NodePool holds a head of one-pod nodes no consolidator can move and a tail of
// half-emptied service nodes, and both modes walk it with the same small budgets. Upstream restarts every walk at
// the head and times out inside it; the coverage cycle resumes where the last walk stopped and skipping unchanged
// negatives makes the head free after its first evaluation, so kraftsman reaches the tail and the bound.
import { describe, expect, it } from 'vitest';
import { DECAY_WALK } from '../../../local/fleet/scenarios/decay.ts';
import { runDecay } from '../../support/e2e/fleet-decay.ts';

// A scenario, not a property: one fleet, its seed fixed (KRAFTSMAN_SEED picks another).
const seed = Number(process.env.KRAFTSMAN_SEED ?? 42);

describe('the decay-walk scenario', () => {
  it(`comes within 10% of the LP bound, sooner than upstream (seed ${seed})`, async () => {
    console.log(`decay-walk: KRAFTSMAN_SEED=${seed}`);
    const kraftsman = await runDecay('decay-walk', DECAY_WALK, seed, false);
    const upstream = await runDecay('decay-walk', DECAY_WALK, seed, true);
    for (const [mode, r] of [
      ['kraftsman', kraftsman],
      ['upstream', upstream],
    ] as const)
      console.log(
        `decay-walk ${mode}: start $${r.summary.cost.startPerHour}/h end $${r.summary.cost.endPerHour} ` +
          `LP $${r.summary.cost.lowerBoundPerHour} within 10% from minute ${r.details.convergedMinute ?? 'never'}; ` +
          `${r.summary.commands.length} commands`,
      );

    for (const [mode, r] of [
      ['kraftsman', kraftsman],
      ['upstream', upstream],
    ] as const)
      console.log(
        `decay-walk ${mode}: coverage by minute ${r.samples.map((x) => Math.round((x.coverage ?? 0) * 100)).join(' ')}; ` +
          `skips ${JSON.stringify(r.skipReasons)}`,
      );

    // What holds for any seed: kraftsman within 10% of the bound before the end, and before upstream.
    const k = kraftsman.summary.cost;
    const u = upstream.summary.cost;
    expect(k.lowerBoundPerHour).toBeGreaterThan(0);
    expect(k.endPerHour).toBeLessThanOrEqual(1.1 * k.lowerBoundPerHour);
    expect(kraftsman.details.convergedMinute).toBeLessThan(DECAY_WALK.minutes);
    expect(kraftsman.details.convergedMinute!).toBeLessThan(
      upstream.details.convergedMinute ?? DECAY_WALK.minutes + 1,
    );
    // Simulated time (docs/fleet.md, "Time"): the walks spend their 80 ms budget at the cost model's price, so
    // seed 42's figures are the same on any machine, exactly (docs/fleet-scenarios.md explains them).
    if (seed === 42) {
      expect([k.lowerBoundPerHour, u.lowerBoundPerHour]).toEqual([37.16, 37.16]);
      // Kraftsman: the coverage cycle walks the head a slice per pass, the head's negatives are then skipped, so
      // the walks reach the tail, hold up to five proposals each and bring the fleet within 10% from minute 12.
      expect(kraftsman.details.convergedMinute).toBe(12);
      expect(k.endPerHour).toBe(38.57);
      expect(kraftsman.summary.commands).toHaveLength(16);
      // Upstream: every walk restarts at the head and times out inside it (about 23 of its 160 candidates a
      // pass), so its commands are what emptiness and multi-node find, never the tail's: never within 10%.
      expect(upstream.details.convergedMinute).toBeUndefined();
      expect(u.endPerHour).toBe(44.78);
      expect(upstream.summary.commands).toHaveLength(8);
    }
    // The walk was charted: the coverage cycle reported (the gauge restarts with each cycle).
    const reach = Math.max(...kraftsman.samples.map((x) => x.coverage ?? 0));
    console.log(`decay-walk kraftsman: largest walk coverage ${Math.round(reach * 100)}%`);
    expect(kraftsman.samples.some((x) => x.coverage !== null)).toBe(true);
  }, 900_000);
});
