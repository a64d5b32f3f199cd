// The typed objects of one cluster read (a snapshot file, or the Kubernetes adapter's pass snapshot).
import type { Node } from '../model/node.ts';
import type { NodeClaim } from '../model/nodeclaim.ts';
import type { NodeClass } from '../model/nodeclass.ts';
import type { NodePool } from '../model/nodepool.ts';
import type { Pod } from '../model/pod.ts';
import type { PodGroup } from '../model/podgroup.ts';
import type { PodTemplate, ProvisioningRequest } from '../model/provisioning-request.ts';
import type { Workload, WorkloadPodGroup } from '../model/workload.ts';
import type {
  CSINode,
  Namespace,
  PersistentVolume,
  PersistentVolumeClaim,
  StorageClass,
} from '../model/storage.ts';
import type { DaemonSet, PodDisruptionBudget } from '../model/workloads.ts';

export interface ClusterObjects {
  readonly nodes: readonly Node[];
  readonly pods: readonly Pod[];
  readonly pdbs: readonly PodDisruptionBudget[];
  readonly daemonSets: readonly DaemonSet[];
  readonly namespaces: readonly Namespace[];
  readonly pvcs: readonly PersistentVolumeClaim[];
  readonly pvs: readonly PersistentVolume[];
  readonly storageClasses: readonly StorageClass[];
  readonly csiNodes: readonly CSINode[];
  readonly nodePools: readonly NodePool[];
  readonly nodeClaims: readonly NodeClaim[];
  readonly nodeClasses: readonly NodeClass[];
  readonly podGroups: readonly PodGroup[];
  /** The Workload API (docs/mechanisms/gangs.md#the-workload-api): Workloads at either version, v1alpha2 PodGroups. */
  readonly workloads: readonly Workload[];
  readonly workloadPodGroups: readonly WorkloadPodGroup[];
  readonly provisioningRequests: readonly ProvisioningRequest[];
  readonly podTemplates: readonly PodTemplate[];
}

export const emptyObjects = (): ClusterObjects => ({
  nodes: [],
  pods: [],
  pdbs: [],
  daemonSets: [],
  namespaces: [],
  pvcs: [],
  pvs: [],
  storageClasses: [],
  csiNodes: [],
  nodePools: [],
  nodeClaims: [],
  nodeClasses: [],
  podGroups: [],
  workloads: [],
  workloadPodGroups: [],
  provisioningRequests: [],
  podTemplates: [],
});
