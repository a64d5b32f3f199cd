// The census use case (docs/mechanisms/census.md): every ten minutes, under the census lease, simulate every
// candidate against live state and act on none; store the counts per NodePool and publish
// consolidation_actionable_candidates{nodepool,decision}, the census gauges and the sweep's duration. A sweep
// the budget cut short says so: truncated, and how many candidates it left unsimulated, in the result and
// in the metrics. An overlapping start finds the lease held and returns `held` at once.
import {
  censusCandidates,
  censusMetrics,
  censusSetup,
  CENSUS_TIMEOUT_MS,
  runCensus,
  type CensusResult as Sweep,
} from '../disruption/census.ts';
import { KRAFTSMAN_METRICS, LABELS } from '../disruption/metric-names.ts';
import type { PassOptions, Stopwatch } from '../disruption/types.ts';
import type { Metrics } from '../ports/metrics.ts';
import type { CensusResult } from '../ports/state-store/records.ts';
import { LOOP_METRICS } from './disruption-metrics.ts';
import { readLive, type Live, type LiveDeps } from './live-state.ts';
import { withLease, type LeaseDeps } from './with-lease.ts';
import { clockStopwatch } from './stopwatch.ts';
import { fanOutCensus, shardsFor, type CensusFanOut } from './census-fanout.ts';

export interface CensusDeps extends LiveDeps, LeaseDeps {
  readonly metrics: Metrics;
  /** Set: a census of more candidates than one shard holds fans out to worker invocations (census-fanout.ts). */
  readonly fanOut?: CensusFanOut;
}

export interface CensusRequest {
  readonly cluster: string;
  /** Unique per attempt (request id + nonce). */
  readonly owner: string;
  /** The schedule's event id: a second delivery of the same firing does not sweep twice. */
  readonly runId?: string;
  readonly options: PassOptions;
  /** Simulation time the sweep may spend (five minutes by default, CENSUS_TIMEOUT_MS). */
  readonly budgetMs?: number;
  /** Must outlive the sweep: the sweep is synchronous, so no heartbeat runs while it simulates. */
  readonly leaseTtlMs: number;
}

export interface CensusSummary {
  readonly sweep: Sweep;
  /** Every node the counts cover: each decision plus the unreached, in every pool. */
  readonly candidates: number;
  /** Worker invocations the sweep fanned out to (0: judged here), and those that brought no result. */
  readonly shards: number;
  readonly failedShards: readonly number[];
  /** Candidates the budget left unsimulated (0 unless truncated). */
  readonly unreached: number;
  readonly results: readonly CensusResult[];
  readonly durationMs: number;
}

export type CensusOutcome =
  | ({ readonly outcome: 'ran' } & CensusSummary)
  | { readonly outcome: 'held'; readonly holder: string; readonly reason: 'held' | 'same-run' };

export async function census(deps: CensusDeps, request: CensusRequest): Promise<CensusOutcome> {
  const run = await withLease(
    deps,
    {
      cluster: request.cluster,
      name: 'census',
      owner: request.owner,
      ttlMs: request.leaseTtlMs,
      ...(request.runId ? { runId: request.runId } : {}),
    },
    () => sweep(deps, request),
  );
  if (run.outcome === 'held') return { outcome: 'held', holder: run.holder.owner, reason: run.reason };
  return { outcome: 'ran', ...run.value };
}

async function sweep(deps: CensusDeps, request: CensusRequest): Promise<CensusSummary> {
  const stopwatch = clockStopwatch(deps.clock);
  const live = await readLive(deps, request.cluster, request.options);
  const { result, shards, failedShards } = await judge(deps, request, live, stopwatch);
  const at = deps.clock.now();
  const results: CensusResult[] = Object.entries(result.nodePools)
    .filter(([pool]) => pool !== '')
    .map(([nodePool, counts]) => ({
      nodePool,
      candidates: censusCandidates(counts),
      counts: { ...counts },
      at,
    }));
  if (results.length) await deps.store.putCensus(request.cluster, results);
  const unreached = Object.values(result.nodePools).reduce((n, c) => n + c.unreached, 0);
  const durationMs = stopwatch.elapsedMs();
  publish(deps.metrics, result, unreached, durationMs);
  deps.metrics.gauge(LOOP_METRICS.censusShards, shards);
  deps.metrics.gauge(LOOP_METRICS.censusShardsFailed, failedShards.length);
  const candidates = Object.values(result.nodePools).reduce((n, c) => n + censusCandidates(c), 0);
  return { sweep: result, candidates, unreached, results, durationMs, shards, failedShards };
}

/** One invocation's census, or, with fan-out set and more candidates than a shard, the workers' merged. */
async function judge(deps: CensusDeps, request: CensusRequest, live: Live, stopwatch: Stopwatch) {
  const { snapshot, inputs } = live;
  const claimedByCommands = inputs.claimedByCommands ?? new Set<string>();
  if (deps.fanOut) {
    const setup = censusSetup(snapshot, inputs.now, request.options, undefined, claimedByCommands);
    const plans = shardsFor(setup, deps.fanOut.shardSize);
    if (plans.length) {
      const fanned = await fanOutCensus(
        { ...deps, fanOut: deps.fanOut },
        {
          cluster: request.cluster,
          runId: request.runId ?? request.owner,
          options: request.options,
          budgetMs: request.budgetMs ?? CENSUS_TIMEOUT_MS,
        },
        setup,
        { snapshot, now: inputs.now, claimedByCommands },
        plans,
      );
      return { result: fanned.sweep, shards: fanned.shards, failedShards: fanned.failedShards };
    }
  }
  const result = runCensus(snapshot, inputs.now, request.options, stopwatch, {
    claimedByCommands,
    ...(request.budgetMs !== undefined ? { timeoutMs: request.budgetMs } : {}),
  });
  return { result, shards: 0, failedShards: [] as readonly number[] };
}

function publish(metrics: Metrics, result: Sweep, unreached: number, durationMs: number): void {
  for (const [nodepool, counts] of Object.entries(result.nodePools)) {
    if (nodepool === '') continue;
    for (const decision of ['delete', 'replace'] as const)
      metrics.gauge(LOOP_METRICS.consolidationActionableCandidates, counts[decision], { nodepool, decision });
    metrics.gauge(KRAFTSMAN_METRICS.censusCandidates, censusCandidates(counts) - counts.unreached, {
      nodepool,
    });
  }
  // Every count by pool and decision (unreached among them), and whether the sweep was truncated. Nodes of
  // no NodePool are left out: an empty dimension value would drop the label from the EMF document.
  for (const m of censusMetrics(result))
    if (m.labels[LABELS.nodePool] !== '') metrics.gauge(m.name, m.value, m.labels);
  metrics.gauge(LOOP_METRICS.censusUnreached, unreached);
  if (result.truncated) metrics.count(LOOP_METRICS.censusTruncatedTotal, 1);
  metrics.observe(LOOP_METRICS.censusDurationSeconds, durationMs / 1000);
}
