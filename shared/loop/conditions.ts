// Status conditions as Karpenter writes them (operatorpkg's ConditionSet): one entry per type,
// lastTransitionTime moved only on a change, a root `Ready` derived from its dependents, and one event per
// transition in the status controller's wording (docs/observability.md, "Conditions").
import type { ClusterEvent, InvolvedObject, NodeClaimStatus } from '../ports/cluster/index.ts';

export type Conditions = NonNullable<NodeClaimStatus['conditions']>;
type Status = 'True' | 'False' | 'Unknown';

export function setCondition(
  conditions: Conditions | undefined,
  type: string,
  status: Status,
  now: Date,
  reason?: string,
  message?: string,
): Conditions {
  const list = [...(conditions ?? [])];
  const i = list.findIndex((c) => c.type === type);
  const current = i >= 0 ? list[i] : undefined;
  const next = {
    type,
    status,
    reason: reason ?? type,
    ...(message !== undefined ? { message } : {}),
    lastTransitionTime:
      current?.status === status && current.lastTransitionTime
        ? current.lastTransitionTime
        : now.toISOString(),
  };
  if (i >= 0) list[i] = next;
  else list.push(next);
  return list;
}

/**
 * The root condition over its dependents (operatorpkg recomputeRootCondition): True when every dependent is
 * True; otherwise False (`UnhealthyDependents`) when one is False, else Unknown (`ReconcilingDependents`), the
 * message listing each dependent not True as `Type=Status`. A missing dependent counts as Unknown.
 */
export function withRoot(
  conditions: Conditions | undefined,
  dependents: readonly string[],
  now: Date,
  root = 'Ready',
): Conditions {
  const unhealthy = dependents
    .map((type) => ({ type, status: conditions?.find((c) => c.type === type)?.status ?? 'Unknown' }))
    .filter((d) => d.status !== 'True');
  if (unhealthy.length === 0) return setCondition(conditions, root, 'True', now);
  const anyFalse = unhealthy.some((d) => d.status === 'False');
  return setCondition(
    conditions,
    root,
    anyFalse ? 'False' : 'Unknown',
    now,
    anyFalse ? 'UnhealthyDependents' : 'ReconcilingDependents',
    unhealthy.map((d) => `${d.type}=${d.status}`).join(', '),
  );
}

/** True when the two lists say the same (type, status, reason, message) for every type, in any order. */
export function sameConditions(a: Conditions | undefined, b: Conditions | undefined): boolean {
  const key = (l: Conditions | undefined) =>
    (l ?? [])
      .map((c) => `${c.type}\u0000${c.status}\u0000${c.reason ?? ''}\u0000${c.message ?? ''}`)
      .sort()
      .join('\u0001');
  return key(a) === key(b);
}

/**
 * One Normal event per condition whose status changed, reason = the condition type, as operatorpkg's status
 * controller publishes them: "Status condition transitioned, Type: Ready, Status: Unknown -> True, Reason: Ready".
 * A condition not there before was Unknown (Karpenter initializes every condition Unknown).
 */
export function transitionEvents(
  involved: InvolvedObject,
  before: Conditions | undefined,
  after: Conditions | undefined,
  at: Date,
): ClusterEvent[] {
  const out: ClusterEvent[] = [];
  for (const c of after ?? []) {
    const from = before?.find((b) => b.type === c.type)?.status ?? 'Unknown';
    if (from === c.status) continue;
    const reason = c.reason ? `, Reason: ${c.reason}` : '';
    const message = c.message ? `, Message: ${c.message}` : '';
    out.push({
      involved,
      type: 'Normal',
      reason: c.type,
      message: `Status condition transitioned, Type: ${c.type}, Status: ${from} -> ${c.status}${reason}${message}`,
      at,
    });
  }
  return out;
}
