// How each snapshot kind is read: its collection path across namespaces, for LIST (in pages, as raw
// JSON over the KubeConfig's connection) and WATCH (client-node's Watch).
import { KINDS } from '../../model/objects.ts';
import type { SnapshotKind } from '../../ports/cluster/index.ts';
import type { KubeClients } from './client.ts';
import { getJson } from './raw-list.ts';

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

function spec(kind: SnapshotKind, plural: string): KindSpec {
  const apiVersion = KINDS[kind].apiVersion;
  const path = apiVersion.includes('/') ? `/apis/${apiVersion}/${plural}` : `/api/${apiVersion}/${plural}`;
  return {
    kind,
    apiVersion,
    plural,
    path,
    listPage: async (c, r) => {
      const l = await getJson(c.config, path, { limit: r.limit, continue: r._continue }, c.limits);
      const cont = l.metadata.continue;
      return {
        items: l.items,
        resourceVersion: l.metadata.resourceVersion,
        ...(cont ? { continue: cont } : {}),
      };
    },
  };
}

export const KIND_SPECS: Readonly<Record<SnapshotKind, KindSpec>> = {
  Node: spec('Node', 'nodes'),
  Pod: spec('Pod', 'pods'),
  Namespace: spec('Namespace', 'namespaces'),
  PersistentVolumeClaim: spec('PersistentVolumeClaim', 'persistentvolumeclaims'),
  PersistentVolume: spec('PersistentVolume', 'persistentvolumes'),
  StorageClass: spec('StorageClass', 'storageclasses'),
  CSINode: spec('CSINode', 'csinodes'),
  PodDisruptionBudget: spec('PodDisruptionBudget', 'poddisruptionbudgets'),
  DaemonSet: spec('DaemonSet', 'daemonsets'),
  NodePool: spec('NodePool', 'nodepools'),
  NodeClaim: spec('NodeClaim', 'nodeclaims'),
  EC2NodeClass: spec('EC2NodeClass', 'ec2nodeclasses'),
  GCENodeClass: spec('GCENodeClass', 'gcenodeclasses'),
  PodGroup: spec('PodGroup', 'podgroups'),
  Workload: spec('Workload', 'workloads'),
  WorkloadPodGroup: spec('WorkloadPodGroup', 'podgroups'),
  ProvisioningRequest: spec('ProvisioningRequest', 'provisioningrequests'),
  PodTemplate: spec('PodTemplate', 'podtemplates'),
};
