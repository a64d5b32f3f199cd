// Starts the Kubernetes API emulator with the project's CRDs and builds the real adapter against it;
// plus small object builders with overrides for the contract suite.
import { KubeApiEmulator, type EmulatorOptions } from '../../../local/kube-api/server.ts';
import { defaultCrds } from '../../../local/kube-api/crds.ts';
import type { KubeObject } from '../../../local/kube-api/store.ts';
import {
  KubeCluster,
  kubeConfigFor,
  makeClients,
  type KubeClusterOptions,
} from '../../../shared/adapters/kube/index.ts';

export interface Harness {
  readonly emulator: KubeApiEmulator;
  readonly url: string;
  cluster(options?: KubeClusterOptions): KubeCluster;
  close(): Promise<void>;
}

export async function startHarness(options: EmulatorOptions = {}): Promise<Harness> {
  const emulator = new KubeApiEmulator({
    crds: defaultCrds(),
    now: () => new Date('2026-11-30T00:00:00Z'),
    // A real server may serve any page short or empty (continue token and all): every read loop must page on.
    shortPages: { seed: 30 },
    ...options,
  });
  const url = await emulator.start();
  const clients = makeClients(kubeConfigFor(url, 'test-token'));
  return {
    emulator,
    url,
    cluster: (options) => new KubeCluster(clients, options),
    close: () => emulator.close(),
  };
}

type Overrides = Record<string, unknown>;

export const node = (name: string, o: Overrides = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { 'karpenter.sh/nodepool': 'gpu', 'kubernetes.io/hostname': name } },
  spec: { providerID: `aws:///us-east-1a/i-${name}` },
  status: {
    capacity: { cpu: '8', memory: '32Gi', pods: '110' },
    allocatable: { cpu: '7900m', memory: '30Gi', pods: '110' },
    conditions: [{ type: 'Ready', status: 'True' }],
  },
  ...o,
});

export const pod = (ns: string, name: string, o: Overrides = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { namespace: ns, name, labels: { app: 'web' } },
  spec: { containers: [{ name: 'c', resources: { requests: { cpu: '500m', memory: '1Gi' } } }] },
  status: { phase: 'Running' },
  ...o,
});

export const pdb = (ns: string, name: string, allowed: number): KubeObject => ({
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { namespace: ns, name },
  spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } },
  status: { disruptionsAllowed: allowed, currentHealthy: 2, desiredHealthy: 1, expectedPods: 2 },
});

export const nodeClaim = (name: string, o: Overrides = {}): KubeObject => ({
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodeClaim',
  metadata: { name, labels: { 'karpenter.sh/nodepool': 'gpu' } },
  spec: {
    nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
    requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['g5.xlarge'] }],
  },
  ...o,
});

export const nodePool = (name: string): KubeObject => ({
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodePool',
  metadata: { name },
  spec: {
    template: {
      spec: {
        nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
        requirements: [{ key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] }],
      },
    },
  },
});
