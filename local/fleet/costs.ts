// The simulated cost of the functions' work in the local fleet's default mode (docs/fleet.md, "Time: the cost
// model"): what a walk's budget and every time-based decision see instead of the machine's wall time. Each figure
// was calibrated once against wall-clock runs on the 2-core development machine (docs/fleet.md says how).
import type { WalkWork } from '../../shared/disruption/types.ts';

/** Per unit of walk work a disruption pass reports (Stopwatch.work). */
export const WALK_COSTS_MS: Readonly<Record<WalkWork, number>> = {
  /** A pod tried in a simulation, or one step of a delta simulation's follow. */
  'simulation-step': 0.05,
  /** A candidate judged: its simulation's set-up (the view, the backlog) and the verdict's bookkeeping. */
  candidate: 2,
};

/** Per invocation, charged when it returns: its start (event parse, snapshot) and each request it made. */
export const INVOCATION_COSTS_MS = {
  /** Every invocation. */
  invocation: 300,
  /** Each request to the local Kubernetes API, EC2 or Compute Engine server. */
  request: 1,
} as const;

/**
 * Runs one invocation of function `fn` and charges its cost to the clock when it returns, then fires the timers
 * that fell due.
 */
export type InvocationMeter = <T>(fn: string, run: () => Promise<T>) => Promise<T>;

/** Wraps every invocation (a benchmark's instrument: local/fleet/instrument.ts); runs it unchanged by default. */
export type InvocationWrap = <T>(fn: string, run: () => Promise<T>) => Promise<T>;

export function invocationMeter(
  clock: { charge(ms: number): void; runDue(): void },
  /** Requests the local servers have served so far. */
  served: () => number,
  around: InvocationWrap = (_fn, run) => run(),
): InvocationMeter {
  return async (fn, run) => {
    const before = served();
    try {
      return await around(fn, run);
    } finally {
      clock.charge(INVOCATION_COSTS_MS.invocation + (served() - before) * INVOCATION_COSTS_MS.request);
      clock.runDue();
    }
  };
}
