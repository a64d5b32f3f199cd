// The NodeClaim conditions of Karpenter's nodeclaim disruption controller as lifecycle publishes them
// (shared/loop/claim-disruption-status.ts), through the real kube client against the emulator: Consolidatable once
// consolidateAfter elapsed since the last pod event (absent before), Drifted with the drift reason, both cleared
// when they no longer hold, a Drifted reason kraftsman does not judge left alone, and no write when nothing changed
// (status PUTs counted from the emulator's audit).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { publishClaimDisruptionConditions } from '../../../shared/loop/claim-disruption-status.ts';
import type { KubeObject } from '../../../local/kube-api/store.ts';
import { node, pod, startHarness, type Harness } from '../../contracts/cluster/harness.ts';

let h: Harness;
/** The API server's clock: what it stamps as creationTimestamp. */
let kubeNow = new Date('2026-11-30T00:00:00Z');
beforeAll(async () => {
  h = await startHarness({ now: () => kubeNow });
});
afterAll(() => h.close());

const t0 = new Date('2026-11-30T00:00:00Z');
let now = t0;
const labels = {
  'karpenter.sh/nodepool': 'gpu',
  'karpenter.sh/capacity-type': 'on-demand',
  'node.kubernetes.io/instance-type': 'g5.xlarge',
  'topology.kubernetes.io/zone': 'us-east-1a',
  'karpenter.sh/registered': 'true',
  'karpenter.sh/initialized': 'true',
};
const pool = (capacityType: string): KubeObject => ({
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodePool',
  metadata: { name: 'gpu' },
  spec: {
    disruption: { consolidationPolicy: 'WhenEmptyOrUnderutilized', consolidateAfter: '5m' },
    template: {
      spec: {
        nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
        requirements: [{ key: 'karpenter.sh/capacity-type', operator: 'In', values: [capacityType] }],
      },
    },
  },
});
/** Replaces the NodePool in the emulator, as `kubectl apply` of a changed one would. */
function setPool(capacityType: string): void {
  const t = h.emulator.typeOf('NodePool');
  const current = h.emulator.store.get(t, undefined, 'gpu');
  const next = pool(capacityType);
  h.emulator.store.update(t, undefined, 'gpu', { ...next, metadata: { ...current.metadata } }, undefined);
}
const condition = (type: string) => ({
  type,
  status: 'True',
  reason: type,
  lastTransitionTime: t0.toISOString(),
});

function deps() {
  return {
    cluster: h.cluster(),
    clock: { now: () => now },
    metrics: { count: () => undefined, gauge: () => undefined, observe: () => undefined },
    logger: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
  };
}
const run = async () => publishClaimDisruptionConditions(deps(), (await h.cluster().readSnapshot()).objects);
const conditionsOf = async (name: string) =>
  (await h.cluster().getNodeClaim(name))?.status?.conditions?.filter((c) =>
    ['Consolidatable', 'Drifted'].includes(c.type),
  ) ?? [];
const puts = () => h.emulator.audit.count('update', 'nodeclaims/status');

it('marks Consolidatable once consolidateAfter elapsed, Drifted with its reason, and writes nothing twice', async () => {
  h.emulator.seed([
    pool('on-demand'),
    { apiVersion: 'karpenter.k8s.aws/v1', kind: 'EC2NodeClass', metadata: { name: 'default' }, spec: {} },
    node('n1', { metadata: { name: 'n1', labels: { ...labels, 'kubernetes.io/hostname': 'n1' } } }),
    {
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodeClaim',
      metadata: { name: 'c1', labels, creationTimestamp: t0.toISOString() },
      spec: {
        nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
        requirements: [],
      },
      status: {
        nodeName: 'n1',
        providerID: 'aws:///us-east-1a/i-n1',
        lastPodEventTime: t0.toISOString(),
        conditions: ['Launched', 'Registered', 'Initialized', 'Ready'].map(condition),
      },
    },
  ]);
  const before = puts();
  now = new Date(t0.getTime() + 4 * 60_000); // under consolidateAfter (5m)
  expect(await run()).toBe(0);
  expect(await conditionsOf('c1')).toEqual([]);
  now = new Date(t0.getTime() + 6 * 60_000);
  expect(await run()).toBe(1);
  expect(await conditionsOf('c1')).toEqual([
    expect.objectContaining({ type: 'Consolidatable', status: 'True' }),
  ]);
  expect(await run()).toBe(0); // nothing changed: no write
  expect(puts() - before).toBe(1);

  // The NodePool now asks for spot: the on-demand claim's requirements drifted.
  setPool('spot');
  expect(await run()).toBe(1);
  expect(await conditionsOf('c1')).toContainEqual(
    expect.objectContaining({ type: 'Drifted', status: 'True', reason: 'RequirementsDrifted' }),
  );
  expect(await run()).toBe(0);
  // Back to on-demand: the Drifted condition kraftsman wrote is cleared.
  setPool('on-demand');
  expect(await run()).toBe(1);
  expect((await conditionsOf('c1')).map((c) => c.type)).toEqual(['Consolidatable']);
  expect(puts() - before).toBe(3);
});

it('leaves a Drifted condition whose reason it does not judge, and clears Consolidatable on a new pod event', async () => {
  const claim = await h.cluster().getNodeClaim('c1');
  await h.cluster().updateNodeClaimStatus('c1', (s) => ({
    ...s,
    lastPodEventTime: now.toISOString(), // a pod came: the window starts again
    conditions: [
      ...(s.conditions ?? []),
      { ...condition('Drifted'), reason: 'AMIDrift', message: 'AMIDrift' },
    ],
  }));
  expect(claim).toBeDefined();
  expect(await run()).toBe(1);
  expect(await conditionsOf('c1')).toEqual([
    expect.objectContaining({ type: 'Drifted', reason: 'AMIDrift' }),
  ]);
});

it("takes a claim's last pod event from its Node's newest pod when its status has none", async () => {
  kubeNow = t0;
  h.emulator.seed([
    node('n2', { metadata: { name: 'n2', labels: { ...labels, 'kubernetes.io/hostname': 'n2' } } }),
    {
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodeClaim',
      metadata: { name: 'c2', labels },
      spec: {
        nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
        requirements: [],
      },
      status: {
        nodeName: 'n2',
        providerID: 'aws:///us-east-1a/i-n2',
        conditions: ['Launched', 'Registered', 'Initialized', 'Ready'].map(condition),
      },
    },
  ]);
  kubeNow = new Date(t0.getTime() + 3 * 60_000); // a pod arrives 3 minutes after the node
  h.emulator.seed([pod('ns', 'late', { spec: { nodeName: 'n2', containers: [{ name: 'c' }] } })]);
  now = new Date(t0.getTime() + 6 * 60_000); // 6 minutes after the node, 3 after the pod: under the 5m window
  await run();
  expect(await conditionsOf('c2')).toEqual([]);
  now = new Date(t0.getTime() + 9 * 60_000);
  await run();
  expect(await conditionsOf('c2')).toEqual([
    expect.objectContaining({ type: 'Consolidatable', status: 'True' }),
  ]);
});
