// The local fleet's clock (local/fleet/clock.ts): in simulated mode time moves only when the fleet moves it or
// work is charged, and the emulators' timers fire in due order when the fleet runs them; in wall mode it runs
// with the wall clock. And the fleet's ids come from the seed (ids.ts).
import { describe, expect, it } from 'vitest';
import { FleetClock } from '../../../local/fleet/clock.ts';
import { WALK_COSTS_MS } from '../../../local/fleet/costs.ts';
import { seededIds } from '../../../local/fleet/ids.ts';
import { clockStopwatch } from '../../../shared/loop/stopwatch.ts';

const START = new Date('2026-11-30T00:00:00Z');

describe('FleetClock, simulated', () => {
  it('stands still while the wall clock runs, and moves by advances and charged work only', () => {
    let wall = 1_000;
    const clock = new FleetClock(START, 'simulated', () => wall);
    wall += 5_000;
    expect(clock.now()).toEqual(START);
    clock.advance(1_000);
    clock.charge(250);
    clock.work('candidate', 2);
    clock.work('simulation-step', 10);
    const worked = 2 * WALK_COSTS_MS.candidate + 10 * WALK_COSTS_MS['simulation-step'];
    // A Date holds whole milliseconds: the clock keeps the fractions and shows their floor.
    expect(clock.now().getTime() - START.getTime()).toBe(Math.floor(1_250 + worked));
    expect(clock.worked).toEqual({ candidate: 2, 'simulation-step': 10 });
    clock.advanceTo(START); // never back
    expect(clock.now().getTime()).toBeGreaterThan(START.getTime());
  });

  it("gives a walk's stopwatch the charged work as elapsed time", () => {
    const clock = new FleetClock(START, 'simulated');
    const stopwatch = clockStopwatch(clock);
    stopwatch.work?.('candidate', 3);
    expect(stopwatch.elapsedMs()).toBe(3 * WALK_COSTS_MS.candidate);
  });

  it('fires timers when run at or after their time, earliest first, ties in the order set', () => {
    const clock = new FleetClock(START, 'simulated');
    const fired: string[] = [];
    clock.later(2_000, () => fired.push('b'));
    clock.later(1_000, () => fired.push('a1'));
    clock.later(1_000, () => {
      fired.push('a2');
      clock.later(0, () => fired.push('a2-then'));
    });
    clock.later(0, () => fired.push('now'));
    expect(fired).toEqual([]); // nothing fires by itself
    clock.runDue();
    expect(fired).toEqual(['now']);
    clock.advance(1_500);
    clock.runDue();
    expect(fired).toEqual(['now', 'a1', 'a2', 'a2-then']);
    clock.advance(10_000);
    clock.stop();
    clock.runDue();
    expect(fired).toEqual(['now', 'a1', 'a2', 'a2-then']);
  });
});

describe('FleetClock, wall', () => {
  it('runs with the wall clock and charges nothing', () => {
    let wall = 1_000;
    const clock = new FleetClock(START, 'wall', () => wall);
    wall += 5_000;
    clock.charge(1_000);
    clock.work('candidate', 1);
    expect(clock.now().getTime() - START.getTime()).toBe(5_000);
  });
});

describe('seededIds', () => {
  it('gives the same ids for the same seed and stream, others for another', () => {
    const a = seededIds(42, 'nonce');
    const b = seededIds(42, 'nonce');
    const first = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(first);
    expect(new Set(first).size).toBe(3);
    expect(seededIds(43, 'nonce')()).not.toBe(first[0]);
    expect(seededIds(42, 'kube')()).not.toBe(first[0]);
    expect(first[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
