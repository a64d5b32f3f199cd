// The census use case (docs/mechanisms/census.md): every ten minutes, under the census lease, simulate every
// candidate against live state and act on none; store the counts per NodePool and publish
// consolidation_actionable_candidates{nodepool,decision}. Bounding the sweep is the pure census's job.
import { censusMetrics, runCensus, type CensusResult as Sweep } from '../disruption/census.ts';
import type { PassOptions } from '../disruption/types.ts';
import type { Metrics } from '../ports/metrics.ts';
import type { CensusResult } from '../ports/state-store/records.ts';
import { LOOP_METRICS } from './disruption-metrics.ts';
import { readLive, type LiveDeps } from './live-state.ts';

export interface CensusDeps extends LiveDeps {
  readonly metrics: Metrics;
}

export interface CensusRequest {
  readonly cluster: string;
  readonly owner: string;
  readonly options: PassOptions;
}

export async function census(deps: CensusDeps, request: CensusRequest): Promise<Sweep> {
  const lease = await deps.store.acquireLease({
    cluster: request.cluster,
    name: 'census',
    owner: request.owner,
    ttlMs: 10 * 60_000,
  });
  try {
    const start = deps.clock.now().getTime();
    const stopwatch = { elapsedMs: () => deps.clock.now().getTime() - start };
    const live = await readLive(deps, request.cluster, request.options);
    const sweep = runCensus(live.snapshot, live.inputs.now, request.options, stopwatch, {
      claimedByCommands: live.inputs.claimedByCommands,
    });
    const at = deps.clock.now();
    const results: CensusResult[] = Object.entries(sweep.nodePools)
      .filter(([pool]) => pool !== '')
      .map(([nodePool, counts]) => ({
        nodePool,
        candidates: Object.values(counts).reduce((a, b) => a + b, 0),
        counts: { ...counts },
        at,
      }));
    if (results.length) await deps.store.putCensus(request.cluster, results);
    for (const r of results)
      for (const decision of ['delete', 'replace'] as const)
        deps.metrics.gauge(LOOP_METRICS.consolidationActionableCandidates, r.counts[decision] ?? 0, {
          nodepool: r.nodePool,
          decision,
        });
    // The census's own gauges: every count by pool and decision, and whether the sweep was truncated.
    for (const m of censusMetrics(sweep)) deps.metrics.gauge(m.name, m.value, m.labels);
    deps.metrics.observe(LOOP_METRICS.censusDurationSeconds, stopwatch.elapsedMs() / 1000);
    return sweep;
  } finally {
    await deps.store.releaseLease(lease).catch(() => undefined);
  }
}
