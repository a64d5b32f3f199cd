// A ProvisioningRequest's status as Cluster Autoscaler writes it (docs/mechanisms/provisioning-requests.md#status):
// the step derived from its conditions and the clock, the condition each answer sets, conditions kept by type.
import { describe, expect, it } from 'vitest';
import {
  ATOMIC_SCALE_UP,
  CHECK_CAPACITY,
  provisioningRequestSchema,
  type ProvisioningRequest,
} from '../../../shared/model/provisioning-request.ts';
import { answerCondition, requestStep, withCondition } from '../../../shared/provisioning/request-status.ts';

const NOW = new Date('2026-09-01T12:00:00Z');
const minutesAgo = (m: number) => new Date(NOW.getTime() - m * 60_000).toISOString();
const request = (
  cls: string,
  conditions: Record<string, string>[] = [],
  extra: Record<string, unknown> = {},
) =>
  provisioningRequestSchema.parse({
    apiVersion: 'autoscaling.x-k8s.io/v1',
    kind: 'ProvisioningRequest',
    metadata: { name: 'job', namespace: 'ml', generation: 3, creationTimestamp: minutesAgo(60) },
    spec: { provisioningClassName: cls, podSets: [{ podTemplateRef: { name: 't' }, count: 2 }], ...extra },
    status: { conditions },
  }) as ProvisioningRequest;
const cond = (type: string, status: string, at: string, reason = 'R') => ({
  type,
  status,
  reason,
  message: 'm',
  lastTransitionTime: at,
});

describe('the step of a request', () => {
  it('answers a request with no conditions yet', () => {
    expect(requestStep(request(ATOMIC_SCALE_UP), NOW)).toEqual({ kind: 'answer' });
  });

  it('holds a provisioned request booked for 10 minutes from Provisioned=True', () => {
    const step = requestStep(request(CHECK_CAPACITY, [cond('Provisioned', 'True', minutesAgo(9))]), NOW);
    expect(step).toEqual({ kind: 'booked', until: new Date(NOW.getTime() + 60_000) });
  });

  it('expires the booking after 10 minutes: BookingExpired=True CapacityReservationTimeExpired', () => {
    const pr = request(ATOMIC_SCALE_UP, [cond('Provisioned', 'True', minutesAgo(11))]);
    expect(requestStep(pr, NOW)).toEqual({
      kind: 'write',
      condition: {
        type: 'BookingExpired',
        status: 'True',
        reason: 'CapacityReservationTimeExpired',
        message: 'Capacity reservation time is expired',
        lastTransitionTime: NOW.toISOString(),
        observedGeneration: 3,
      },
    });
  });

  it('fails a request not provisioned within 7 days of its creation: Failed=True Expired', () => {
    const pr = request(ATOMIC_SCALE_UP, [cond('Provisioned', 'False', minutesAgo(5))]);
    const old = { ...pr, metadata: { ...pr.metadata, creationTimestamp: minutesAgo(7 * 24 * 60 + 1) } };
    expect(requestStep(old, NOW)).toMatchObject({
      kind: 'write',
      condition: { type: 'Failed', reason: 'Expired' },
    });
    expect(requestStep(pr, NOW)).toEqual({ kind: 'answer' });
  });

  it('leaves Failed and BookingExpired requests alone', () => {
    expect(requestStep(request(CHECK_CAPACITY, [cond('Failed', 'True', minutesAgo(1))]), NOW)).toEqual({
      kind: 'done',
    });
    const expired = [
      cond('Provisioned', 'True', minutesAgo(30)),
      cond('BookingExpired', 'True', minutesAgo(20)),
    ];
    expect(requestStep(request(CHECK_CAPACITY, expired), NOW)).toEqual({ kind: 'done' });
  });
});

describe('the condition an answer sets', () => {
  const answer = (result: 'provisioned' | 'failed' | 'ignored', newClaims = 0) => ({
    result,
    reason: 'why',
    newClaims,
  });

  it('check-capacity: Provisioned=True CapacityIsFound, or Provisioned=False CapacityIsNotFound to be tried again', () => {
    expect(answerCondition(request(CHECK_CAPACITY), answer('provisioned'), NOW)).toMatchObject({
      type: 'Provisioned',
      status: 'True',
      reason: 'CapacityIsFound',
    });
    expect(answerCondition(request(CHECK_CAPACITY), answer('failed'), NOW)).toMatchObject({
      type: 'Provisioned',
      status: 'False',
      reason: 'CapacityIsNotFound',
      message: 'why',
    });
  });

  it('check-capacity with noRetry: Failed=True CapacityIsNotFound', () => {
    const pr = request(CHECK_CAPACITY, [], { parameters: { noRetry: 'true' } });
    expect(answerCondition(pr, answer('failed'), NOW)).toMatchObject({
      type: 'Failed',
      status: 'True',
      reason: 'CapacityIsNotFound',
    });
  });

  it('atomic: CapacityIsProvisioned when claims were opened, CapacityIsFound when existing capacity sufficed', () => {
    expect(answerCondition(request(ATOMIC_SCALE_UP), answer('provisioned', 2), NOW)).toMatchObject({
      type: 'Provisioned',
      status: 'True',
      reason: 'CapacityIsProvisioned',
    });
    expect(answerCondition(request(ATOMIC_SCALE_UP), answer('provisioned', 0), NOW)).toMatchObject({
      reason: 'CapacityIsFound',
    });
    expect(answerCondition(request(ATOMIC_SCALE_UP), answer('failed'), NOW)).toMatchObject({
      type: 'Provisioned',
      status: 'False',
      reason: 'CapacityIsNotFound',
    });
  });

  it('an ignored request gets no condition', () => {
    expect(answerCondition(request('queued-provisioning.gke.io'), answer('ignored'), NOW)).toBeUndefined();
  });
});

describe('conditions kept by type', () => {
  it('replaces the condition of the same type in place and appends a new type, keeping the others', () => {
    const before = [cond('Accepted', 'True', minutesAgo(30)), cond('Provisioned', 'False', minutesAgo(20))];
    const now = answerCondition(
      request(ATOMIC_SCALE_UP),
      { result: 'provisioned', reason: '', newClaims: 1 },
      NOW,
    );
    if (!now) throw new Error('no condition');
    expect(withCondition(before, now)).toEqual([before[0], now]);
    const expired = { ...now, type: 'BookingExpired' as const };
    expect(withCondition([before[0] as (typeof before)[0], now], expired)).toEqual([before[0], now, expired]);
  });
});
