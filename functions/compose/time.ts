// The real clock, timer and per-attempt nonces: the only place the functions take time and randomness from.
import { randomUUID } from 'node:crypto';
import { systemTimer } from '../../shared/adapters/system-timer.ts';
import { systemClock } from '../../shared/adapters/system-clock.ts';
import type { Clock } from '../../shared/ports/clock.ts';
import type { Timer } from '../../shared/ports/timer.ts';

export interface Time {
  readonly clock: Clock;
  readonly timer: Timer;
  /** A fresh random token: lease-owner nonces and NodeClaim name suffixes. */
  readonly nonce: () => string;
}

export function buildTime(): Time {
  return { clock: systemClock, timer: systemTimer, nonce: () => randomUUID() };
}
