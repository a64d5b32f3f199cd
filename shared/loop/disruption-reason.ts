// Karpenter's DisruptionReason condition on a candidate's NodeClaim (pkg/apis/v1/nodeclaim_status.go,
// ConditionTypeDisruptionReason; set by the disruption queue's markDisrupted when a command starts, cleared by
// ClearNodeClaimsCondition when the command fails or its taint is found stranded): status True, with the
// command's reason (`Underutilized`, `Empty`, `Drifted`) as both reason and message. Karpenter's terminator
// reads it back as the eviction reason (docs/functions/orchestrate.md#the-disruptionreason-condition).
import type { DisruptionReason } from '../model/nodepool.ts';
import type { Clock } from '../ports/clock.ts';
import type { Cluster } from '../ports/cluster/index.ts';
import { ObjectNotFoundError } from '../ports/cluster/errors.ts';
import { setCondition } from './conditions.ts';

export const DISRUPTION_REASON_CONDITION = 'DisruptionReason';

const ignoreNotFound = (error: unknown): void => {
  if (!(error instanceof ObjectNotFoundError)) throw error;
};

/** Sets the condition on a candidate's claim; a claim gone meanwhile is skipped (Karpenter: IgnoreNotFound). */
export async function markDisruptionReason(
  deps: { readonly cluster: Pick<Cluster, 'updateNodeClaimStatus'>; readonly clock: Clock },
  claim: string,
  reason: DisruptionReason,
): Promise<void> {
  const now = deps.clock.now();
  await deps.cluster
    .updateNodeClaimStatus(claim, (s) => ({
      ...s,
      conditions: setCondition(s.conditions, DISRUPTION_REASON_CONDITION, 'True', now, reason, reason),
    }))
    .then(() => undefined, ignoreNotFound);
}

/** Removes the condition (Karpenter's Clear), writing nothing when it is not there. */
export async function clearDisruptionReason(
  cluster: Pick<Cluster, 'updateNodeClaimStatus'>,
  claim: string,
): Promise<void> {
  await cluster
    .updateNodeClaimStatus(claim, (s) =>
      s.conditions?.some((c) => c.type === DISRUPTION_REASON_CONDITION)
        ? { ...s, conditions: s.conditions.filter((c) => c.type !== DISRUPTION_REASON_CONDITION) }
        : s,
    )
    .then(() => undefined, ignoreNotFound);
}
