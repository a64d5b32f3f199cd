// The real Clock: wall time, for the composition roots. The core and the use cases only ever see the port.
import type { Clock } from '../ports/clock.ts';

export const systemClock: Clock = { now: () => new Date() };
