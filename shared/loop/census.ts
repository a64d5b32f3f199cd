// The census use case (docs/mechanisms/census.md): every ten minutes, under the census lease, simulate every
// candidate against live state and act on none; store the counts per NodePool and publish
// consolidation_actionable_candidates{nodepool,decision}, the census gauges and the sweep's duration. A sweep
// the budget cut short says so: truncated, and how many candidates it left unsimulated, in the result and
// in the metrics. An overlapping start finds the lease held and returns `held` at once.
import {
  censusCandidates,
  censusMetrics,
  runCensus,
  type CensusResult as Sweep,
} from '../disruption/census.ts';
import { KRAFTSMAN_METRICS, LABELS } from '../disruption/metric-names.ts';
import type { PassOptions } from '../disruption/types.ts';
import type { Metrics } from '../ports/metrics.ts';
import type { CensusResult } from '../ports/state-store/records.ts';
import { LOOP_METRICS } from './disruption-metrics.ts';
import { readLive, type LiveDeps } from './live-state.ts';
import { withLease, type LeaseDeps } from './with-lease.ts';
import { clockStopwatch } from './stopwatch.ts';

export interface CensusDeps extends LiveDeps, LeaseDeps {
  readonly metrics: Metrics;
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
  const result = runCensus(live.snapshot, live.inputs.now, request.options, stopwatch, {
    claimedByCommands: live.inputs.claimedByCommands,
    ...(request.budgetMs !== undefined ? { timeoutMs: request.budgetMs } : {}),
  });
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
  return { sweep: result, unreached, results, durationMs };
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
