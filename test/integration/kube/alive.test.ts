// The emulator's "looks alive" helpers: a booted instance registers its Node from the bootstrap flags,
// the binder places pending pods (gangs all or nothing), owners recreate evicted pods as pending.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bindPending } from '../../../local/kube-api/alive/binder.ts';
import { refreshDisruptionBudgets } from '../../../local/kube-api/alive/disruption-budgets.ts';
import { enableOwnerRecreation } from '../../../local/kube-api/alive/owners.ts';
import { parseBootstrap, registerNode } from '../../../local/kube-api/alive/register-node.ts';
import { kubeletLabels, registrationTaints, renderUserData } from '../../../shared/provisioning/bootstrap.ts';
import type { NodeClaim } from '../../../shared/model/nodeclaim.ts';
import { pod, startHarness, type Harness } from '../../contracts/cluster/harness.ts';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(() => h.close());

const SCRIPT = [
  '#!/bin/bash',
  "export KRAFTSMAN_NODE_LABELS='karpenter.sh/nodepool=gpu,topology.kubernetes.io/zone=us-east-1a'",
  "export KRAFTSMAN_KUBELET_ARGS='--node-labels=karpenter.sh/nodepool=gpu,topology.kubernetes.io/zone=us-east-1a --register-with-taints=nvidia.com/gpu=true:NoSchedule,karpenter.sh/unregistered:NoExecute --max-pods=58'",
].join('\n');

const gpuNode = (
  name: string,
  gpus: string,
  taints = parseBootstrap(SCRIPT).taints.filter((t) => t.key !== 'karpenter.sh/unregistered'),
) =>
  registerNode(h.emulator, {
    nodeName: name,
    providerId: `aws:///us-east-1a/i-${name}`,
    labels: parseBootstrap(SCRIPT).labels,
    taints,
    capacity: { cpu: '8', memory: '32Gi', 'nvidia.com/gpu': gpus, pods: '58' },
  });

const gpuPod = (name: string, o: Record<string, unknown> = {}) =>
  pod('ml', name, {
    spec: {
      tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists' }],
      containers: [
        {
          name: 'w',
          resources: { requests: { cpu: '1', 'nvidia.com/gpu': '1' }, limits: { 'nvidia.com/gpu': '1' } },
        },
      ],
    },
    status: { phase: 'Pending' },
    ...o,
  });

describe('node registration', () => {
  it('reads labels and taints from the kubelet flags of a bootstrap script, plain or base64', () => {
    const expected = {
      labels: { 'karpenter.sh/nodepool': 'gpu', 'topology.kubernetes.io/zone': 'us-east-1a' },
      taints: [
        { key: 'nvidia.com/gpu', value: 'true', effect: 'NoSchedule' },
        { key: 'karpenter.sh/unregistered', effect: 'NoExecute' },
      ],
    };
    expect(parseBootstrap(SCRIPT)).toEqual(expected);
    expect(parseBootstrap(Buffer.from(SCRIPT).toString('base64'))).toEqual(expected);
  });

  it('registers the labels and taints the launchers render into the bootstrap script', () => {
    const claim: NodeClaim = {
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodeClaim',
      metadata: { name: 'gpu-x1', labels: { 'karpenter.sh/nodepool': 'gpu', team: 'ml' } },
      spec: {
        nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
        requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['g5.xlarge'] }],
        taints: [{ key: 'nvidia.com/gpu', value: 'true', effect: 'NoSchedule' }],
      },
    };
    // Every family's user data carries them in its own form: kubelet flags, a NodeConfig, Bottlerocket TOML.
    const bootstrap = {
      apiServerEndpoint: 'https://10.0.0.1:6443',
      caBundle: Buffer.from('-----BEGIN CERTIFICATE-----\n').toString('base64'),
      caCertHash: `sha256:${'0'.repeat(64)}`,
      serviceCIDR: '10.100.0.0/16',
    };
    const families = [
      { amiFamily: 'Kubeadm' },
      { amiFamily: 'AL2023' },
      { amiFamily: 'Bottlerocket' },
    ] as const;
    for (const [i, f] of families.entries()) {
      const userData = renderUserData({
        cluster: 'prod',
        claim,
        nodeClass: {
          apiVersion: 'karpenter.k8s.aws/v1',
          kind: 'EC2NodeClass',
          metadata: { name: 'default' },
          spec: { ...f, bootstrap },
        },
        join: { id: 'abcdef', secret: '0123456789abcdef' },
      });
      const node = registerNode(h.emulator, {
        nodeName: `gpu-x${i}`,
        providerId: `aws:///us-east-1a/i-x${i}`,
        ...parseBootstrap(userData),
        capacity: { cpu: '4' },
      });
      expect(node.metadata.labels, f.amiFamily).toMatchObject(kubeletLabels(claim));
      expect((node.spec as { taints: unknown }).taints, f.amiFamily).toEqual(registrationTaints(claim));
    }
  });

  it('registers a Ready node that a warm snapshot picks up by watch', async () => {
    const cluster = h.cluster();
    await cluster.readSnapshot();
    gpuNode('booted', '8');
    const read = await cluster.readSnapshot();
    expect(read.reads.Node).toMatchObject({ mode: 'catch-up', changes: 1 });
    const n = read.objects.nodes.find((x) => x.metadata.name === 'booted');
    expect(n?.metadata.labels?.['karpenter.sh/nodepool']).toBe('gpu');
    expect(n?.spec?.taints).toEqual([{ key: 'nvidia.com/gpu', value: 'true', effect: 'NoSchedule' }]);
    expect(n?.status?.conditions).toEqual([expect.objectContaining({ type: 'Ready', status: 'True' })]);
  });
});

describe('the binder', () => {
  it('places pods that tolerate the taints and fit, and leaves the rest pending', () => {
    gpuNode('g1', '2');
    h.emulator.seed([
      gpuPod('a'),
      gpuPod('b'),
      gpuPod('c'),
      pod('ml', 'intolerant', { status: { phase: 'Pending' } }),
    ]);
    const result = bindPending(h.emulator);
    expect(result.bound).toEqual(['ml/a', 'ml/b']);
    expect(result.unschedulable).toEqual(['ml/c', 'ml/intolerant']);
    const a = h.emulator.store.get(h.emulator.typeOf('Pod'), 'ml', 'a');
    expect(a.spec).toMatchObject({ nodeName: 'g1' });
    expect(a.status).toMatchObject({ phase: 'Running' });
  });

  it('goes first fit in node order: a shape that found no room skips those nodes, another shape does not', () => {
    gpuNode('g1', '1');
    gpuNode('g2', '2');
    const cpuOnly = (name: string) =>
      pod('ml', name, {
        spec: {
          tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists' }],
          containers: [{ name: 'w', resources: { requests: { cpu: '1' } } }],
        },
        status: { phase: 'Pending' },
      });
    h.emulator.seed(['a', 'b', 'c', 'd'].map((n) => gpuPod(n)).concat([cpuOnly('e')]));
    const result = bindPending(h.emulator);
    expect(result.bound).toEqual(['ml/a', 'ml/b', 'ml/c', 'ml/e']);
    expect(result.unschedulable).toEqual(['ml/d']);
    const nodeOf = (n: string) => h.emulator.store.get(h.emulator.typeOf('Pod'), 'ml', n).spec;
    expect(['a', 'b', 'c', 'e'].map((n) => nodeOf(n))).toEqual(
      ['g1', 'g2', 'g2', 'g1'].map((nodeName) => expect.objectContaining({ nodeName })),
    );
  });

  it('binds a gang only when minMember of it fits at once', () => {
    gpuNode('g1', '3');
    const member = (group: string, i: number) =>
      gpuPod(`${group}-${i}`, {
        metadata: {
          namespace: 'ml',
          name: `${group}-${i}`,
          annotations: { 'scheduling.k8s.io/group-name': group },
        },
      });
    h.emulator.seed([
      {
        apiVersion: 'scheduling.volcano.sh/v1beta1',
        kind: 'PodGroup',
        metadata: { namespace: 'ml', name: 'big' },
        spec: { minMember: 4 },
      },
      {
        apiVersion: 'scheduling.volcano.sh/v1beta1',
        kind: 'PodGroup',
        metadata: { namespace: 'ml', name: 'small' },
        spec: { minMember: 2 },
      },
      ...[0, 1, 2, 3].map((i) => member('big', i)),
      ...[0, 1].map((i) => member('small', i)),
    ]);
    const result = bindPending(h.emulator);
    expect(result.bound).toEqual(['ml/small-0', 'ml/small-1']);
    expect(result.unschedulable).toEqual(['ml/big-0', 'ml/big-1', 'ml/big-2', 'ml/big-3']);
    const pgStatus = (name: string) => h.emulator.store.get(h.emulator.typeOf('PodGroup'), 'ml', name).status;
    expect(pgStatus('small')).toEqual({ phase: 'Running', running: 2 });
    expect(pgStatus('big')).toEqual({ phase: 'Pending', running: 0 });
  });
});

describe('owners', () => {
  it('recreate an evicted ReplicaSet pod as a new pending pod', async () => {
    enableOwnerRecreation(h.emulator);
    gpuNode('g1', '1');
    h.emulator.seed([
      gpuPod('web-abcde', {
        metadata: {
          namespace: 'ml',
          name: 'web-abcde',
          ownerReferences: [
            { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'u', controller: true },
          ],
        },
      }),
    ]);
    bindPending(h.emulator);
    expect(await h.cluster().evictPod({ namespace: 'ml', name: 'web-abcde' })).toEqual({
      outcome: 'evicted',
    });
    await new Promise((r) => setImmediate(r));
    // The evicted pod terminates for its grace period; the ReplicaSet replaces it at once.
    const terminating = h.emulator.store.get(h.emulator.typeOf('Pod'), 'ml', 'web-abcde');
    expect(terminating.metadata).toMatchObject({ deletionGracePeriodSeconds: 30 });
    expect(h.emulator.store.all(h.emulator.typeOf('Pod'))).toHaveLength(2);
    h.emulator.terminatePods();
    await new Promise((r) => setImmediate(r));
    const pods = h.emulator.store.all(h.emulator.typeOf('Pod'));
    expect(pods).toHaveLength(1);
    expect(pods[0]?.metadata.name).toMatch(/^web-[0-9a-f]{5}$/);
    expect(pods[0]?.metadata.name).not.toBe('web-abcde');
    expect(pods[0]?.spec).not.toHaveProperty('nodeName');
    expect(pods[0]?.status).toEqual({ phase: 'Pending' });
  });
});

describe('disruption budgets', () => {
  it('allow evictions down to minAvailable healthy pods, then block', async () => {
    gpuNode('g1', '4');
    h.emulator.seed([
      {
        apiVersion: 'policy/v1',
        kind: 'PodDisruptionBudget',
        metadata: { namespace: 'ml', name: 'web' },
        spec: { minAvailable: 2, selector: { matchLabels: { app: 'web' } } },
      },
      ...['a', 'b', 'c', 'd'].map((n) => gpuPod(n)),
    ]);
    bindPending(h.emulator);
    refreshDisruptionBudgets(h.emulator);
    const status = () => h.emulator.store.get(h.emulator.typeOf('PodDisruptionBudget'), 'ml', 'web').status;
    expect(status()).toMatchObject({
      expectedPods: 4,
      currentHealthy: 4,
      desiredHealthy: 2,
      disruptionsAllowed: 2,
    });
    const cluster = h.cluster();
    expect(await cluster.evictPod({ namespace: 'ml', name: 'a' })).toEqual({ outcome: 'evicted' });
    h.emulator.terminatePods();
    refreshDisruptionBudgets(h.emulator);
    expect(status()).toMatchObject({
      expectedPods: 3,
      currentHealthy: 3,
      desiredHealthy: 2,
      disruptionsAllowed: 1,
    });
    expect(await cluster.evictPod({ namespace: 'ml', name: 'b' })).toEqual({ outcome: 'evicted' });
    h.emulator.terminatePods();
    refreshDisruptionBudgets(h.emulator);
    expect((await cluster.evictPod({ namespace: 'ml', name: 'c' })).outcome).toBe('blocked');
  });

  it('write a status only when it changed, as the disruption controller does', () => {
    gpuNode('g1', '4');
    h.emulator.seed([
      {
        apiVersion: 'policy/v1',
        kind: 'PodDisruptionBudget',
        metadata: { namespace: 'ml', name: 'web' },
        spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'web' } } },
      },
      ...['a', 'b'].map((n) => gpuPod(n)),
    ]);
    bindPending(h.emulator);
    const pdb = () => h.emulator.store.get(h.emulator.typeOf('PodDisruptionBudget'), 'ml', 'web');
    refreshDisruptionBudgets(h.emulator);
    const written = pdb().metadata.resourceVersion;
    refreshDisruptionBudgets(h.emulator);
    expect(pdb().metadata.resourceVersion).toBe(written);
    h.emulator.seed([gpuPod('c')]);
    bindPending(h.emulator);
    refreshDisruptionBudgets(h.emulator);
    expect(pdb().metadata.resourceVersion).not.toBe(written);
    expect(pdb().status).toMatchObject({ expectedPods: 3, currentHealthy: 3, disruptionsAllowed: 1 });
  });
});
