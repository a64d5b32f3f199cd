// Karpenter v1.14's Balanced consolidation policy (pkg/controllers/disruption/balanced.go): a move is approved
// when its share of the pool's cost saved, over its share of the pool's disruption cost, reaches 1/k (k = 2).
// A candidate whose best case (a delete) cannot pass is skipped before simulation as `below-threshold`.
import type { ClusterSnapshot } from '../state/snapshot.ts';
import { evictionCost, isReschedulable } from './pod-rules.ts';
import { savingsOf, type Candidate, type Command } from './types.ts';

/** BalancedK: approved when score ≥ 1/k. */
export const BALANCED_K = 2;

export interface PoolTotals {
  readonly totalCost: number;
  readonly totalDisruptionCost: number;
}

const isBalanced = (c: Candidate): boolean => c.pool.pool.spec.disruption.consolidationPolicy === 'Balanced';

/**
 * computeNodePoolTotals: per pool, the price of every node and in-flight claim (ClusterCost) and the
 * disruption cost of every node, candidate or not (1 + Σ max(0, eviction cost) of the pods that would move).
 */
export function poolTotals(snapshot: ClusterSnapshot): ReadonlyMap<string, PoolTotals> {
  const out = new Map<string, { totalCost: number; totalDisruptionCost: number }>();
  for (const n of [...snapshot.nodes, ...snapshot.inFlight]) {
    if (n.nodePool === undefined) continue;
    const t = out.get(n.nodePool) ?? { totalCost: 0, totalDisruptionCost: 0 };
    t.totalCost += n.price ?? 0;
    t.totalDisruptionCost +=
      1 + n.pods.filter(isReschedulable).reduce((s, p) => s + Math.max(0, evictionCost(p)), 0);
    out.set(n.nodePool, t);
  }
  return out;
}

/** ScoreMove + ScoreResult.Approved: no savings scores 0, no disruption scores +∞, zero totals approve. */
export function approvedScore(savings: number, disruption: number, totals: PoolTotals | undefined): boolean {
  if (!totals || totals.totalCost <= 0 || totals.totalDisruptionCost <= 0) return true;
  const savingsFraction = savings / totals.totalCost;
  const disruptionFraction = disruption / totals.totalDisruptionCost;
  const score =
    savingsFraction <= 0 ? 0 : disruptionFraction === 0 ? Infinity : savingsFraction / disruptionFraction;
  return score >= 1 / BALANCED_K;
}

/** CanPassThreshold: a delete (full price saved, no replacement) is the best case of any move. */
export function canPassThreshold(c: Candidate, totals: ReadonlyMap<string, PoolTotals>): boolean {
  return !isBalanced(c) || approvedScore(c.price, c.rescheduleCost, totals.get(c.nodePool));
}

/** EvaluateBalancedMove: every Balanced pool of the command must approve its share of the net savings. */
export function approveCommand(cmd: Command, totals: ReadonlyMap<string, PoolTotals>): boolean {
  const savings = savingsOf(cmd);
  const source = cmd.candidates.reduce((s, c) => s + c.price, 0);
  const pools = new Set(cmd.candidates.filter(isBalanced).map((c) => c.nodePool));
  for (const pool of pools) {
    const own = cmd.candidates.filter((c) => c.nodePool === pool);
    const poolCost = own.reduce((s, c) => s + c.price, 0);
    const multi = new Set(cmd.candidates.map((c) => c.nodePool)).size > 1;
    const share = source > 0 && multi ? savings * (poolCost / source) : savings;
    const disruption = own.reduce((s, c) => s + c.rescheduleCost, 0);
    if (!approvedScore(share, disruption, totals.get(pool))) return false;
  }
  return true;
}
