// The census function of a local fleet (every ten simulated minutes), built as functions/census/deps.ts
// builds it, against the local servers and on the fleet clock; and the census table as the state table holds
// it (one row per NodePool), for the run's summary and report.
import type { CensusHandlerDeps } from '../../functions/census/deps.ts';
import { createCensusHandler } from '../../functions/census/handler.ts';
import { systemTimer } from '../../shared/adapters/system-timer.ts';
import { censusConfig } from '../../shared/config/census.ts';
import type { StateStore } from '../../shared/ports/state-store/index.ts';
import type { FleetClock } from './clock.ts';
import { workerProcesses } from './census-workers.ts';
import { buildSnapshotStore } from '../../functions/compose/snapshot-store.ts';
import { systemClock } from '../../shared/adapters/system-clock.ts';
import { LOCAL_CREDENTIALS } from '../dynamodb/credentials.ts';
import type { FleetFunction } from './registry.ts';
import type { Adapters } from './wiring.ts';

export function censusFunction(
  vars: Readonly<Record<string, string>>,
  adapters: (fn: string) => Adapters,
  clock: FleetClock,
  nonce: () => string,
): FleetFunction {
  const a = adapters('census');
  const config = censusConfig(vars);
  const deps: CensusHandlerDeps = {
    loop: {
      cluster: a.cluster(config.cluster),
      store: a.store(config.store),
      instanceTypes: a.types(config).forPools,
      clock,
      timer: systemTimer,
      nonce,
      logger: a.logger,
      metrics: a.obs.metrics,
      ...(config.fanOut
        ? {
            fanOut: {
              invoker: workerProcesses(vars),
              snapshots: buildSnapshotStore(config.fanOut.snapshots, LOCAL_CREDENTIALS),
              shardSize: config.fanOut.shardSize,
              pollMs: config.fanOut.pollMs,
              waitClock: systemClock,
            },
          }
        : {}),
    },
    settings: config,
    obs: a.obs,
  };
  return {
    name: 'census',
    everyMinutes: 10,
    // The deployed timeout (serverless.yml): the 5-minute sweep budget plus the margin.
    timeoutMs: config.sweepBudgetMs + 2 * 60_000,
    handler: createCensusHandler(() => Promise.resolve(deps)),
  };
}

/** One NodePool's latest census: what could be deleted or replaced now, and what the budget left unreached. */
export interface CensusPoolRow {
  readonly pool: string;
  readonly candidates: number;
  readonly counts: Readonly<Record<string, number>>;
  readonly at: string;
}

/** The census results the state table holds for `cluster`, one row per NodePool, by pool name. */
export async function censusTable(store: StateStore, cluster: string): Promise<CensusPoolRow[]> {
  const results = await store.listCensus(cluster);
  return results
    .map((r) => ({ pool: r.nodePool, candidates: r.candidates, counts: r.counts, at: r.at.toISOString() }))
    .sort((x, y) => x.pool.localeCompare(y.pool));
}
