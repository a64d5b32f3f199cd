// The local fleet's clock. Simulated (the default): time moves only when the fleet moves it — to each scheduled
// firing, by a wait (admit's settling), and by the cost of the work the functions report (costs.ts) — so a seed
// gives the same run on any machine. Wall (`--wall-clock`, benchmarks): it runs with real time while the
// functions work and jumps ahead between firings. Either way the emulators' timers run on it (later/runDue).
import type { WalkWork } from '../../shared/disruption/types.ts';
import type { Clock } from '../../shared/ports/clock.ts';
import { FLEET_NOW } from '../../test/fixtures/fleet/ids.ts';
import { WALK_COSTS_MS } from './costs.ts';

export type FleetTime = 'simulated' | 'wall';

/**
 * Where simulated time starts: the fleet generator's "now" (test/fixtures/fleet/ids.ts), Monday 2026-11-30 00:00
 * UTC, outside the training pools' working-hours budget (09:00–17:00 on weekdays). Wall mode starts at the run's start.
 */
export const SIMULATED_START = FLEET_NOW;

interface Due {
  readonly at: number;
  readonly seq: number;
  readonly fn: () => void;
}

export class FleetClock implements Clock {
  private offsetMs: number;
  private simulatedMs: number;
  private readonly due: Due[] = [];
  private seq = 0;
  private readonly wallTimers = new Set<NodeJS.Timeout>();
  /** The walk work reported so far, by kind (charged in simulated time; counted in both modes, for calibration). */
  readonly worked: Record<WalkWork, number> = { 'simulation-step': 0, candidate: 0 };

  /** Simulated time starts at `start` (the run's start on the wall clock: dates are relative to the run). */
  constructor(
    start: Date,
    readonly mode: FleetTime = 'simulated',
    private readonly wallNow: () => number = Date.now,
  ) {
    this.offsetMs = start.getTime() - wallNow();
    this.simulatedMs = start.getTime();
  }

  now(): Date {
    return new Date(this.mode === 'wall' ? this.wallNow() + this.offsetMs : this.simulatedMs);
  }

  /** Moves time forward by `ms` (a wait that passes in simulated time only). */
  advance(ms: number): void {
    if (!(ms > 0)) return;
    if (this.mode === 'wall') this.offsetMs += ms;
    else this.simulatedMs += ms;
  }

  /** Moves time forward to `at` (never back: a clock that went backwards would break the leases). */
  advanceTo(at: Date): void {
    this.advance(at.getTime() - this.now().getTime());
  }

  /** Charges work done to simulated time; in wall mode the work took its own time already. */
  charge(ms: number): void {
    if (this.mode === 'simulated') this.advance(ms);
  }

  /** The walk's work (Clock.work): counted, and charged at its cost (costs.ts). */
  work(kind: WalkWork, count: number): void {
    this.worked[kind] += count;
    this.charge(WALK_COSTS_MS[kind] * count);
  }

  /**
   * Runs `fn` once `ms` have passed: on the wall clock in wall mode; in simulated mode when the fleet next calls
   * runDue at or after that simulated instant (between invocations), in the order the timers fall due.
   */
  later = (ms: number, fn: () => void): void => {
    if (this.mode === 'wall') {
      const t = setTimeout(() => {
        this.wallTimers.delete(t);
        fn();
      }, ms);
      t.unref();
      this.wallTimers.add(t);
      return;
    }
    this.due.push({ at: this.simulatedMs + Math.max(0, ms), seq: this.seq++, fn });
  };

  /** Fires the simulated timers due by now, earliest first (ties in the order they were set), including any they set. */
  runDue(): void {
    for (;;) {
      let next: Due | undefined;
      for (const d of this.due)
        if (d.at <= this.simulatedMs && (!next || d.at < next.at || (d.at === next.at && d.seq < next.seq)))
          next = d;
      if (!next) return;
      this.due.splice(this.due.indexOf(next), 1);
      next.fn();
    }
  }

  /** Drops the timers still pending (the run is over). */
  stop(): void {
    for (const t of this.wallTimers) clearTimeout(t);
    this.wallTimers.clear();
    this.due.length = 0;
  }
}
