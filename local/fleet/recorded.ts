// What the disruption functions recorded, read back the way an operator would: walk coverage and skip
// reasons from the metrics they emitted (docs/mechanisms/coverage-cycle.md), the census from the state
// table census wrote (docs/mechanisms/census.md).
import { KRAFTSMAN_METRICS, LABELS } from '../../shared/disruption/metric-names.ts';
import type { StateStore } from '../../shared/ports/state-store/index.ts';
import type { FleetMetrics } from './log.ts';
import type { CensusRow } from './report/model.ts';

/** `name{k=v,...}` → the labels (FleetMetrics' key). */
function labelsOf(key: string, name: string): Record<string, string> | undefined {
  if (key === name) return {};
  if (!key.startsWith(`${name}{`) || !key.endsWith('}')) return undefined;
  const pairs = key.slice(name.length + 1, -1).split(',');
  return Object.fromEntries(pairs.map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]));
}

function byPool(metrics: FleetMetrics, name: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const [k, v] of metrics.totals) {
    const pool = labelsOf(k, name)?.[LABELS.nodePool];
    if (pool !== undefined) out.set(pool, v);
  }
  return out;
}

/**
 * The coverage cycle's reach over every pool's candidates, weighted by the pool's candidates (the last pass's
 * gauges); null while no pass has reported coverage (no disruption function, or upstream mode's plain walk).
 * A pass whose walk reached every candidate of a pool closed that pool's cycle, and the cycle gauge then
 * reads the new, empty cycle (0): that pool counts as fully covered.
 */
export function walkCoverage(metrics: FleetMetrics): number | null {
  const coverage = byPool(metrics, KRAFTSMAN_METRICS.walkCycleCoverage);
  if (coverage.size === 0) return null;
  const candidates = byPool(metrics, KRAFTSMAN_METRICS.walkCandidates);
  const depth = byPool(metrics, KRAFTSMAN_METRICS.walkDepth);
  let reached = 0;
  let total = 0;
  for (const [pool, c] of coverage) {
    const n = candidates.get(pool) ?? 0;
    reached += ((depth.get(pool) ?? 0) >= n ? 1 : c) * n;
    total += n;
  }
  return total > 0 ? reached / total : null;
}

/** Candidates passed over during the run, by skip reason (every pass's counts summed). */
export function skipReasons(metrics: FleetMetrics): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of metrics.totals) {
    const reason = labelsOf(k, KRAFTSMAN_METRICS.candidateSkipsTotal)?.[LABELS.reason];
    if (reason !== undefined) out[reason] = (out[reason] ?? 0) + v;
  }
  return out;
}

/** The last census of every NodePool, as census wrote it to the state table (none when census did not run). */
export async function censusRows(
  store: Pick<StateStore, 'listCensus'>,
  cluster: string,
): Promise<CensusRow[]> {
  const rows = await store.listCensus(cluster);
  return rows
    .map((r) => ({
      pool: r.nodePool,
      candidates: r.candidates,
      counts: { ...r.counts },
      at: r.at.toISOString(),
    }))
    .sort((a, b) => a.pool.localeCompare(b.pool));
}
