// What the disruption functions recorded, read back the way an operator would: walk coverage and skip
// reasons from the metrics they emitted (docs/mechanisms/coverage-cycle.md). The census table is read from
// the state table census writes (wiring-census.ts).
import { KRAFTSMAN_METRICS, LABELS } from '../../shared/disruption/metric-names.ts';
import type { FleetMetrics } from './log.ts';

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
 * A walk that does not time out restarts the cycle (docs/mechanisms/coverage-cycle.md), so the cycle gauge
 * then reads the new, empty cycle (0) however far the walk got: a pool counts the larger of the cycle's reach
 * and the share of its candidates this pass's walk reached (`walk_depth`).
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
    reached += Math.max(c, n > 0 ? Math.min(1, (depth.get(pool) ?? 0) / n) : 0) * n;
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
