// Metric names of the disruption loop's acting half (admit, orchestrate, census, pricing), beside the use
// cases that produce them; the pass's own names live with the core in shared/disruption/metric-names.ts.
export const LOOP_METRICS = {
  /** counter {stage, method}: proposals admission did not start, by the step that refused or failed. */
  admissionFailuresTotal: 'kraftsman_disruption_admission_failures_total',
  /** counter {decision, method}: commands admission started. */
  commandsAdmittedTotal: 'kraftsman_disruption_commands_admitted_total',
  /** counter {decision, method, result}: commands orchestration finished (result: completed | rolled-back | failed). */
  commandsExecutedTotal: 'kraftsman_disruption_commands_executed_total',
  /** counter {method, status, terminal}: failed attempts at advancing a command (terminal: it was given up). */
  commandFailuresTotal: 'kraftsman_disruption_command_failures_total',
  /** counter {decision, method}: $/h saved by completed commands (candidates' price − replacements'), priced by the proposing pass. */
  realizedSavingsPerHour: 'kraftsman_disruption_realized_savings_dollars_per_hour',
  /** counter: disrupted taints removed because no live command owned them. */
  strandedTaintsRemovedTotal: 'kraftsman_disruption_stranded_taints_removed_total',
  /** counter {result}: pod evictions by result (evicted | blocked | gone). */
  evictionsTotal: 'kraftsman_disruption_evictions_total',
  /** gauge {nodepool, decision}: the census's actionable candidates (the name). */
  consolidationActionableCandidates: 'consolidation_actionable_candidates',
  /** histogram, seconds: one census sweep. */
  censusDurationSeconds: 'kraftsman_disruption_census_duration_seconds',
  /** counter: census sweeps cut off by their bound (truncated: the counts cover only part of the fleet). */
  censusTruncatedTotal: 'kraftsman_disruption_census_truncated_total',
  /** gauge: candidates the last sweep left unsimulated because its budget ran out (0 when it finished). */
  censusUnreached: 'kraftsman_disruption_census_unreached',
  /** gauge: worker invocations the last sweep fanned out to (0: judged in one invocation; docs/mechanisms/census.md#fan-out). */
  censusShards: 'kraftsman_disruption_census_shards',
  /** gauge: shards of the last sweep whose worker stored no result by the deadline (their candidates: unreached). */
  censusShardsFailed: 'kraftsman_disruption_census_shards_failed',
  /** gauge (census-worker): candidates of its shard the worker's budget left unsimulated. */
  censusShardUnreached: 'kraftsman_disruption_census_shard_unreached',
  /** counter {nodepool}: candidates held off replaces after their command's replacement failed (docs/mechanisms/replacement-backoff.md). */
  replacementBackoffsTotal: 'kraftsman_disruption_replacement_backoffs_total',
  /** histogram {nodepool}, seconds: the hold each recorded failure started (base × 2^(n−1), at most 16 × base). */
  replacementBackoffSeconds: 'kraftsman_disruption_replacement_backoff_seconds',
  /** counter {cloud}: passes that priced with the built-in catalog because no stored prices were fresh. */
  pricingFallbackTotal: 'kraftsman_pricing_catalog_fallback_total',
} as const;

/** Where admission stopped for a proposal. */
export const ADMISSION_STAGES = [
  'validation',
  'budget',
  'record',
  'taint',
  'claim',
  'launch',
  'confirm',
  /** Left untried: the admission budget ran out first. */
  'expired',
  /** Dropped untried: the admission lock stayed held past the wait (the next pass proposes again). */
  'lock',
] as const;
export type AdmissionStage = (typeof ADMISSION_STAGES)[number];
