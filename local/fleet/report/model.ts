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
  /** Fraction of the disruption candidates evaluated at least once in the current coverage cycle (0–1); null
   *  while no disruption function runs. */
  readonly coverage: number | null;
  readonly commandsInFlight: number;
}

/** One NodePool's last census (what census wrote to the state table): its candidates and their verdicts. */
export interface CensusRow {
  readonly pool: string;
  readonly candidates: number;
  /** Candidates per verdict: delete, replace, none, empty, drifted, unreached. */
  readonly counts: Readonly<Record<string, number>>;
  readonly at: string;
}

/** What the run knows beyond the contract summary: for the table, the report and the exit code. */
export interface RunDetails {
  readonly minCostPerHour: number;
  readonly claimsCreated: number;
  readonly terminated: { readonly aws: number; readonly gcp: number };
  /** Nodes whose bound pods ask for more than their allocatable (an invariant the JSON has no key for). */
  readonly doubleBooked: readonly string[];
  /** Nodes whose instance is not live (and was not live lately either): capacity that does not exist. */
  readonly nodesWithoutInstance: readonly string[];
  readonly orphans: readonly string[];
  readonly stranded: readonly string[];
  readonly lostOwners: readonly string[];
  /** Pods pending at the end with the reason provisioning gave (their latest FailedScheduling event), at most 20. */
  readonly unprovisionablePods?: readonly { readonly pod: string; readonly reason: string }[];
  /** Each finished command at the simulated minute it ended (the cost chart's markers). */
  readonly commandMarkers?: readonly { readonly minute: number; readonly label: string }[];
  readonly commandsInFlightAtEnd?: number;
  readonly functionsRun: readonly string[];
  readonly invocationFailures: readonly { readonly fn: string; readonly error: string }[];
  readonly logCounts: Readonly<Record<string, number>>;
  /** Every handler result field summed over the run (provision.claimsCreated, lifecycle.registered, ...). */
  readonly totals: Readonly<Record<string, number>>;
  /** The end state's fresh packing (report/fleet-bound.ts): what the scheduler would launch for the running pods
   *  on an empty cluster, and how many running pods no NodePool admits. */
  readonly floor?: { readonly packingPerHour: number; readonly unserved: number };
  /** The first minute from which the cost stayed within 10% of the end's lower bound (report/convergence.ts);
   *  absent when the run ended above it. */
  readonly convergedMinute?: number;
}

export interface FleetRun {
  readonly summary: FleetSummary;
  readonly details: RunDetails;
  readonly samples: readonly FleetSample[];
  readonly skipReasons: Readonly<Record<string, number>>;
  readonly census: readonly CensusRow[];
}
