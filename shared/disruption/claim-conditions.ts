// The NodeClaim conditions Karpenter's nodeclaim disruption controller keeps (pkg/controllers/nodeclaim/disruption
// consolidation.go, drift.go), computed from one snapshot: `Consolidatable` True once consolidateAfter has elapsed
// since the last pod event on an initialized claim, else absent; `Drifted` True with the drift reason as reason and
// message on a launched claim that drifted, else absent. Karpenter v1 has no `Empty` condition (emptiness is judged
// by the pass), so none is computed. docs/observability.md, "Statuses and conditions".
import type { ClusterSnapshot, StateNode } from '../state/snapshot.ts';
import { isConsolidatable } from './candidates.ts';
import { detectDrift } from './drift-detect.ts';

/** The drift reasons this computation judges: a Drifted condition with another reason was written by someone else. */
export const OWN_DRIFT_REASONS: ReadonlySet<string> = new Set([
  'NodePoolDrifted',
  'RequirementsDrifted',
  'NodeClassDrifted',
  'InstanceTypeNotFound',
]);

export interface ClaimDisruptionConditions {
  readonly consolidatable: boolean;
  /** The drift reason, or undefined when the claim has not drifted (or is not launched). */
  readonly drifted: string | undefined;
}

const isTrue = (n: StateNode, type: string): boolean =>
  n.claim?.status?.conditions?.some((c) => c.type === type && c.status === 'True') ?? false;

/** A state node whose claim carries no Drifted condition: detectDrift would otherwise hand back the condition's. */
function withoutDrifted(n: StateNode): StateNode {
  const claim = n.claim;
  if (!claim?.status?.conditions?.some((c) => c.type === 'Drifted')) return n;
  const conditions = claim.status.conditions.filter((c) => c.type !== 'Drifted');
  return { ...n, claim: { ...claim, status: { ...claim.status, conditions } } };
}

/** Per claim name, the two conditions as they should read now; claims being deleted are left out. */
export function claimDisruptionConditions(
  snapshot: ClusterSnapshot,
  now: Date,
): Map<string, ClaimDisruptionConditions> {
  const out = new Map<string, ClaimDisruptionConditions>();
  for (const n of [...snapshot.nodes, ...snapshot.inFlight]) {
    const claim = n.claim;
    if (!claim || n.derivedClaim || !n.managed || claim.metadata.deletionTimestamp) continue;
    const view = n.nodePool ? snapshot.nodePools.get(n.nodePool) : undefined;
    if (!view) continue;
    // consolidation.go: not initialized, consolidation disabled (Never) or under consolidateAfter → cleared.
    const consolidatable = n.initialized && isConsolidatable(n, view, now);
    // drift.go: a claim not launched has no Drifted condition; the static checks first (no cloud call here).
    const drift = isTrue(n, 'Launched') ? detectDrift(withoutDrifted(n), view, snapshot) : undefined;
    out.set(claim.metadata.name, { consolidatable, drifted: drift?.reason });
  }
  return out;
}
