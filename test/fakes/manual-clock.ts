// A Clock that moves only when a test says so, so lease expiry is tested without sleeping on wall time.
import type { Clock } from '../../shared/ports/clock.ts';

export class ManualClock implements Clock {
  private ms: number;
  constructor(start = Date.parse('2026-11-30T00:00:00Z')) {
    this.ms = start;
  }
  now(): Date {
    return new Date(this.ms);
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}
