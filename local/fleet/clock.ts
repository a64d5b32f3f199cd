// The local fleet's simulated clock: it runs with real time while the functions work (so leases, heartbeats
// and timeouts see the durations they would in Lambda) and jumps ahead between scheduled firings — a minute
// of schedule costs only the wall time its work took, whatever the minute's simulated length.
import type { Clock } from '../../shared/ports/clock.ts';

export class FleetClock implements Clock {
  private offsetMs: number;

  /** Simulated time starts at `start` (the run's start on the wall clock: dates are relative to the run). */
  constructor(
    start: Date,
    private readonly wallNow: () => number = Date.now,
  ) {
    this.offsetMs = start.getTime() - wallNow();
  }

  now(): Date {
    return new Date(this.wallNow() + this.offsetMs);
  }

  /** Moves simulated time forward by `ms` (a wait that passes in simulated time only). */
  advance(ms: number): void {
    if (ms > 0) this.offsetMs += ms;
  }

  /** Moves simulated time forward to `at` (never back: a clock that went backwards would break the leases). */
  advanceTo(at: Date): void {
    const ahead = at.getTime() - this.now().getTime();
    if (ahead > 0) this.offsetMs += ahead;
  }
}
