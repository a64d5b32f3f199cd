// How each snapshot kind is read: its API path (for WATCH) and one LIST page through the typed
// client-node API (core kinds) or the custom objects API (CRDs).
import { KINDS } from '../../model/objects.ts';
import type { SnapshotKind } from '../../ports/cluster.ts';
import type { KubeClients } from './client.ts';

export interface Page {
  readonly items: readonly unknown[];
  readonly continue?: string;
  readonly resourceVersion: string;
}
export interface PageRequest {
  readonly limit: number;
  readonly _continue?: string;
}

export interface KindSpec {
  readonly kind: SnapshotKind;
  readonly apiVersion: string;
  readonly plural: string;
  /** Collection path across all namespaces, for WATCH. */
  readonly path: string;
  listPage(c: KubeClients, req: PageRequest): Promise<Page>;
}

interface ListLike {
  items: readonly unknown[];
  metadata?: { _continue?: string; resourceVersion?: string; continue?: string };
}

const page = (l: ListLike): Page => {
  const cont = l.metadata?._continue ?? l.metadata?.continue;
  return { items: l.items, resourceVersion: l.metadata?.resourceVersion ?? '', ...(cont ? { continue: cont } : {}) };
};

function spec(kind: SnapshotKind, plural: string, list: (c: KubeClients, r: PageRequest) => Promise<ListLike>): KindSpec {
  const apiVersion = KINDS[kind].apiVersion;
  const path = apiVersion.includes('/') ? `/apis/${apiVersion}/${plural}` : `/api/${apiVersion}/${plural}`;
  return { kind, apiVersion, plural, path, listPage: async (c, r) => page(await list(c, r)) };
}

function custom(kind: SnapshotKind, plural: string): KindSpec {
  const [group, version] = KINDS[kind].apiVersion.split('/') as [string, string];
  return spec(kind, plural, (c, r) => c.custom.listClusterCustomObject({ group, version, plural, ...r }) as Promise<ListLike>);
}

export const KIND_SPECS: Readonly<Record<SnapshotKind, KindSpec>> = {
  Node: spec('Node', 'nodes', (c, r) => c.core.listNode(r)),
  Pod: spec('Pod', 'pods', (c, r) => c.core.listPodForAllNamespaces(r)),
  Namespace: spec('Namespace', 'namespaces', (c, r) => c.core.listNamespace(r)),
  PersistentVolumeClaim: spec('PersistentVolumeClaim', 'persistentvolumeclaims', (c, r) => c.core.listPersistentVolumeClaimForAllNamespaces(r)),
  PersistentVolume: spec('PersistentVolume', 'persistentvolumes', (c, r) => c.core.listPersistentVolume(r)),
  StorageClass: spec('StorageClass', 'storageclasses', (c, r) => c.storage.listStorageClass(r)),
  CSINode: spec('CSINode', 'csinodes', (c, r) => c.storage.listCSINode(r)),
  PodDisruptionBudget: spec('PodDisruptionBudget', 'poddisruptionbudgets', (c, r) => c.policy.listPodDisruptionBudgetForAllNamespaces(r)),
  DaemonSet: spec('DaemonSet', 'daemonsets', (c, r) => c.apps.listDaemonSetForAllNamespaces(r)),
  NodePool: custom('NodePool', 'nodepools'),
  NodeClaim: custom('NodeClaim', 'nodeclaims'),
  EC2NodeClass: custom('EC2NodeClass', 'ec2nodeclasses'),
  GCENodeClass: custom('GCENodeClass', 'gcenodeclasses'),
  PodGroup: custom('PodGroup', 'podgroups'),
};
