// Gang-aware expiration (docs/mechanisms/gangs.md#expiration): when one node of a running gang expires, the
// lifecycle's decisions terminate the gang's other nodes in the same step (reason `expired`, detail naming the
// gang); a gang below its minimum, a per-node gang and nodes of no gang expire alone, as Karpenter's do.
import { describe, expect, it } from 'vitest';
import { claimActions, type ClaimAction } from '../../../shared/provisioning/lifecycle.ts';
import { recognize } from '../../../shared/state/recognize.ts';
import { gangMember, node, pod, podGroup } from '../disruption/fixtures.ts';

type Obj = Record<string, unknown>;
const NOW = new Date('2026-09-02T12:00:00Z');
const TIMEOUTS = { launchMs: 5 * 60_000, registrationMs: 15 * 60_000, initializationMs: 15 * 60_000 };

/** A registered, initialized claim of `node`, created at `created`, expiring after 24h. */
function claim(nodeName: string, created: string): Obj {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodeClaim',
    metadata: {
      name: `claim-${nodeName}`,
      creationTimestamp: created,
      labels: { 'karpenter.sh/nodepool': 'default' },
    },
    spec: {
      nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
      expireAfter: '24h',
    },
    status: {
      nodeName,
      providerID: `aws:///us-east-1a/i-${nodeName}`,
      conditions: [
        { type: 'Registered', status: 'True', lastTransitionTime: created },
        { type: 'Initialized', status: 'True', lastTransitionTime: created },
      ],
    },
  };
}

const OLD = '2026-09-01T08:00:00Z'; // 28h before NOW: expired
const YOUNG = '2026-09-02T08:00:00Z'; // 4h: not expired

/** Three nodes, one gang member on each; node-0's claim has expired. */
function fleet(group: Obj, members = 3): Obj[] {
  return [
    group,
    ...[0, 1, 2].flatMap((i) => [node(`node-${i}`), claim(`node-${i}`, i === 0 ? OLD : YOUNG)]),
    ...Array.from({ length: members }, (_, i) => gangMember(pod(`w-${i}`, { node: `node-${i}` }), 'train')),
    node('node-x'),
    claim('node-x', YOUNG),
    pod('web', { node: 'node-x' }),
  ];
}

function actions(objs: Obj[]): ClaimAction[] {
  const { objects } = recognize(objs.map((value) => ({ source: 'test', value })));
  return claimActions(objects, NOW, TIMEOUTS);
}
const terminated = (as: ClaimAction[]) =>
  as.flatMap((a) => (a.kind === 'terminate' ? [`${a.claim.metadata.name}:${a.reason}`] : [])).sort();

describe('expiration of a gang’s node', () => {
  it('terminates every node of the running gang in the same step, naming the gang', () => {
    const as = actions(fleet(podGroup('train', 3)));
    expect(terminated(as)).toEqual(['claim-node-0:expired', 'claim-node-1:expired', 'claim-node-2:expired']);
    const companion = as.find((a) => a.claim.metadata.name === 'claim-node-1');
    expect(companion).toMatchObject({
      kind: 'terminate',
      detail:
        'gang default/train loses its member on expired NodeClaim claim-node-0: its nodes expire together',
    });
  });

  it('expires the node alone when the gang opts out with kraftsman.dev/gang-disruption: per-node', () => {
    const group = podGroup('train', 3);
    (group.metadata as Obj).annotations = { 'kraftsman.dev/gang-disruption': 'per-node' };
    expect(terminated(actions(fleet(group)))).toEqual(['claim-node-0:expired']);
  });

  it('expires the node alone when the gang is below its minimum (not running)', () => {
    expect(terminated(actions(fleet(podGroup('train', 4))))).toEqual(['claim-node-0:expired']);
  });

  it('leaves nodes of no gang alone, and expires nothing else when no gang node expired', () => {
    const objs = fleet(podGroup('train', 3)).map((o) =>
      o.kind === 'NodeClaim' && (o.metadata as Obj).name === 'claim-node-0'
        ? { ...o, metadata: { ...(o.metadata as Obj), creationTimestamp: YOUNG } }
        : o,
    );
    expect(terminated(actions(objs))).toEqual([]);
  });
});
