// Builders for small disruption scenarios: raw Kubernetes objects with overrides, a four-size synthetic
// catalog (on-demand and spot in three zones), and a snapshot built the way the CLI builds it.
import { catalogSchema } from '../../../shared/model/catalog.ts';
import { runPass } from '../../../shared/disruption/pass.ts';
import { passOptions, type PassOptions } from '../../../shared/disruption/types.ts';
import { buildInstanceTypes, type InstanceType } from '../../../shared/scheduling/instance-type.ts';
import { recognize } from '../../../shared/state/recognize.ts';
import { buildSnapshot, type ClusterSnapshot } from '../../../shared/state/snapshot.ts';

export const NOW = new Date('2026-09-01T12:00:00Z');
export const ZONES = ['us-east-1a', 'us-east-1b', 'us-east-1c'];
type Obj = Record<string, unknown>;

/** s-N has N CPUs at 0.05·N/h on demand; spot is 40% of that. `extra` adds spot-only sized types. */
export function catalog(sizes: readonly number[] = [2, 4, 8, 16], spotFactor = 0.4): InstanceType[] {
  return buildInstanceTypes(
    catalogSchema.parse({
      apiVersion: 'kraftsman.dev/v1alpha1',
      kind: 'InstanceTypeCatalog',
      instanceTypes: sizes.map((n) => ({
        name: `s-${n}`,
        cloud: 'aws',
        capacity: { cpu: String(n), memory: `${n * 4}Gi`, pods: '110' },
        offerings: ZONES.flatMap((zone) => [
          { zone, capacityType: 'on-demand', price: 0.05 * n },
          { zone, capacityType: 'spot', price: 0.05 * n * spotFactor },
        ]),
      })),
    }).instanceTypes,
  );
}

export interface PoolSpec {
  capacityTypes?: string[];
  consolidateAfter?: string;
  policy?: 'WhenEmpty' | 'WhenEmptyOrUnderutilized' | 'Balanced';
  budgets?: Obj[];
  expireAfter?: string;
  annotations?: Record<string, string>;
  requirements?: Obj[];
  taints?: Obj[];
}

export function nodePool(name: string, s: PoolSpec = {}): Obj {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: { name, annotations: s.annotations },
    spec: {
      template: {
        spec: {
          nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
          requirements: s.requirements ?? [
            { key: 'karpenter.sh/capacity-type', operator: 'In', values: s.capacityTypes ?? ['on-demand'] },
          ],
          expireAfter: s.expireAfter ?? '720h',
          ...(s.taints ? { taints: s.taints } : {}),
        },
      },
      disruption: {
        consolidateAfter: s.consolidateAfter ?? '30s',
        consolidationPolicy: s.policy ?? 'WhenEmptyOrUnderutilized',
        budgets: s.budgets ?? [{ nodes: '100%' }],
      },
    },
  };
}

export const ec2NodeClass = (annotations: Record<string, string> = {}): Obj => ({
  apiVersion: 'karpenter.k8s.aws/v1',
  kind: 'EC2NodeClass',
  metadata: { name: 'default', annotations },
  // Joinable (a Kubeadm class needs its endpoint and CA hash) and with a role (its nodes' instance profile), so its
  // pools are Ready (docs/mechanisms/bootstrap.md, docs/mechanisms/instance-profiles.md).
  spec: {
    role: 'KarpenterNodeRole',
    bootstrap: { apiServerEndpoint: 'https://10.0.0.1:6443', caCertHash: `sha256:${'0'.repeat(64)}` },
  },
});

export interface NodeSpec {
  pool?: string | null;
  type?: string;
  zone?: string;
  capacityType?: string;
  created?: string;
  annotations?: Record<string, string>;
  labels?: Record<string, string>;
  ready?: boolean;
  deleting?: boolean;
  taints?: Obj[];
}

export function node(name: string, s: NodeSpec = {}): Obj {
  const type = s.type ?? 's-8';
  const cpu = type.split('-')[1] ?? '8';
  const labels: Record<string, string> = {
    'kubernetes.io/hostname': name,
    'node.kubernetes.io/instance-type': type,
    'topology.kubernetes.io/zone': s.zone ?? 'us-east-1a',
    'kraftsman.dev/cloud': 'aws',
    'karpenter.sh/capacity-type': s.capacityType ?? 'on-demand',
    ...(s.pool === null
      ? {}
      : { 'karpenter.sh/nodepool': s.pool ?? 'default', 'karpenter.sh/initialized': 'true' }),
    ...(s.labels ?? {}),
  };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels,
      annotations: s.annotations,
      creationTimestamp: s.created ?? '2026-09-01T08:00:00Z',
      ...(s.deleting ? { deletionTimestamp: '2026-09-01T11:59:00Z' } : {}),
    },
    spec: {
      providerID: `aws:///${s.zone ?? 'us-east-1a'}/i-${name}`,
      ...(s.taints ? { taints: s.taints } : {}),
    },
    status: {
      allocatable: { cpu, memory: `${Number(cpu) * 4}Gi`, pods: '110' },
      conditions: [{ type: 'Ready', status: s.ready === false ? 'False' : 'True' }],
    },
  };
}

export interface PodSpec {
  node?: string;
  cpu?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  daemon?: boolean;
  priority?: number;
  startTime?: string;
  created?: string;
  namespace?: string;
  nodeSelector?: Record<string, string>;
  tolerations?: Obj[];
}

export function pod(name: string, s: PodSpec = {}): Obj {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: s.namespace ?? 'default',
      uid: `uid-${name}`,
      labels: s.labels ?? { app: name },
      annotations: s.annotations,
      creationTimestamp: s.created ?? '2026-09-01T08:05:00Z',
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: s.daemon ? 'DaemonSet' : 'ReplicaSet',
          name: `${name}-owner`,
          uid: `owner-${name}`,
          controller: true,
        },
      ],
    },
    spec: {
      ...(s.node ? { nodeName: s.node } : {}),
      ...(s.priority !== undefined ? { priority: s.priority } : {}),
      ...(s.nodeSelector ? { nodeSelector: s.nodeSelector } : {}),
      ...(s.tolerations ? { tolerations: s.tolerations } : {}),
      containers: [
        { name: 'main', image: 'pause', resources: { requests: { cpu: s.cpu ?? '1', memory: '128Mi' } } },
      ],
    },
    status: s.node
      ? {
          phase: 'Running',
          startTime: s.startTime ?? '2026-09-01T08:05:00Z',
          conditions: [{ type: 'Ready', status: 'True' }],
        }
      : { phase: 'Pending' },
  };
}

/** A Volcano PodGroup in the default namespace. */
export const podGroup = (name: string, minMember: number): Obj => ({
  apiVersion: 'scheduling.volcano.sh/v1beta1',
  kind: 'PodGroup',
  metadata: { name, namespace: 'default' },
  spec: { minMember },
});

/** Makes the pod a member of the PodGroup `group`; `volcano`: Volcano schedules it too. */
export function gangMember<T extends Obj>(o: T, group: string, volcano = true): T {
  (o.metadata as Obj).annotations = { 'scheduling.k8s.io/group-name': group };
  if (volcano) (o.spec as Obj).schedulerName = 'volcano';
  return o;
}

export function pdb(name: string, app: string, spec: Obj, status?: Obj): Obj {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name, namespace: 'default' },
    spec: { selector: { matchLabels: { app } }, ...spec },
    ...(status ? { status } : {}),
  };
}

export function snapshotOf(objects: readonly Obj[], types: InstanceType[] = catalog()): ClusterSnapshot {
  const r = recognize(objects.map((value) => ({ source: 'test', value })));
  return buildSnapshot(r.objects, types);
}

export function plan(
  objects: readonly Obj[],
  options: Partial<PassOptions> = {},
  types?: InstanceType[],
  now = NOW,
) {
  return runPass({ snapshot: snapshotOf(objects, types), now, options: passOptions(options) });
}

export const reasonOf = (r: ReturnType<typeof plan>, node: string): string | undefined =>
  r.skipped.find((s) => s.node === node)?.reason;
export const names = (r: ReturnType<typeof plan>): string[][] =>
  r.commands.map((c) => c.candidates.map((x) => x.name));
