// Objects the end-to-end tests seed: node classes that select the emulators' subnets and images, NodePools on
// either cloud, pods (optionally owned by a ReplicaSet, so an evicted pod comes back) and Volcano PodGroups.
import { DISCOVERY_TAG } from '../../../local/ec2/seed.ts';
import { LOCAL_CA_CERT_HASH, type KubeObject } from '../../../local/kube-api/index.ts';
import type { Cloud } from '../../../shared/model/labels.ts';

export const AWS_ZONES = ['us-east-1a', 'us-east-1b'] as const;
export const GCE_ZONES = ['us-central1-a', 'us-central1-b'] as const;
export const GCE_PROJECT = 'kraftsman-test';

export function ec2NodeClass(name = 'aws-gpu'): KubeObject {
  const discovery = { tags: { [DISCOVERY_TAG.key]: DISCOVERY_TAG.value } };
  return {
    apiVersion: 'karpenter.k8s.aws/v1',
    kind: 'EC2NodeClass',
    metadata: { name },
    spec: {
      amiSelectorTerms: [discovery],
      subnetSelectorTerms: [discovery],
      securityGroupSelectorTerms: [discovery],
      role: 'KraftsmanNodeRole',
      bootstrap: { apiServerEndpoint: 'https://10.0.0.1:6443', caCertHash: LOCAL_CA_CERT_HASH },
    },
  };
}

export function gceNodeClass(name = 'gcp-gpu'): KubeObject {
  return {
    apiVersion: 'karpenter.k8s.gcp/v1alpha1',
    kind: 'GCENodeClass',
    metadata: { name },
    spec: {
      imageSelectorTerms: [{ id: `projects/${GCE_PROJECT}/global/images/gpu-node-2026-11-01` }],
      subnetwork: 'regions/us-central1/subnetworks/nodes',
      bootstrap: { apiServerEndpoint: 'https://10.0.0.1:6443', caCertHash: LOCAL_CA_CERT_HASH },
    },
  };
}

export interface PoolOptions {
  readonly weight?: number;
  readonly capacityTypes?: readonly string[];
  readonly instanceTypes?: readonly string[];
  readonly taints?: readonly { key: string; value?: string; effect: string }[];
  readonly startupTaints?: readonly { key: string; value?: string; effect: string }[];
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly expireAfter?: string;
  /** The node class the pool launches with (default: aws-gpu or gcp-gpu, as the harness seeds them). */
  readonly nodeClass?: string;
}

export function nodePool(name: string, cloud: Cloud, o: PoolOptions = {}): KubeObject {
  const ref =
    cloud === 'aws'
      ? { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: o.nodeClass ?? 'aws-gpu' }
      : { group: 'karpenter.k8s.gcp', kind: 'GCENodeClass', name: o.nodeClass ?? 'gcp-gpu' };
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: { name, ...(o.annotations ? { annotations: { ...o.annotations } } : {}) },
    spec: {
      ...(o.weight !== undefined ? { weight: o.weight } : {}),
      template: {
        metadata: { labels: { ...(o.labels ?? {}) } },
        spec: {
          nodeClassRef: ref,
          requirements: [
            {
              key: 'karpenter.sh/capacity-type',
              operator: 'In',
              values: [...(o.capacityTypes ?? ['on-demand'])],
            },
            ...(o.instanceTypes
              ? [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: [...o.instanceTypes] }]
              : []),
          ],
          ...(o.taints ? { taints: o.taints.map((t) => ({ ...t })) } : {}),
          ...(o.startupTaints ? { startupTaints: o.startupTaints.map((t) => ({ ...t })) } : {}),
          expireAfter: o.expireAfter ?? '720h',
        },
      },
      disruption: { consolidationPolicy: 'WhenEmptyOrUnderutilized', consolidateAfter: '30s' },
    },
  };
}

export interface PodOptions {
  readonly namespace?: string;
  readonly cpu?: string;
  readonly memory?: string;
  readonly gpus?: number;
  readonly nodeSelector?: Readonly<Record<string, string>>;
  readonly tolerations?: readonly Record<string, string>[];
  /** Owned by this ReplicaSet: evicted or deleted, it comes back pending (enableOwnerRecreation). */
  readonly replicaSet?: string;
  /** A member of this Volcano PodGroup. */
  readonly gang?: string;
  readonly nominatedNodeName?: string;
}

export function pod(name: string, o: PodOptions = {}): KubeObject {
  const requests: Record<string, string> = { cpu: o.cpu ?? '1', memory: o.memory ?? '2Gi' };
  if (o.gpus) requests['nvidia.com/gpu'] = String(o.gpus);
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: o.namespace ?? 'default',
      uid: `uid-${name}`,
      labels: { app: name.replace(/-\w+$/, '') },
      ...(o.gang ? { annotations: { 'scheduling.k8s.io/group-name': o.gang } } : {}),
      ...(o.replicaSet
        ? {
            ownerReferences: [
              {
                apiVersion: 'apps/v1',
                kind: 'ReplicaSet',
                name: o.replicaSet,
                uid: `rs-${o.replicaSet}`,
                controller: true,
              },
            ],
          }
        : {}),
    },
    spec: {
      ...(o.gang ? { schedulerName: 'volcano' } : {}),
      containers: [
        {
          name: 'main',
          image: 'busybox',
          resources: { requests, ...(o.gpus ? { limits: { 'nvidia.com/gpu': String(o.gpus) } } : {}) },
        },
      ],
      ...(o.nodeSelector ? { nodeSelector: { ...o.nodeSelector } } : {}),
      tolerations: [
        { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
        ...(o.tolerations ?? []),
      ],
    },
    status: {
      phase: 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }],
      ...(o.nominatedNodeName ? { nominatedNodeName: o.nominatedNodeName } : {}),
    },
  };
}

export function podGroup(name: string, minMember: number, namespace = 'default'): KubeObject {
  return {
    apiVersion: 'scheduling.volcano.sh/v1beta1',
    kind: 'PodGroup',
    metadata: { name, namespace },
    spec: { minMember },
    status: { phase: 'Pending' },
  };
}

/** A PodDisruptionBudget in `default` over the pods labelled `app`. */
export function pdb(name: string, app: string, minAvailable: number): KubeObject {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name, namespace: 'default' },
    spec: { minAvailable, selector: { matchLabels: { app } } },
  };
}
