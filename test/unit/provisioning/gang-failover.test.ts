// The cross-cloud gang failover decision (docs/mechanisms/gangs.md#cross-cloud-failover): which launches count as
// a capacity refusal and for how long, which gangs were refused, how a gang is kept off a cloud, and what became
// of each refused gang.
import { describe, expect, it } from 'vitest';
import { podSchema, type Pod } from '../../../shared/model/pod.ts';
import {
  GANG_REFUSAL_TTL_MS,
  failoverOutcomes,
  offCloud,
  refusedFor,
  voidClaimsByUnit,
  type LastLaunch,
} from '../../../shared/provisioning/gang-failover.ts';
import { messageOf } from '../../../shared/loop/gang-failover.ts';
import { pod as rawPod } from '../../fixtures/builders/index.ts';

const NOW = new Date('2026-12-08T00:00:00Z');
const pod = (name: string, o: Parameters<typeof rawPod>[1] = {}): Pod => podSchema.parse(rawPod(name, o));
const member = (name: string, gang: string) =>
  pod(name, { annotations: { 'scheduling.k8s.io/group-name': gang } });
const failed = (
  ageMs: number,
  error = 'InsufficientCapacityError: no offering had capacity',
): LastLaunch => ({
  cloud: 'aws',
  status: 'failed',
  error,
  updatedAt: new Date(NOW.getTime() - ageMs),
});

describe('refusedFor', () => {
  it('names the cloud of a launch that failed for capacity within Karpenter’s 3-minute ICE TTL', () => {
    expect(GANG_REFUSAL_TTL_MS).toBe(180_000);
    expect(refusedFor(failed(0), NOW)).toBe('aws');
    expect(refusedFor(failed(GANG_REFUSAL_TTL_MS - 1), NOW)).toBe('aws');
  });

  it('forgets the refusal once the TTL has passed, as the ICE cache forgets the offerings', () => {
    expect(refusedFor(failed(GANG_REFUSAL_TTL_MS), NOW)).toBeUndefined();
  });

  it('is no refusal for capacity when the launch failed otherwise, is pending or launched, or was never recorded', () => {
    expect(
      refusedFor(failed(0, 'gang x needs instances on more than one cloud (aws, gcp)'), NOW),
    ).toBeUndefined();
    expect(refusedFor({ ...failed(0), status: 'launched' }, NOW)).toBeUndefined();
    expect(refusedFor({ ...failed(0), status: 'pending' }, NOW)).toBeUndefined();
    expect(refusedFor(undefined, NOW)).toBeUndefined();
  });
});

describe('voidClaimsByUnit', () => {
  const unitOf = (p: Pod) => p.metadata.annotations?.['scheduling.k8s.io/group-name'];
  const lastClaim: Record<string, string> = { a0: 'gone-a', a1: 'gone-a', b0: 'live-b', c0: 'gone-c' };

  it('finds each gang whose members’ claim is gone, with all its demand members; ignores pods of no gang', () => {
    const pods = [member('a0', 'a'), member('a1', 'a'), member('b0', 'b'), member('c0', 'c'), pod('solo')];
    const out = voidClaimsByUnit(
      pods,
      unitOf,
      (p) => lastClaim[p.metadata.name],
      (n) => n.startsWith('live'),
    );
    expect([...out.keys()].sort()).toEqual(['a', 'c']);
    expect(out.get('a')?.claim).toBe('gone-a');
    expect(out.get('a')?.members.map((p) => p.metadata.name)).toEqual(['a0', 'a1']);
  });

  it('skips a gang whose first member waited on no claim (never launched: nothing was refused)', () => {
    const out = voidClaimsByUnit(
      [member('d0', 'd')],
      unitOf,
      () => undefined,
      () => false,
    );
    expect(out.size).toBe(0);
  });
});

describe('offCloud', () => {
  const expr = { key: 'kraftsman.dev/cloud', operator: 'NotIn', values: ['aws'] };

  it('adds a required term keeping a pod without node affinity off the cloud', () => {
    const p = pod('p');
    expect(
      offCloud(p, 'aws').spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution,
    ).toEqual({
      nodeSelectorTerms: [{ matchExpressions: [expr] }],
    });
    expect(p.spec.affinity).toBeUndefined();
  });

  it('adds the requirement to every existing term (terms are ORed) and keeps preferences and pod affinity', () => {
    const zone = { key: 'topology.kubernetes.io/zone', operator: 'In', values: ['z1'] };
    const gpu = { key: 'karpenter.k8s.aws/instance-gpu-count', operator: 'Gt', values: ['0'] };
    const preferred = [{ weight: 1, preference: { matchExpressions: [zone] } }];
    const p = pod('p', {
      spec: {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [zone] }, { matchExpressions: [gpu] }],
            },
            preferredDuringSchedulingIgnoredDuringExecution: preferred,
          },
          podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [] },
        },
      },
    });
    const out = offCloud(p, 'aws').spec.affinity;
    expect(out?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms).toEqual([
      { matchExpressions: [zone, expr] },
      { matchExpressions: [gpu, expr] },
    ]);
    expect(out?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution).toEqual(preferred);
    expect(out?.podAffinity).toEqual({ requiredDuringSchedulingIgnoredDuringExecution: [] });
    // the caller's pod is untouched
    expect(
      p.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms[0],
    ).toEqual({ matchExpressions: [zone] });
  });
});

describe('failoverOutcomes', () => {
  const refused = [
    { unit: 'default/moved', from: 'aws' as const, members: [member('m0', 'moved'), member('m1', 'moved')] },
    { unit: 'default/pinned', from: 'aws' as const, members: [member('p0', 'pinned')] },
    { unit: 'default/full', from: 'gcp' as const, members: [member('f0', 'full')] },
  ];
  const outcomes = failoverOutcomes(
    refused,
    new Set(['default/moved', 'default/full']),
    (k) => (k.startsWith('default/m') ? 'gcp' : undefined),
    (k) => (k === 'default/f0' ? 'all available instance types exceed limits' : undefined),
  );

  it('a movable gang placed again moved to its new cloud; one left unplaced is exhausted with the scheduler’s why', () => {
    expect(outcomes).toEqual([
      { kind: 'moved', unit: 'default/moved', from: 'aws', to: 'gcp' },
      { kind: 'pinned', unit: 'default/pinned', from: 'aws', others: ['gcp'] },
      {
        kind: 'exhausted',
        unit: 'default/full',
        from: 'gcp',
        others: ['aws'],
        why: 'all available instance types exceed limits',
      },
    ]);
  });

  it('every message names the gang and both clouds', () => {
    expect(outcomes.map(messageOf)).toEqual([
      'gang default/moved refused for capacity on aws: launching it whole on gcp',
      "gang default/pinned refused for capacity on aws; its requirements admit no NodePool on gcp: not moved, retried on aws's other offerings",
      'gang default/full refused for capacity on gcp; aws cannot take it now either: all available instance types exceed limits',
    ]);
  });
});
