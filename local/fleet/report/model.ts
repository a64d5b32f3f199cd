// What one fleet run hands the report: the contract summary plus the time series and tables behind it.
import type { FleetSummary } from '../summary.ts';

/** One sample of the fleet, taken every simulated minute. */
export interface FleetSample {
  readonly minute: number;
  readonly costPerHour: number;
  readonly lowerBoundPerHour: number;
  readonly nodesByCloud: Readonly<Record<string, number>>;
  readonly nodesByPool: Readonly<Record<string, number>>;
  readonly pending: number;
  /** Fraction of the disruption candidates evaluated at least once in the current coverage cycle (0–1). */
  readonly coverage: number;
  readonly commandsInFlight: number;
}

export interface CensusRow {
  readonly node: string;
  readonly pool: string;
  readonly cloud: string;
  readonly verdict: string;
}

export interface FleetRun {
  readonly summary: FleetSummary;
  readonly samples: readonly FleetSample[];
  readonly skipReasons: Readonly<Record<string, number>>;
  readonly census: readonly CensusRow[];
}
