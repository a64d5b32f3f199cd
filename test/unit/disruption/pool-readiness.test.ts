// A NotReady NodePool is no destination for disruption's replacements (docs/mechanisms/pool-readiness.md):
// Karpenter's SimulateScheduling builds its scheduler with the provisioner's NewScheduler, which leaves out
// NodePools that are not Ready. The live loop's snapshot judges readiness; the pass then never proposes a
// replacement from such a pool, and proposes one from a Ready pool when there is one.
import { describe, expect, it } from 'vitest';
import { runPass } from '../../../shared/disruption/pass.ts';
import { decisionOf, passOptions } from '../../../shared/disruption/types.ts';
import { recognize } from '../../../shared/state/recognize.ts';
import { buildSnapshot } from '../../../shared/state/snapshot.ts';
import { catalog, ec2NodeClass, NOW, node, nodePool, pod } from './fixtures.ts';

type Obj = Record<string, unknown>;

const notReadyClass = (name: string): Obj => ({
  ...ec2NodeClass(),
  metadata: { name },
  status: {
    conditions: [{ type: 'Ready', status: 'False', reason: 'AMINotFound', message: 'no image matches' }],
  },
});
/** A pool on node class `className`, weighted above `default`: Ready, it would be tried first. */
const poolOn = (name: string, className: string): Obj => {
  const p = nodePool(name) as {
    spec: { weight?: number; template: { spec: { nodeClassRef: { name: string } } } };
  };
  p.spec.weight = 10;
  p.spec.template.spec.nodeClassRef.name = className;
  return p;
};
const live = (objects: readonly Obj[]) => {
  const r = recognize(objects.map((value) => ({ source: 'test', value })));
  const snapshot = buildSnapshot(r.objects, catalog(), { poolReadiness: true });
  return runPass({ snapshot, now: NOW, options: passOptions({}) });
};
/** An underused s-16 of pool `default` (class `default`) whose one 3-CPU pod an s-4 could hold. */
const underused = [
  ec2NodeClass(),
  node('node-a', { type: 's-16' }),
  pod('a-0', { node: 'node-a', cpu: '3' }),
];

describe('NotReady NodePools in the replacement simulation', () => {
  it('the only pool is NotReady (its class reports Ready=False): no replacement is proposed', () => {
    const r = live([
      ...underused.filter((o) => o.kind !== 'EC2NodeClass'),
      notReadyClass('default'),
      nodePool('default'),
    ]);
    expect(r.commands).toEqual([]);
  });

  it('a node class that cannot join (no CA hash) makes its pool NotReady, with what is missing', () => {
    const { spec: _spec, ...rest } = ec2NodeClass();
    const cannotJoin = { ...rest, spec: { bootstrap: { apiServerEndpoint: 'https://10.0.0.1:6443' } } };
    const objects = [...underused.filter((o) => o.kind !== 'EC2NodeClass'), cannotJoin, nodePool('default')];
    const r = recognize(objects.map((value) => ({ source: 'test', value })));
    const snapshot = buildSnapshot(r.objects, catalog(), { poolReadiness: true });
    expect(snapshot.nodePools.get('default')?.notReady).toEqual({
      condition: 'NodeClassReady',
      reason: 'BootstrapIncomplete',
      message: 'EC2NodeClass default: Kubeadm nodes cannot join without spec.bootstrap.caCertHash',
    });
    expect(runPass({ snapshot, now: NOW, options: passOptions({}) }).commands).toEqual([]);
  });

  it.each([
    ['neither spec.role nor spec.instanceProfile', {}, /neither spec.role nor spec.instanceProfile is set/],
    [
      'both spec.role and spec.instanceProfile',
      { role: 'KarpenterNodeRole', instanceProfile: 'TeamProfile' },
      /spec.role and spec.instanceProfile are both set/,
    ],
  ])(
    'a node class with %s makes its pool NotReady: no launch without one profile',
    (_what, identity, text) => {
      const { spec, ...rest } = ec2NodeClass() as { spec: Record<string, unknown> };
      const { role: _role, ...joinable } = spec;
      const objects = [
        ...underused.filter((o) => o.kind !== 'EC2NodeClass'),
        { ...rest, spec: { ...joinable, ...identity } },
        nodePool('default'),
      ];
      const r = recognize(objects.map((value) => ({ source: 'test', value })));
      const snapshot = buildSnapshot(r.objects, catalog(), { poolReadiness: true });
      const notReady = snapshot.nodePools.get('default')?.notReady;
      expect(notReady).toMatchObject({ condition: 'NodeClassReady', reason: 'InstanceProfileNotReady' });
      expect(notReady?.message).toMatch(text);
      expect(runPass({ snapshot, now: NOW, options: passOptions({}) }).commands).toEqual([]);
    },
  );

  it('a NotReady pool is passed over for a Ready one', () => {
    const r = live([
      ...underused,
      nodePool('default'),
      notReadyClass('broken'),
      poolOn('broken-pool', 'broken'),
    ]);
    expect(r.commands).toHaveLength(1);
    expect(decisionOf(r.commands[0]!)).toBe('replace');
    expect(r.commands[0]?.replacements.map((x) => x.nodePool)).toEqual(['default']);
  });

  it('a pool whose class is missing offers no replacement either', () => {
    const r = live([...underused.filter((o) => o.kind !== 'EC2NodeClass'), nodePool('default')]);
    expect(r.commands).toEqual([]);
  });
});
