// A ProvisioningRequest's status as Cluster Autoscaler writes it (docs/mechanisms/provisioning-requests.md#status):
// which step a request is at (from its conditions and the clock, never stored) and the condition an answer sets.
// Pure: the loop passes `now` and writes what this returns.
import { ATOMIC_SCALE_UP, CHECK_CAPACITY, type ProvisioningRequest } from '../model/provisioning-request.ts';
import type { RequestResult } from './requests.ts';

/** processors/provreq/processor.go: defaultReservationTime (the booking) and defaultExpirationTime. */
export const RESERVATION_MS = 10 * 60_000;
export const EXPIRATION_MS = 7 * 24 * 3_600_000;

export const CONDITION_TYPES = [
  'Accepted',
  'Provisioned',
  'Failed',
  'BookingExpired',
  'CapacityRevoked',
] as const;
export type ConditionType = (typeof CONDITION_TYPES)[number];

export interface RequestCondition {
  readonly type: ConditionType;
  readonly status: 'True' | 'False';
  readonly reason: string;
  readonly message: string;
  readonly lastTransitionTime: string;
  readonly observedGeneration?: number;
}

type Conditions = NonNullable<NonNullable<ProvisioningRequest['status']>['conditions']>;

export type RequestStep =
  /** Failed or BookingExpired: Cluster Autoscaler leaves it alone (refresh skips it). */
  | { readonly kind: 'done' }
  /** Provisioned and inside the booking: its pods hold their capacity until `until`. */
  | { readonly kind: 'booked'; readonly until: Date }
  /** A condition to write now: the booking ran out, or the request waited past its expiration. */
  | { readonly kind: 'write'; readonly condition: RequestCondition }
  /** Not yet provisioned (or of a class kraftsman does not answer): answer it on this pass. */
  | { readonly kind: 'answer' };

const isTrue = (c: Conditions, type: ConditionType) => c.some((x) => x.type === type && x.status === 'True');
const classAnswered = (pr: ProvisioningRequest) =>
  pr.spec.provisioningClassName === CHECK_CAPACITY || pr.spec.provisioningClassName === ATOMIC_SCALE_UP;

/**
 * provReqProcessor.refresh: a request that is Failed or BookingExpired is done; one Provisioned longer than the
 * reservation time ago gets BookingExpired (CapacityReservationTimeExpired); one not provisioned within the
 * expiration time of its creation gets Failed (Expired). Requests of another class are not Cluster Autoscaler's.
 */
export function requestStep(pr: ProvisioningRequest, now: Date): RequestStep {
  if (!classAnswered(pr)) return { kind: 'answer' };
  const conditions = pr.status?.conditions ?? [];
  if (isTrue(conditions, 'Failed') || isTrue(conditions, 'BookingExpired')) return { kind: 'done' };
  const at = now.toISOString();
  const provisioned = conditions.find((c) => c.type === 'Provisioned' && c.status === 'True');
  if (provisioned) {
    const until = new Date(Date.parse(provisioned.lastTransitionTime ?? '') + RESERVATION_MS);
    // a Provisioned condition without a readable time has no booking left to hold
    if (Number.isNaN(until.getTime()) || until.getTime() < now.getTime())
      return {
        kind: 'write',
        condition: condition(
          pr,
          'BookingExpired',
          'True',
          'CapacityReservationTimeExpired',
          'Capacity reservation time is expired',
          at,
        ),
      };
    return { kind: 'booked', until };
  }
  const created = Date.parse(pr.metadata.creationTimestamp ?? '');
  if (!Number.isNaN(created) && created + EXPIRATION_MS < now.getTime())
    return {
      kind: 'write',
      condition: condition(pr, 'Failed', 'True', 'Expired', 'ProvisioningRequest is expired', at),
    };
  return { kind: 'answer' };
}

/**
 * The condition an answer sets, as each class's provisioning class does:
 * - check-capacity (as the API documents it: types.go, ProvisioningClassName): Provisioned=True
 *   CapacityIsFound; not found, Provisioned=False CapacityIsNotFound (tried again), or Failed=True
 *   CapacityIsNotFound when its `noRetry` parameter is "true";
 * - best-effort-atomic-scale-up (besteffortatomic/provisioning_class.go): everything fits existing capacity,
 *   Provisioned=True CapacityIsFound; the scale-up was made, Provisioned=True CapacityIsProvisioned; otherwise
 *   Provisioned=False CapacityIsNotFound ("CA will try to find it later"; Failed comes only with expiration).
 * An ignored request gets no condition.
 */
export function answerCondition(
  pr: ProvisioningRequest,
  answer: { readonly result: RequestResult; readonly reason: string; readonly newClaims: number },
  now: Date,
): RequestCondition | undefined {
  const at = now.toISOString();
  if (answer.result === 'ignored') return undefined;
  if (answer.result === 'provisioned')
    return answer.newClaims > 0
      ? condition(pr, 'Provisioned', 'True', 'CapacityIsProvisioned', 'Capacity is found in the cluster', at)
      : condition(pr, 'Provisioned', 'True', 'CapacityIsFound', 'Capacity is found in the cluster', at);
  if (pr.spec.provisioningClassName === CHECK_CAPACITY && pr.spec.parameters?.noRetry === 'true')
    return condition(pr, 'Failed', 'True', 'CapacityIsNotFound', answer.reason, at);
  return condition(pr, 'Provisioned', 'False', 'CapacityIsNotFound', answer.reason, at);
}

/**
 * conditions.AddOrUpdateCondition: the condition of the same type is replaced in place (its time is the new one,
 * as Cluster Autoscaler sets it), or appended; the others are kept as they were.
 */
export function withCondition<C extends { readonly type: string }>(
  conditions: readonly C[],
  c: RequestCondition,
): (C | RequestCondition)[] {
  const i = conditions.findIndex((x) => x.type === c.type);
  if (i < 0) return [...conditions, c];
  return conditions.map((x, j) => (j === i ? c : x));
}

function condition(
  pr: ProvisioningRequest,
  type: ConditionType,
  status: 'True' | 'False',
  reason: string,
  message: string,
  at: string,
): RequestCondition {
  const generation = pr.metadata.generation;
  return {
    type,
    status,
    reason,
    // the CRD bounds a message at 32768 characters
    message: message.slice(0, 32768),
    lastTransitionTime: at,
    ...(generation !== undefined ? { observedGeneration: generation } : {}),
  };
}
