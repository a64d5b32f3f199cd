// Metric names and label vocabularies of a disruption pass: Karpenter v1.14.1's (pkg/controllers/disruption/metrics.go,
// namespace "karpenter") where one exists, kraftsman's own for the fork's mechanisms
// (docs/README.md lists their pages). Names and `as const` vocabularies only; emitting goes through the Metrics port at the edge.
import type { DisruptionReason } from '../model/nodepool.ts';
import { STAGES, type Stage } from './pass-context.ts';
import { SKIP_REASONS, type MethodName, type SkipReason } from './types.ts';

/** Karpenter's label keys (pkg/metrics/constants.go and disruption/metrics.go). */
export const LABELS = {
  nodePool: 'nodepool',
  reason: 'reason',
  decision: 'decision',
  consolidationType: 'consolidation_type',
  method: 'method',
  outcome: 'outcome',
  stage: 'stage',
  result: 'result',
} as const;

/** Karpenter's own metric names: dashboards written for upstream keep working. */
export const KARPENTER_METRICS = {
  /** counter {decision, reason, consolidation_type}: commands the queue started. */
  decisionsTotal: 'karpenter_voluntary_disruption_decisions_total',
  /** counter {nodepool, decision, reason, consolidation_type}. */
  decisionsByNodePoolTotal: 'karpenter_voluntary_disruption_decisions_by_nodepool_total',
  /** gauge {reason}: candidates a method considered this pass. */
  eligibleNodes: 'karpenter_voluntary_disruption_eligible_nodes',
  /** counter {consolidation_type}: walks that hit their timeout. */
  consolidationTimeoutsTotal: 'karpenter_voluntary_disruption_consolidation_timeouts_total',
  /** histogram {reason, consolidation_type}, seconds. */
  decisionEvaluationDurationSeconds: 'karpenter_voluntary_disruption_decision_evaluation_duration_seconds',
  /** counter {consolidation_type}: commands that failed validation before they started. */
  failedValidationsTotal: 'karpenter_voluntary_disruption_failed_validations_total',
  /** counter {decision, reason, consolidation_type}: started commands that failed in the queue. */
  queueFailuresTotal: 'karpenter_voluntary_disruption_queue_failures_total',
  /** gauge {nodepool, reason}: what the budgets allow before NotReady/deleting nodes are subtracted. */
  nodePoolAllowedDisruptions: 'karpenter_nodepools_allowed_disruptions',
  /** gauge {nodepool, reason}: NotReady or deleting nodes consuming the budget. */
  nodePoolNodesConsumingBudgets: 'karpenter_nodepools_nodes_consuming_budgets',
} as const;

/**
 * Kraftsman's additions (docs/architecture.md, step 6 of a pass: pass outcomes, stage timings, skip reasons,
 * depth, walk-cycle coverage, census).
 */
export const KRAFTSMAN_METRICS = {
  /** counter {outcome}: how each pass ended (PASS_OUTCOMES). */
  passOutcomesTotal: 'kraftsman_disruption_pass_outcomes_total',
  /** histogram {stage}, seconds: where a pass's time went (STAGE_LABELS). */
  passStageDurationSeconds: 'kraftsman_disruption_pass_stage_duration_seconds',
  /** counter {method, reason, nodepool}: why the pass passed over each considered candidate (SKIP_REASONS). */
  candidateSkipsTotal: 'kraftsman_disruption_candidate_skips_total',
  /** gauge {nodepool}: how many of the pool's candidates the walk reached before it stopped. */
  walkDepth: 'kraftsman_disruption_walk_depth',
  /** gauge {nodepool}: the pool's candidates in this pass. */
  walkCandidates: 'kraftsman_disruption_walk_candidates',
  /** gauge {nodepool}: fraction of current candidates the coverage cycle has reached (0..1). */
  walkCycleCoverage: 'kraftsman_disruption_walk_cycle_coverage',
  /** counter {nodepool}: coverage cycles completed. */
  walkCyclesCompletedTotal: 'kraftsman_disruption_walk_cycles_completed_total',
  /** counter {result}: negative-cache lookups by result (NEGATIVE_CACHE_RESULTS), counted in observe-only mode too. */
  negativeCacheLookupsTotal: 'kraftsman_disruption_negative_cache_lookups_total',
  /** gauge: entries stored after the end-of-pass sweep (observe-only mode too). */
  negativeCacheEntries: 'kraftsman_disruption_negative_cache_entries',
  /** counter {method}: methods passed over because nothing changed since they last found nothing to do. */
  consolidatedSkipsTotal: 'kraftsman_disruption_consolidated_skips_total',
  /** counter: proposals held by walks (batched proposals). */
  proposalsHeldTotal: 'kraftsman_disruption_proposals_held_total',
  /** gauge {nodepool, decision}: the census's counts (delete | replace | none | empty | drifted | unreached). */
  censusNodes: 'kraftsman_disruption_census_nodes',
  /** gauge: 1 when the last census ran out of its budget before judging every candidate. */
  censusTruncated: 'kraftsman_disruption_census_truncated',
  /** gauge {nodepool}: candidates the census simulated. */
  censusCandidates: 'kraftsman_disruption_census_candidates',
} as const;

export type MetricName =
  | (typeof KARPENTER_METRICS)[keyof typeof KARPENTER_METRICS]
  | (typeof KRAFTSMAN_METRICS)[keyof typeof KRAFTSMAN_METRICS];

/** The skip-reason vocabulary, owned by types.ts (the walk's values) and re-exported here as the metric label set. */
export { SKIP_REASONS };
export type { SkipReason };

/**
 * The fork's five walk skip reasons (docs/architecture.md, step 6 of a pass); the compile-time check below
 * fails if one leaves the vocabulary.
 */
export const WALK_SKIP_REASONS = [
  'budget-exhausted',
  'below-threshold',
  'claimed-by-pending-command',
  'cached-negative',
  'timed-out',
] as const satisfies readonly SkipReason[];

/** Karpenter's no-op outcomes of a consolidation simulation (consolidation.go's Unconsolidatable events). */
export const NO_OP_REASONS = [
  'unschedulable-pods',
  'multiple-replacements-required',
  'no-cheaper-replacement',
  'spot-to-spot-disabled',
  'spot-to-spot-insufficient-types',
] as const satisfies readonly SkipReason[];

/** How a pass ended. `consolidated` only when nothing was skipped on a cached verdict (docs/mechanisms/negative-cache.md). */
export const PASS_OUTCOMES = [
  'proposed',
  'consolidated',
  'no-proposals',
  'timed-out',
  'timed-out-with-proposals',
  'no-candidates',
  'failed',
  /** The sync gate waited: a claim it must wait for has no providerID yet (docs/mechanisms/sync-gate.md). */
  'unsynced',
  /** Nothing computed: every method with candidates was still consolidated on this view (consolidated-state.ts). */
  'unchanged',
] as const;
export type PassOutcome = (typeof PASS_OUTCOMES)[number];

/** Stage label values: the engine's stage names with Prometheus-friendly underscores (state_copy, pod_gather, …). */
export const STAGE_LABELS = {
  'state-copy': 'state_copy',
  'pod-gather': 'pod_gather',
  construction: 'construction',
  simulation: 'simulation',
} as const satisfies Record<Stage, string>;
export type StageLabel = (typeof STAGE_LABELS)[Stage];
export { STAGES };

/**
 * Results of a negative-cache lookup, the fork's four (its NegativeCacheLookup* outcomes): `absent` when no entry
 * is stored for the candidate (an entry of a cleared epoch is absent too), `expired` when one outlived its TTL,
 * `changed` when its fingerprint moved. A candidate without a fingerprint is not looked up at all.
 */
export const NEGATIVE_CACHE_RESULTS = ['hit', 'absent', 'expired', 'changed'] as const;
export type NegativeCacheResult = (typeof NEGATIVE_CACHE_RESULTS)[number];

/** Karpenter's consolidation_type label per method (each method's ConsolidationType(); drift has none). */
export const CONSOLIDATION_TYPE: Readonly<Record<MethodName, '' | 'empty' | 'single' | 'multi'>> = {
  emptiness: 'empty',
  drift: '',
  'multi-node-consolidation': 'multi',
  'single-node-consolidation': 'single',
};

/** Karpenter labels reasons in lower case ("underutilized", "empty", "drifted"). */
export const reasonLabel = (reason: DisruptionReason): string => reason.toLowerCase();
