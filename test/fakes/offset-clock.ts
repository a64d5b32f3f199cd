// A clock that runs with real time but can be moved ahead by a test: timeouts of 15 minutes are reached
// with advance(16 * 60_000), while servers and waits that need real time (emulators, sockets) keep working.
import type { Clock } from '../../shared/ports/clock.ts';

export class OffsetClock implements Clock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}
