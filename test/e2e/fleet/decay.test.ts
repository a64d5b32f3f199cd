// The decay scenario end to end (issue 16, scenarios; docs/fleet-scenarios.md, decay-bound): half the load of an
// inference and services fleet leaves, and the fleet consolidates through the real handlers — consolidate → admit →
// orchestrate → lifecycle — and ends settled (no command in flight) within 10% of the LP bound on cost, there before
// its last minute. Upstream mode is not compared here: on this fleet which mode is within 10% first moves with the
// timing of commands in flight (docs/fleet.md, "Sooner than upstream: what holds"); decay-walk.test.ts compares them
// where a fork mechanism (the coverage cycle under a walk budget) decides the race.
import { describe, expect, it } from 'vitest';
import type { FleetSample } from '../../../local/fleet/report/model.ts';
import { DECAY_BOUND } from '../../../local/fleet/scenarios/decay.ts';
import { runDecay } from '../../support/e2e/fleet-decay.ts';

// A scenario, not a property: one fleet, its seed fixed (KRAFTSMAN_SEED picks another).
const seed = Number(process.env.KRAFTSMAN_SEED ?? 42);
const minutes = DECAY_BOUND.minutes;

/** The first minute from which no sample had a command in flight; undefined when the last one did. */
function settledMinute(samples: readonly FleetSample[]): number | undefined {
  let since: number | undefined;
  for (const s of samples) since = s.commandsInFlight === 0 ? (since ?? s.minute) : undefined;
  return since;
}

describe('the decay scenario', () => {
  it(`consolidates to within 10% of the LP bound (seed ${seed})`, async () => {
    console.log(`decay: KRAFTSMAN_SEED=${seed}`);
    const kraftsman = await runDecay('decay-bound', DECAY_BOUND, seed, false);
    const r = kraftsman;
    const settled = settledMinute(r.samples);
    const sum = r.samples.slice(1).reduce((a, x) => a + x.costPerHour, 0);
    console.log(
      `decay: start $${r.summary.cost.startPerHour}/h end $${r.summary.cost.endPerHour} LP $${r.summary.cost.lowerBoundPerHour} ` +
        `within 10% from minute ${r.details.convergedMinute ?? 'never'}; nothing in flight from minute ` +
        `${settled ?? 'never'}; ${r.summary.commands.length} commands; sum of $/h ${sum.toFixed(1)}`,
    );

    const k = kraftsman.summary.cost;
    expect(k.lowerBoundPerHour).toBeGreaterThan(0);
    expect(k.endPerHour).toBeLessThan(k.startPerHour);
    // Settled at the end: no command in flight, so the end cost is a fleet the consolidator left, not a replacement
    // still running beside the candidate it has yet to drain — where a run stops whose commands timing admitted
    // late (docs/fleet.md, "Why `decay-bound` is shaped as it is").
    expect(settled).toBeDefined();
    expect(settled!).toBeLessThan(minutes);
    expect(k.endPerHour).toBeLessThanOrEqual(1.1 * k.lowerBoundPerHour);
    // Within 10% before the last minute, and stayed there (report/convergence.ts).
    expect(kraftsman.details.convergedMinute).toBeLessThan(minutes);
    // The walk was charted: the disruption pass reported its coverage cycle.
    expect(kraftsman.samples.some((x) => x.coverage !== null)).toBe(true);
    // Simulated time (docs/fleet.md, "Time"): seed 42's run is the same on any machine. Its 19 commands are
    // admitted a few a minute as the pools' 30% budgets and the drains allow; the last one ends at minute 28,
    // and from then the fleet holds within 10% of the bound with nothing in flight. (Minute 24 and $12.31 before
    // the local kubelet registered Nodes with the allocatable kraftsman estimates for their claims, which hold
    // fewer pods than the emulator's old vcpu−100m / memory−512Mi nodes.)
    if (seed === 42) {
      expect([k.startPerHour, k.endPerHour, k.lowerBoundPerHour]).toEqual([26.29, 12.46, 11.67]);
      expect(kraftsman.summary.commands).toHaveLength(19);
      expect(settled).toBe(28);
      expect(kraftsman.details.convergedMinute).toBe(28);
    }
    // census ran at minute 10: the table is what it stored, one row per NodePool it judged.
    expect(kraftsman.census.length).toBeGreaterThan(0);
    for (const row of kraftsman.census)
      expect(Object.values(row.counts).reduce((a, b) => a + b, 0)).toBe(row.candidates);
  }, 900_000);
});
