// Provisioning demand: a pod nominated to a claim that is still coming waits for it — in flight, or its Node
// registered but not yet initialized (it may not take pods yet) — and that claim's room is not handed out again.
import { describe, expect, it } from 'vitest';
import { pendingDemand, type PodNomination } from '../../../shared/provisioning/demand.ts';
import { recognize } from '../../../shared/state/recognize.ts';
import { NOW, node, pod } from '../disruption/fixtures.ts';

type Obj = Record<string, unknown>;
const claim = (name: string, status: Obj = {}): Obj => ({
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodeClaim',
  metadata: { name, labels: { 'karpenter.sh/nodepool': 'default' } },
  spec: {
    nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
    requirements: [],
  },
  status,
});
/** A Node kraftsman launched for the claim, as it registers: managed, not yet labelled initialized. */
const registered = (name: string, initialized: boolean): Obj => {
  const n = node(name) as { metadata: { labels: Record<string, string> } };
  if (!initialized) delete n.metadata.labels['karpenter.sh/initialized'];
  return n;
};
const providerOf = (name: string) => `aws:///us-east-1a/i-${name}`;
const nominated = (claimName: string, expiresAt = new Date(NOW.getTime() + 60_000)) =>
  new Map<string, PodNomination>([['default/web', { podKey: 'default/web', claimName, expiresAt }]]);
const demand = (objects: Obj[], nominations: Map<string, PodNomination>) =>
  pendingDemand(
    recognize(objects.map((value) => ({ source: 'test', value }))).objects,
    nominations,
    NOW,
    true,
  );
const names = (pods: readonly { metadata: { name: string } }[]) => pods.map((p) => p.metadata.name);

describe('pendingDemand', () => {
  it('a claim in flight (no Node yet) covers its nominated pod and holds it under its own name', () => {
    const d = demand([pod('web'), claim('c1', { providerID: providerOf('n1') })], nominated('c1'));
    expect(names(d.covered)).toEqual(['web']);
    expect(d.pods).toEqual([]);
    expect([...d.held.keys()]).toEqual(['c1']);
  });

  it('a claim whose Node registered but has not initialized still covers its pod, held under the Node', () => {
    const objects = [pod('web'), claim('c1', { providerID: providerOf('n1') }), registered('n1', false)];
    const d = demand(objects, nominated('c1'));
    expect(names(d.covered)).toEqual(['web']);
    expect(d.pods).toEqual([]);
    expect([...d.held.keys()]).toEqual(['n1']);
  });

  it('the claim initialized (condition or label): the pod is demand again, nothing held', () => {
    const byLabel = [pod('web'), claim('c1', { providerID: providerOf('n1') }), registered('n1', true)];
    const byCondition = [
      pod('web'),
      claim('c1', {
        providerID: providerOf('n1'),
        nodeName: 'n1',
        conditions: [{ type: 'Initialized', status: 'True', lastTransitionTime: NOW.toISOString() }],
      }),
      registered('n1', false),
    ];
    for (const objects of [byLabel, byCondition]) {
      const d = demand(objects, nominated('c1'));
      expect(names(d.pods)).toEqual(['web']);
      expect(d.covered).toEqual([]);
      expect(d.held.size).toBe(0);
    }
  });

  it('an expired nomination or a deleting claim covers nothing', () => {
    const expired = demand([pod('web'), claim('c1')], nominated('c1', new Date(NOW.getTime() - 1)));
    expect(names(expired.pods)).toEqual(['web']);
    const going = claim('c1');
    (going.metadata as Obj).deletionTimestamp = NOW.toISOString();
    (going.metadata as Obj).finalizers = ['karpenter.sh/termination'];
    const deleting = demand([pod('web'), going], nominated('c1'));
    expect(names(deleting.pods)).toEqual(['web']);
    expect(deleting.held.size).toBe(0);
  });
});

describe('pendingDemand: pods of leaving nodes', () => {
  const leaving = (marked: string[] = []) => ({ marked: new Set(marked), moves: () => true });
  const withLeaving = (objects: Obj[], marked: string[] = [], noms = new Map<string, PodNomination>()) =>
    pendingDemand(
      recognize(objects.map((value) => ({ source: 'test', value }))).objects,
      noms,
      NOW,
      true,
      leaving(marked),
    );
  const terminating = (name: string): Obj =>
    claim(name, {
      providerID: providerOf('n1'),
      nodeName: 'n1',
      conditions: [{ type: 'InstanceTerminating', status: 'True', lastTransitionTime: NOW.toISOString() }],
    });

  it('a node whose claim reports InstanceTerminating, or that kraftsman marked, is leaving: its pods are demand', () => {
    const bound = pod('web', { node: 'n1' });
    const byCondition = withLeaving([bound, node('n1'), terminating('c1')]);
    expect(names(byCondition.pods)).toEqual(['web']);
    expect(byCondition.fromLeaving).toBe(1);
    expect([...byCondition.leavingNodes]).toEqual(['n1']);
    const byMark = withLeaving([bound, node('n1')], ['n1']);
    expect(names(byMark.pods)).toEqual(['web']);
    const staying = withLeaving([bound, node('n1')]);
    expect(staying.pods).toEqual([]);
  });

  it('a leaving pod nominated to a claim still coming is covered by it; pending pods come first', () => {
    const objects = [pod('web', { node: 'n1' }), pod('api'), node('n1'), claim('c2')];
    const noms = new Map<string, PodNomination>([
      ['default/web', { podKey: 'default/web', claimName: 'c2', expiresAt: new Date(NOW.getTime() + 1) }],
    ]);
    const covered = withLeaving(objects, ['n1'], noms);
    expect(names(covered.pods)).toEqual(['api']);
    expect(names(covered.covered)).toEqual(['web']);
    expect([...covered.held.keys()]).toEqual(['c2']);
    const fresh = withLeaving(objects, ['n1']);
    expect(names(fresh.pods)).toEqual(['api', 'web']);
  });

  it('a nomination to capacity that is itself leaving covers nothing', () => {
    const objects = [pod('web'), claim('c1', { providerID: providerOf('n1') }), registered('n1', false)];
    const d = withLeaving(objects, ['n1'], nominated('c1'));
    expect(names(d.pods)).toEqual(['web']);
    expect(d.held.size).toBe(0);
  });
});
