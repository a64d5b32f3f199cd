// The object kinds kraftsman reads, by kind, with the one apiVersion it reads each at. An entry whose key is not
// its wire kind (`kind`) reads a kind that another group also names (the Workload API's PodGroup beside Volcano's)
// or an older version kraftsman still reads (the Workload at v1alpha1).
import type { z } from 'zod';
import { catalogSchema } from './catalog.ts';
import { nodeSchema } from './node.ts';
import { nodeClaimSchema } from './nodeclaim.ts';
import { ec2NodeClassSchema, gceNodeClassSchema } from './nodeclass.ts';
import { nodePoolSchema } from './nodepool.ts';
import { podSchema } from './pod.ts';
import { podGroupSchema } from './podgroup.ts';
import { podTemplateSchema, provisioningRequestSchema } from './provisioning-request.ts';
import { csiNodeSchema, namespaceSchema, pvcSchema, pvSchema, storageClassSchema } from './storage.ts';
import { daemonSetSchema, pdbSchema } from './workloads.ts';
import { workloadPodGroupSchema, workloadV1alpha1Schema, workloadV1alpha2Schema } from './workload.ts';

export const KINDS = {
  Pod: { apiVersion: 'v1', schema: podSchema },
  Node: { apiVersion: 'v1', schema: nodeSchema },
  Namespace: { apiVersion: 'v1', schema: namespaceSchema },
  PersistentVolumeClaim: { apiVersion: 'v1', schema: pvcSchema },
  PersistentVolume: { apiVersion: 'v1', schema: pvSchema },
  PodDisruptionBudget: { apiVersion: 'policy/v1', schema: pdbSchema },
  DaemonSet: { apiVersion: 'apps/v1', schema: daemonSetSchema },
  StorageClass: { apiVersion: 'storage.k8s.io/v1', schema: storageClassSchema },
  CSINode: { apiVersion: 'storage.k8s.io/v1', schema: csiNodeSchema },
  NodePool: { apiVersion: 'karpenter.sh/v1', schema: nodePoolSchema },
  NodeClaim: { apiVersion: 'karpenter.sh/v1', schema: nodeClaimSchema },
  EC2NodeClass: { apiVersion: 'karpenter.k8s.aws/v1', schema: ec2NodeClassSchema },
  GCENodeClass: { apiVersion: 'karpenter.k8s.gcp/v1alpha1', schema: gceNodeClassSchema },
  PodGroup: { apiVersion: 'scheduling.volcano.sh/v1beta1', schema: podGroupSchema },
  Workload: { apiVersion: 'scheduling.k8s.io/v1alpha2', schema: workloadV1alpha2Schema },
  WorkloadV1alpha1: {
    apiVersion: 'scheduling.k8s.io/v1alpha1',
    kind: 'Workload',
    schema: workloadV1alpha1Schema,
  },
  WorkloadPodGroup: {
    apiVersion: 'scheduling.k8s.io/v1alpha2',
    kind: 'PodGroup',
    schema: workloadPodGroupSchema,
  },
  PodTemplate: { apiVersion: 'v1', schema: podTemplateSchema },
  ProvisioningRequest: { apiVersion: 'autoscaling.x-k8s.io/v1', schema: provisioningRequestSchema },
  InstanceTypeCatalog: { apiVersion: 'kraftsman.dev/v1alpha1', schema: catalogSchema },
} as const;

export type KnownKind = keyof typeof KINDS;
export type ObjectOf<K extends KnownKind> = z.infer<(typeof KINDS)[K]['schema']>;

/** The API group part of an apiVersion ("" for the core group). */
export const groupOf = (apiVersion: string): string =>
  apiVersion.includes('/') ? (apiVersion.split('/')[0] as string) : '';

export function isKnownKind(kind: unknown): kind is KnownKind {
  return typeof kind === 'string' && Object.hasOwn(KINDS, kind);
}

/** The kind an entry reads on the wire (its key unless it says otherwise). */
export const wireKind = (k: KnownKind): string => {
  const e = KINDS[k];
  return 'kind' in e ? e.kind : k;
};

/** Every entry that reads objects of this wire kind, whatever their group and version. */
export const entriesOfKind = (kind: string): KnownKind[] =>
  (Object.keys(KINDS) as KnownKind[]).filter((k) => wireKind(k) === kind);
