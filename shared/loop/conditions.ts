// Status conditions as Karpenter writes them: one entry per type, lastTransitionTime moved only on a change.
import type { NodeClaimStatus } from '../ports/cluster/index.ts';

type Conditions = NonNullable<NodeClaimStatus['conditions']>;

export function setCondition(
  conditions: Conditions | undefined,
  type: string,
  status: 'True' | 'False' | 'Unknown',
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
