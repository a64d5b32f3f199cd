// Cluster port: the pass snapshot (cold LIST or warm catch-up) and the writes kraftsman makes to the API
// server; errors.ts holds the typed errors an implementation translates API failures into.
import type { Node } from '../../model/node.ts';
import type { NodeClaim } from '../../model/nodeclaim.ts';
import type { Pod } from '../../model/pod.ts';
import type { Taint } from '../../model/meta.ts';
import type { JoinToken } from '../../model/join-readiness.ts';
import type { ClusterObjects } from '../../state/objects.ts';

/** Every kind the pass snapshot holds, in the order an implementation reads them. */
export const SNAPSHOT_KINDS = [
  'Node',
  'Pod',
  'Namespace',
  'PersistentVolumeClaim',
  'PersistentVolume',
  'StorageClass',
  'CSINode',
  'PodDisruptionBudget',
  'DaemonSet',
  'NodePool',
  'NodeClaim',
  'EC2NodeClass',
  'GCENodeClass',
  'PodGroup',
  // the Workload API (scheduling.k8s.io/v1alpha2): optional, an API server without it answers 404 (OPTIONAL_KINDS)
  'Workload',
  'WorkloadPodGroup',
  // ProvisioningRequests (Cluster Autoscaler's CRD: optional) and the PodTemplates their pod sets name
  'ProvisioningRequest',
  'PodTemplate',
] as const;
export type SnapshotKind = (typeof SNAPSHOT_KINDS)[number];

/**
 * Kinds whose invalid objects are always skipped (reported in `invalid` and warned about) instead of failing the
 * read: none of them makes a node look emptier than it is, and a PodTemplate any controller wrote must not stop
 * every pass. The others fail the read unless the reader runs with `invalid: 'skip'`.
 */
export const SKIPPED_WHEN_INVALID: ReadonlySet<SnapshotKind> = new Set([
  'ProvisioningRequest',
  'PodTemplate',
]);

/**
 * Kinds a cluster may not serve at all: the Workload API is alpha behind the GenericWorkload feature gate, and the
 * ProvisioningRequest CRD is installed by Kueue or Cluster Autoscaler (or infra/crds), so a LIST answered 404 reads
 * as none of them (and is tried again on the next read) instead of failing the snapshot.
 */
export const OPTIONAL_KINDS: ReadonlySet<SnapshotKind> = new Set([
  'Workload',
  'WorkloadPodGroup',
  'ProvisioningRequest',
]);

/** How one kind was read: a full list (cold), a watch catch-up (warm), or a re-list after 410 Gone. */
export const READ_MODES = ['list', 'catch-up', 'relist'] as const;
export type ReadMode = (typeof READ_MODES)[number];

export interface KindRead {
  readonly mode: ReadMode;
  readonly objects: number;
  /** Watch events applied (catch-up only). */
  readonly changes: number;
  readonly resourceVersion: string;
}

export interface SnapshotRead {
  /** The objects of the read, in the shape the core's buildSnapshot takes (both node-class kinds in nodeClasses). */
  readonly objects: ClusterObjects;
  readonly reads: Readonly<Record<SnapshotKind, KindRead>>;
  /** Objects skipped as invalid when the implementation runs with `invalid: 'skip'`. */
  readonly warnings: readonly string[];
  /**
   * Every object of the view that fails validation now (not only those met in this read: a warm read keeps
   * reporting an object until an event makes it parse, or deletes it). Their nodes are untouchable by every
   * destructive path until then (docs/mechanisms/identity.md#invalid-objects).
   */
  readonly invalid: readonly InvalidObject[];
}

/** An object the read could not parse, with what it concerns as far as its raw fields say. */
export interface InvalidObject {
  readonly kind: SnapshotKind;
  readonly name: string;
  readonly namespace?: string;
  readonly uid?: string;
  /** The validation error, naming the field. */
  readonly message: string;
  /**
   * Node names it concerns: a Node itself, a Pod's spec.nodeName (its eviction cannot be judged), a
   * NodeClaim's status.nodeName.
   */
  readonly nodes: readonly string[];
  /** Provider IDs it concerns: a Node's spec.providerID, a NodeClaim's status.providerID. */
  readonly providerIds: readonly string[];
}

export interface ObjectKey {
  readonly name: string;
  readonly namespace?: string;
  /**
   * The uid of the object meant (optional). An eviction carries it as a precondition: a pod of the same
   * name that its controller created since (a StatefulSet's) is another pod and is not evicted.
   */
  readonly uid?: string;
}

/** Kinds whose metadata kraftsman writes (labels, annotations, taints, deletion). */
export const WRITABLE_KINDS = ['Node', 'NodeClaim'] as const;
export type WritableKind = (typeof WRITABLE_KINDS)[number];

/** A label/annotation change: a string sets the key, null removes it. */
export type MetadataChange = {
  readonly labels?: Readonly<Record<string, string | null>>;
  readonly annotations?: Readonly<Record<string, string | null>>;
};

/** 429 from a PodDisruptionBudget is "retry later", a value, not an error (Karpenter's drain rule). */
export type EvictionResult =
  | { readonly outcome: 'evicted' }
  | { readonly outcome: 'blocked'; readonly message: string }
  | { readonly outcome: 'gone' };

export type NodeClaimStatus = NonNullable<NodeClaim['status']>;

/** Kinds whose status kraftsman publishes through patchStatus (docs/observability.md, "Statuses"). */
export type StatusKind = 'NodePool' | 'EC2NodeClass' | 'GCENodeClass';

/** The object a Kubernetes event is about (core/v1 Event `involvedObject`). */
export interface InvolvedObject {
  readonly kind:
    'Node' | 'NodeClaim' | 'Pod' | 'NodePool' | 'EC2NodeClass' | 'GCENodeClass' | 'ProvisioningRequest';
  readonly name: string;
  readonly namespace?: string;
  readonly uid?: string;
}

/** A core/v1 Event as kraftsman records it: Karpenter's reason vocabulary where it has one. */
export interface ClusterEvent {
  readonly involved: InvolvedObject;
  readonly type: 'Normal' | 'Warning';
  /** UpperCamelCase, e.g. `DisruptionBlocked`. */
  readonly reason: string;
  readonly message: string;
  /** When it happened, by the pass's clock (the adapter's wall clock when absent). */
  readonly at?: Date;
  /**
   * Karpenter's DedupeValues (pkg/events/recorder.go): the same reason with the same values within the dedupe
   * window is dropped; without them only an identical event (object, reason, message) is (docs/observability.md).
   */
  readonly dedupeValues?: readonly string[];
  /** Karpenter's DedupeTimeout; 2 minutes when absent. */
  readonly dedupeTimeoutMs?: number;
  /** Karpenter's per-reason token bucket (Nominated: 5 a second, a burst of 10). */
  readonly rateLimit?: { readonly perSecond: number; readonly burst: number };
}

/**
 * A bootstrap token for one launch (docs/mechanisms/bootstrap.md#kubeadm): `key` names the launch and its time
 * window, so a retried launch of the same claim in the same window gets the same token (the same user data, so the
 * same launch template and an idempotent CreateFleet), a later one a fresh token.
 */
export interface JoinTokenRequest {
  readonly key: string;
  readonly expiresAt: Date;
  /** Written as the Secret's description (kubeadm's `description` key). */
  readonly description: string;
}

export interface Cluster {
  /** The pass snapshot: a full paginated LIST the first time, a watch catch-up afterwards. */
  readSnapshot(): Promise<SnapshotRead>;
  /** Pods bound to one node (a field-selected LIST), for draining without a full snapshot. */
  listPodsOnNode(node: string): Promise<Pod[]>;
  getNode(name: string): Promise<Node>;
  /** Every Node, read now (a paginated LIST, not the snapshot's view): a direct read that confirms an absence. */
  listNodes(): Promise<Node[]>;
  getNodeClaim(name: string): Promise<NodeClaim>;
  /** Every NodeClaim (a paginated LIST of one kind), for work that needs no full snapshot (interruption). */
  listNodeClaims(): Promise<NodeClaim[]>;
  /** Adds the taint unless a taint with its key and effect is present. */
  addTaint(node: string, taint: Taint): Promise<Node>;
  /** Removes every taint with this key and effect; a no-op when there is none. */
  removeTaint(node: string, key: string, effect: Taint['effect']): Promise<Node>;
  patchMetadata(kind: 'Node', name: string, change: MetadataChange): Promise<Node>;
  patchMetadata(kind: 'NodeClaim', name: string, change: MetadataChange): Promise<NodeClaim>;
  createNodeClaim(claim: NodeClaim): Promise<NodeClaim>;
  /** Read-modify-write of the status subresource, re-read and re-applied on conflict. */
  updateNodeClaimStatus(
    name: string,
    mutate: (status: NodeClaimStatus) => NodeClaimStatus,
  ): Promise<NodeClaim>;
  /**
   * A JSON merge patch of the status subresource pinned to `resourceVersion` (Karpenter's
   * MergeFromWithOptimisticLock): ConflictError when the object moved on since it was read.
   */
  patchStatus(
    kind: StatusKind,
    name: string,
    resourceVersion: string,
    status: Readonly<Record<string, unknown>>,
  ): Promise<void>;
  /**
   * A JSON merge patch of a ProvisioningRequest's status subresource pinned to `resourceVersion` (its whole
   * `conditions` list, as Cluster Autoscaler's UpdateProvisioningRequest writes it; docs/mechanisms/provisioning-requests.md):
   * ConflictError when the request moved on since it was read.
   */
  patchRequestStatus(
    request: { readonly namespace: string; readonly name: string },
    resourceVersion: string,
    status: Readonly<Record<string, unknown>>,
  ): Promise<void>;
  deleteNodeClaim(name: string, precondition?: { uid?: string }): Promise<void>;
  deleteNode(name: string, precondition?: { uid?: string }): Promise<void>;
  /**
   * Removes one finalizer — only that one — from a Node or NodeClaim; a no-op when it is not there. A
   * concurrent writer's finalizers are never dropped (the write is pinned to the version it was computed from).
   */
  removeFinalizer(kind: 'Node' | 'NodeClaim', name: string, finalizer: string): Promise<void>;
  /**
   * Adds one finalizer to a Node or NodeClaim, keeping the others (a write pinned to the version read, re-read
   * on conflict); a no-op when it is there. An object being deleted cannot gain one (the API server refuses it
   * with 422): false then, and nothing is written.
   */
  addFinalizer(kind: 'Node' | 'NodeClaim', name: string, finalizer: string): Promise<boolean>;
  /**
   * The Eviction API. With `uid` the eviction carries a UID precondition, so a pod recreated under the same
   * name is never evicted by mistake: a mismatch answers `gone` (the pod meant is no longer there).
   */
  evictPod(pod: ObjectKey & { readonly uid?: string }): Promise<EvictionResult>;
  /**
   * Records a core/v1 Event on an object (cluster-scoped objects' events go to `default`, as kubectl shows
   * them). Best effort by contract: callers never let a failed event stop the action it reports.
   */
  recordEvent(event: ClusterEvent): Promise<void>;
  /**
   * The launch's bootstrap token: a `bootstrap.kubernetes.io/token` Secret `bootstrap-token-<id>` in kube-system,
   * created with an expiration (the token-cleaner deletes it after), or the one already created for `key`.
   */
  issueJoinToken(request: JoinTokenRequest): Promise<JoinToken>;
  /** The token of a bootstrap-token Secret in kube-system (spec.bootstrap.joinTokenSecretRef). */
  readJoinToken(name: string): Promise<JoinToken>;
}
