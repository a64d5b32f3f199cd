// The Method interface every disruption method implements (Karpenter's disruption.Method), and the filter and
// order consolidation methods share (ShouldDisrupt and sortCandidates of consolidation.go).
import { parseNillableDuration } from '../model/duration.ts';
import type { DisruptionReason } from '../model/nodepool.ts';
import type { CoverageState } from './coverage-cycle.ts';
import type { NegativeCache, NegativeCacheTally } from './negative-cache.ts';
import type { PassContext } from './pass-context.ts';
import type { ReplacementHolds } from './replacement-backoff.ts';
import type { WalkSpeculation } from './speculation.ts';
import {
  isEmpty,
  savingsRatio,
  type Candidate,
  type Command,
  type MethodName,
  type Skip,
  type SkipReason,
} from './types.ts';

export interface MethodResult {
  readonly commands: readonly Command[];
  readonly skipped: readonly Skip[];
  /** Candidates the method evaluated (simulated, or judged empty). */
  readonly evaluated: number;
  readonly timedOut: boolean;
  /** A candidate was passed over for its pool's budget: Karpenter then does not mark the fleet consolidated. */
  readonly constrainedByBudgets?: boolean;
  /** NodePools a timed-out walk never reached (Karpenter's PreviouslyUnseenNodePools). */
  readonly unseenPools?: readonly string[];
  /** The walk's memory after this pass (kraftsman): coverage cycle and negative cache. */
  readonly coverage?: CoverageState;
  readonly negativeCache?: NegativeCache;
  readonly negativeTally?: NegativeCacheTally;
  /** Per NodePool: how many of its candidates the walk reached, of how many. */
  readonly depth?: ReadonlyMap<string, { readonly reached: number; readonly candidates: number }>;
}

/**
 * What a pass carries from the previous one: Karpenter's unseen pools, kraftsman's coverage cycle (a position
 * hint only) and negative cache (verdicts trusted only while their fingerprint and TTL hold).
 */
export interface WalkHints {
  readonly unseenPools?: readonly string[];
  readonly coverage?: CoverageState;
  readonly negativeCache?: NegativeCache;
  /** Candidates whose replacement failed lately: no replace is proposed for them (replacement-backoff.ts). */
  readonly replacementHolds?: ReplacementHolds;
  /** Every candidate of the pass by name, whatever the method's filter said: a drifted gang node's companions. */
  readonly peers?: ReadonlyMap<string, Candidate>;
}

export interface Method {
  readonly name: MethodName;
  readonly reason: DisruptionReason;
  /** true: eligible; a reason: considered and filtered out; undefined: not this method's concern. */
  filter(c: Candidate): true | SkipReason | undefined;
  compute(
    ctx: PassContext,
    candidates: readonly Candidate[],
    budgets: ReadonlyMap<string, number>,
    hints: WalkHints,
    /** Verdicts other threads worked out ahead (only the single-node walk asks; docs/mechanisms/parallel-discovery.md). */
    speculation?: WalkSpeculation,
  ): MethodResult;
}

export const consolidationDisabled = (c: Candidate): boolean =>
  !Number.isFinite(
    parseNillableDuration(c.pool.pool.spec.disruption.consolidateAfter) ?? Number.POSITIVE_INFINITY,
  );

/** consolidation.ShouldDisrupt: priced, labelled, enabled, not empty (emptiness owns those), not WhenEmpty, Consolidatable. */
export function consolidationFilter(c: Candidate): true | SkipReason | undefined {
  if (c.podBlock) return c.podBlock;
  if (!c.instanceType) return 'unknown-instance-type';
  if (!c.capacityType || !c.zone) return 'missing-labels';
  if (consolidationDisabled(c)) return 'consolidation-disabled';
  if (isEmpty(c) && !c.gang) return undefined; // a running gang's node is never emptiness's (emptiness.ts)
  if (c.pool.pool.spec.disruption.consolidationPolicy === 'WhenEmpty') return 'when-empty-policy';
  return c.consolidatable ? true : 'consolidate-after';
}

/**
 * Karpenter v1.14.1 sorts consolidation candidates by savings ratio (price per unit of rescheduling cost)
 * descending, so a budget-limited batch holds the most valuable moves; ties go to the cheaper disruption, then name.
 */
export function sortCandidates(cs: readonly Candidate[]): Candidate[] {
  return [...cs].sort(
    (a, b) =>
      savingsRatio(b) - savingsRatio(a) ||
      a.disruptionCost - b.disruptionCost ||
      a.name.localeCompare(b.name),
  );
}
