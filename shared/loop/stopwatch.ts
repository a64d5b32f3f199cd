// A pass's stopwatch on the use case's clock: elapsed time since it was made, and the walk's work passed on to
// a clock that charges it (the local fleet's simulated clock, docs/fleet.md "Time"; a real clock has none).
import type { Stopwatch } from '../disruption/types.ts';
import type { Clock } from '../ports/clock.ts';

export function clockStopwatch(clock: Clock, start: Date = clock.now()): Stopwatch {
  const from = start.getTime();
  const elapsedMs = (): number => clock.now().getTime() - from;
  return clock.work ? { elapsedMs, work: (kind, count) => clock.work?.(kind, count) } : { elapsedMs };
}
