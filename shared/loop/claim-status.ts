// A NodeClaim status write that keeps Karpenter's root condition and tells the cluster: `Ready` recomputed from
// Launched, Registered and Initialized (pkg/apis/v1/nodeclaim_status.go), and one event per condition that
// changed (conditions.ts), published best effort (events.ts) after the write.
import type { NodeClaim } from '../model/nodeclaim.ts';
import type { Cluster, NodeClaimStatus } from '../ports/cluster/index.ts';
import type { Clock } from '../ports/clock.ts';
import { transitionEvents, withRoot, type Conditions } from './conditions.ts';
import { publishEvents, type EventDeps } from './events.ts';

/** NodeClaim's readiness dependents (Karpenter's NodeClaim.StatusConditions). */
export const CLAIM_READY_DEPENDENTS = ['Launched', 'Registered', 'Initialized'] as const;

export interface ClaimStatusDeps extends EventDeps {
  readonly cluster: Pick<Cluster, 'updateNodeClaimStatus' | 'recordEvent'>;
  readonly clock: Clock;
}

export async function writeClaimStatus(
  deps: ClaimStatusDeps,
  name: string,
  mutate: (status: NodeClaimStatus) => NodeClaimStatus,
): Promise<NodeClaim> {
  const now = deps.clock.now();
  let before: Conditions | undefined;
  const claim = await deps.cluster.updateNodeClaimStatus(name, (s) => {
    before = s.conditions; // the last attempt's (a conflict re-reads and re-applies)
    const next = mutate(s);
    return { ...next, conditions: withRoot(next.conditions, CLAIM_READY_DEPENDENTS, now) };
  });
  const involved = {
    kind: 'NodeClaim' as const,
    name,
    ...(claim.metadata.uid ? { uid: claim.metadata.uid } : {}),
  };
  await publishEvents(deps, transitionEvents(involved, before, claim.status?.conditions, now));
  return claim;
}
