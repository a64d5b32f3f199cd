// The sync gate's pure rules (shared/disruption/sync-gate.ts), the fork's table: how each unlaunched NodeClaim is
// classed, which classes each policy runs past (a replacement under none), the class a check is labelled with,
// and the snapshot a pass that proceeded runs on (without the unlaunched claims: not nodes in Karpenter's state).
import { describe, expect, it } from 'vitest';
import type { NodeClaim } from '../../../shared/model/nodeclaim.ts';
import {
  classifyUnlaunched,
  judgeSync,
  SYNC_POLICIES,
  unlaunchedClaims,
  withoutUnlaunched,
  type UnlaunchedClass,
} from '../../../shared/disruption/sync-gate.ts';
import { node, snapshotOf } from './fixtures.ts';

type Obj = Record<string, unknown>;

function claim(
  name: string,
  s: { reason?: string; deleting?: boolean; label?: boolean; providerID?: string } = {},
) {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodeClaim',
    metadata: {
      name,
      creationTimestamp: '2026-09-01T11:00:00Z',
      labels: {
        'karpenter.sh/nodepool': 'default',
        ...(s.label ? { 'kraftsman.dev/disruption-command': 'cmd0000001' } : {}),
      },
      ...(s.deleting ? { deletionTimestamp: '2026-09-01T11:59:00Z' } : {}),
    },
    spec: {
      nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
      requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['s-8'] }],
    },
    status: {
      ...(s.providerID ? { providerID: s.providerID } : {}),
      ...(s.reason !== undefined
        ? { conditions: [{ type: 'Launched', status: 'Unknown', reason: s.reason }] }
        : {}),
    },
  } satisfies Obj;
}

const asClaim = (o: Obj) => o as unknown as NodeClaim;
const none = new Set<string>();

describe('the sync gate', () => {
  it('classes an unlaunched claim: replacement first, then deleting, launch failed, deferred, in flight', () => {
    const cases: [Obj, ReadonlySet<string>, UnlaunchedClass][] = [
      [claim('a'), none, 'in_flight'],
      [claim('a', { reason: 'Launched' }), none, 'in_flight'], // a condition's default reason is no attempt
      [claim('a', { reason: 'CapacityEvidencePending' }), none, 'launch_deferred'],
      [claim('a', { reason: 'LaunchFailed' }), none, 'launch_failed'],
      [claim('a', { reason: 'LaunchFailed', deleting: true }), none, 'deleting'],
      [claim('r'), new Set(['r']), 'replacement'],
      [claim('r', { deleting: true }), new Set(['r']), 'replacement'],
      [claim('a', { label: true, reason: 'CapacityEvidencePending' }), none, 'replacement'],
    ];
    for (const [c, replacements, want] of cases)
      expect(classifyUnlaunched(asClaim(c), replacements)).toBe(want);
  });

  it('each policy runs past its classes only; a check is labelled with the highest class present', () => {
    const deleting = asClaim(claim('deleting', { deleting: true }));
    const deferred = asClaim(claim('deferred', { reason: 'CapacityEvidencePending' }));
    const inFlight = asClaim(claim('in-flight'));
    const replacement = asClaim(claim('replacement'));
    const repl = new Set(['replacement']);
    const verdict = (p: (typeof SYNC_POLICIES)[number], cs: NodeClaim[]) => {
      const v = judgeSync(p, cs, repl);
      return [v.proceed, v.reason];
    };
    expect(verdict('Strict', [deleting])).toEqual([false, 'deleting']);
    expect(verdict('IgnoreFailedOrDeferred', [deleting, deferred])).toEqual([true, 'launch_deferred']);
    expect(verdict('IgnoreFailedOrDeferred', [deferred, inFlight])).toEqual([false, 'in_flight']);
    expect(verdict('IgnoreNonReplacements', [deferred, inFlight, deleting])).toEqual([true, 'in_flight']);
    for (const p of SYNC_POLICIES)
      expect(verdict(p, [inFlight, replacement])).toEqual([false, 'replacement']);
    expect(verdict('Strict', [])).toEqual([true, undefined]);
  });

  it('a pass that proceeded runs without the unlaunched claims; launched claims stay', () => {
    const snapshot = snapshotOf([
      node('n1'),
      claim('skipped'),
      claim('launched', { providerID: 'aws:///us-east-1a/i-elsewhere' }),
    ]);
    expect(unlaunchedClaims(snapshot).map((c) => c.metadata.name)).toEqual(['skipped']);
    const v = judgeSync('IgnoreNonReplacements', unlaunchedClaims(snapshot), none);
    expect(v.proceed).toBe(true);
    expect(withoutUnlaunched(snapshot, v).inFlight.map((n) => n.name)).toEqual(['launched']);
    const strict = judgeSync('Strict', [], none);
    expect(withoutUnlaunched(snapshot, strict)).toBe(snapshot);
  });
});
