// When a run's cost settled near its floor (docs/fleet-scenarios.md, decay): the first simulated minute from
// which every sample's cost stays within a factor of the bound, so two modes of the same scenario and seed can be
// compared by how soon each got there, not only by where each ended.
import type { FleetSample } from './model.ts';

/** The decay's target: within 10% of the LP bound. */
export const CONVERGED_WITHIN = 1.1;

/**
 * The first minute m such that every sample at m or later costs at most `within` × `bound`; undefined when the
 * last sample does not (the run never settled). `bound` is the end state's LP bound: after the load's last
 * change the running pods, and so the bound, no longer change.
 */
export function convergedMinute(
  samples: readonly FleetSample[],
  bound: number,
  within = CONVERGED_WITHIN,
): number | undefined {
  if (!(bound > 0) || !(within >= 1))
    throw new RangeError(`convergedMinute: bound must be > 0 and within >= 1, got ${bound} and ${within}`);
  let since: number | undefined;
  for (const s of [...samples].sort((a, b) => a.minute - b.minute)) {
    if (s.costPerHour <= within * bound) since ??= s.minute;
    else since = undefined;
  }
  return since;
}
