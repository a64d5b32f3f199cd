// Settings of the census function (every ten minutes, docs/functions/census.md): the sweep's budget (five
// minutes), the pass options it judges candidates with (the same keys consolidate reads, so the census counts
// what a pass would find), and its lease. One cold-start parse; every bad variable is named at once.
import { z } from 'zod';
import { CENSUS_TIMEOUT_MS } from '../disruption/census.ts';
import { commonEnv, commonSettings, gcpEnv, gcpSettings, wantsGcp } from './function-env.ts';
import { disruptionEnv, disruptionOptions } from './disruption.ts';
import { durationMs } from './env.ts';
import { fanOutEnv, fanOutSettings } from './census-fanout.ts';
import { parseConfig } from './parse.ts';

/** What a sweep may need besides simulating: reading the cluster and prices, storing the results. */
export const CENSUS_MARGIN_MS = 2 * 60_000;

export const censusEnvSchema = z.object({
  ...commonEnv,
  ...disruptionEnv,
  /** Simulation time one sweep may spend; candidates past it are counted unreached (docs/mechanisms/census.md). */
  KRAFTSMAN_CENSUS_BUDGET: durationMs(`${CENSUS_TIMEOUT_MS / 60_000}m`),
  /** Unset: the budget plus the margin, so the lease outlives a sweep that never yields to the heartbeat. */
  KRAFTSMAN_LEASE_TTL: durationMs('0s'),
  ...fanOutEnv,
});

export function censusConfig(env: Readonly<Record<string, string | undefined>>) {
  const gcp = wantsGcp(env) ? parseConfig(censusEnvSchema.extend(gcpEnv), env, 'census function') : undefined;
  const e = gcp ?? parseConfig(censusEnvSchema, env, 'census function');
  return {
    ...commonSettings(e, 'census'),
    /** Read for instance types only: the census acts on nothing. */
    gce: gcp ? gcpSettings(gcp) : undefined,
    options: disruptionOptions(e),
    sweepBudgetMs: e.KRAFTSMAN_CENSUS_BUDGET,
    leaseTtlMs:
      e.KRAFTSMAN_LEASE_TTL > 0 ? e.KRAFTSMAN_LEASE_TTL : e.KRAFTSMAN_CENSUS_BUDGET + CENSUS_MARGIN_MS,
    instanceTypesTtlMs: e.KRAFTSMAN_INSTANCE_TYPES_TTL,
    /** Unset unless the snapshot bucket and the worker function are both given (docs/mechanisms/census.md#fan-out). */
    fanOut: fanOutSettings(e, 'census'),
  };
}
export type CensusConfig = ReturnType<typeof censusConfig>;
