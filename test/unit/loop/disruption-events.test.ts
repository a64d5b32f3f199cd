// Karpenter's disruption events from kraftsman's skips and commands (shared/loop/disruption-events.ts) and the
// condition-transition wording (shared/loop/conditions.ts): the reasons, messages and objects a Karpenter user
// knows from `kubectl get events`.
import { describe, expect, it } from 'vitest';
import { transitionEvents, withRoot } from '../../../shared/loop/conditions.ts';
import { commandTerminating, skipEvents } from '../../../shared/loop/disruption-events.ts';
import type { CommandRecord } from '../../../shared/ports/state-store/records.ts';
import type { ClusterSnapshot } from '../../../shared/state/snapshot.ts';

const at = new Date('2026-11-30T00:00:00Z');
const stateNode = (name: string, pool = 'gpu') => ({
  name,
  nodePool: pool,
  derivedClaim: false,
  labels: {},
  node: { metadata: { name, uid: `${name}-uid` } },
  claim: { metadata: { name: `${name}-claim`, uid: `${name}-claim-uid` } },
});
const snapshot = (...names: string[]) =>
  ({ nodes: names.map((n) => stateNode(n)) }) as unknown as ClusterSnapshot;

describe('skip events', () => {
  it('a blocked candidate gets DisruptionBlocked on its Node and NodeClaim, in Karpenter’s words', () => {
    const events = skipEvents([{ node: 'n1', reason: 'nominated' }], snapshot('n1'), at);
    expect(events.map((e) => [e.involved.kind, e.involved.name, e.reason, e.message])).toEqual([
      ['Node', 'n1', 'DisruptionBlocked', 'Node is nominated for a pending pod'],
      ['NodeClaim', 'n1-claim', 'DisruptionBlocked', 'Node is nominated for a pending pod'],
    ]);
    expect(events[0]?.dedupeValues).toEqual(['n1-uid']);
  });

  it('a node held by a running gang gets DisruptionBlocked saying so', () => {
    const events = skipEvents([{ node: 'n1', reason: 'gang', method: 'drift' }], snapshot('n1'), at);
    expect(events.map((e) => [e.involved.name, e.reason, e.message])).toEqual([
      [
        'n1',
        'DisruptionBlocked',
        "Node hosts a member of a running gang whose other nodes can't be disrupted with it",
      ],
      [
        'n1-claim',
        'DisruptionBlocked',
        "Node hosts a member of a running gang whose other nodes can't be disrupted with it",
      ],
    ]);
  });

  it('an unconsolidatable one gets Unconsolidatable with the 15-minute window; do-not-disrupt gets nothing', () => {
    const events = skipEvents(
      [
        { node: 'n1', reason: 'no-cheaper-replacement', method: 'single-node-consolidation' },
        { node: 'n2', reason: 'do-not-disrupt' },
        { node: 'n3', reason: 'timed-out', method: 'single-node-consolidation' },
      ],
      snapshot('n1', 'n2', 'n3'),
      at,
    );
    expect(events.map((e) => `${e.involved.name} ${e.reason}: ${e.message}`)).toEqual([
      "n1 Unconsolidatable: Can't replace with a cheaper node",
      "n1-claim Unconsolidatable: Can't replace with a cheaper node",
    ]);
    expect(events[0]?.dedupeTimeoutMs).toBe(15 * 60_000);
  });

  it('an exhausted budget blocks the NodePool once, with Karpenter’s message', () => {
    const events = skipEvents(
      [
        { node: 'n1', reason: 'budget-exhausted' },
        { node: 'n2', reason: 'budget-exhausted' },
      ],
      snapshot('n1', 'n2'),
      at,
    );
    expect(events).toEqual([
      expect.objectContaining({
        involved: { kind: 'NodePool', name: 'gpu' },
        reason: 'DisruptionBlocked',
        message: 'No allowed disruptions due to blocking budget',
      }),
    ]);
  });
});

describe('command events', () => {
  it('a draining command says DisruptionTerminating on each candidate’s Node and NodeClaim', () => {
    const cmd = {
      method: 'emptiness',
      candidates: ['n1'],
      identities: [{ node: 'n1', nodeUid: 'u1', claim: 'c1', claimUid: 'cu1' }],
    } as unknown as CommandRecord;
    expect(
      commandTerminating(cmd, at).map((e) => `${e.involved.kind}/${e.involved.name}: ${e.message}`),
    ).toEqual(['Node/n1: Disrupting Node: Empty', 'NodeClaim/c1: Disrupting NodeClaim: Empty']);
  });
});

describe('condition transitions', () => {
  it('Ready is the root of its dependents, and each change is one event in operatorpkg’s words', () => {
    const launched = withRoot(
      [{ type: 'Launched', status: 'True', reason: 'Launched' }],
      ['Launched', 'Registered'],
      at,
    );
    expect(launched.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'Unknown',
      reason: 'ReconcilingDependents',
      message: 'Registered=Unknown',
    });
    const failed = withRoot(
      [...launched, { type: 'Registered', status: 'False', reason: 'Timeout' }],
      ['Launched', 'Registered'],
      at,
    );
    const events = transitionEvents({ kind: 'NodeClaim', name: 'c1' }, launched, failed, at);
    expect(events.map((e) => `${e.reason}: ${e.message}`)).toEqual([
      'Ready: Status condition transitioned, Type: Ready, Status: Unknown -> False, Reason: UnhealthyDependents, Message: Registered=False',
      'Registered: Status condition transitioned, Type: Registered, Status: Unknown -> False, Reason: Timeout',
    ]);
  });
});
