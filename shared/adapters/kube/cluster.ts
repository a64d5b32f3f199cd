// KubeCluster: the Cluster port over @kubernetes/client-node — snapshot reads, taints and metadata by
// JSON merge patch, NodeClaim create/status/delete, Node delete, finalizer removal (finalizers.ts), and
// pod eviction through the Eviction API.
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { KINDS } from '../../model/objects.ts';
import type { Node } from '../../model/node.ts';
import type { Pod } from '../../model/pod.ts';
import type { NodeClaim } from '../../model/nodeclaim.ts';
import type { Taint } from '../../model/meta.ts';
import type { JoinToken } from '../../model/join-readiness.ts';
import { issueJoinToken, readJoinToken } from './join-tokens.ts';
import type {
  Cluster,
  ClusterEvent,
  JoinTokenRequest,
  EvictionResult,
  MetadataChange,
  NodeClaimStatus,
  ObjectKey,
  SnapshotRead,
  StatusKind,
} from '../../ports/cluster/index.ts';
import type { KubeClients } from './client.ts';
import { ConflictError } from '../../ports/cluster/errors.ts';
import { ContinueExpiredError, RELIST_ATTEMPTS, statusOf, toClusterError } from './errors.ts';
import { EventRecorder } from './event-recorder.ts';
import { getJson } from './raw-list.ts';
import { removeFinalizer, type FinalizerTarget } from './finalizers.ts';
import { withConflictRetry } from './retry.ts';
import { SnapshotReader, type SnapshotOptions } from './snapshot.ts';
import { plain, toModel } from './validate.ts';

export interface KubeClusterOptions extends SnapshotOptions {
  /** Attempts for a read-modify-write that meets 409 Conflict (Karpenter retries conflicts the same way). */
  readonly conflictAttempts?: number;
}

const [CLAIM_GROUP, CLAIM_VERSION] = KINDS.NodeClaim.apiVersion.split('/') as [string, string];
const CLAIMS = { group: CLAIM_GROUP, version: CLAIM_VERSION, plural: 'nodeclaims' };
const STATUS_PLURALS: Record<StatusKind, string> = {
  NodePool: 'nodepools',
  EC2NodeClass: 'ec2nodeclasses',
  GCENodeClass: 'gcenodeclasses',
};
const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const jsonPatch = setHeaderOptions('Content-Type', PatchStrategy.JsonPatch);
type Raw = Record<string, unknown> & { metadata: Record<string, unknown> };

export class KubeCluster implements Cluster {
  private readonly reader: SnapshotReader;
  private readonly attempts: number;
  private readonly events: EventRecorder;

  constructor(
    private readonly c: KubeClients,
    options: KubeClusterOptions = {},
  ) {
    this.reader = new SnapshotReader(c, options);
    this.attempts = options.conflictAttempts ?? 5;
    this.events = new EventRecorder(c);
  }

  readSnapshot(): Promise<SnapshotRead> {
    return this.reader.read();
  }

  /**
   * `spec.nodeName=<node>` is a field selector every API server indexes for pods (the kubelet uses it).
   * An expired continue token (410) restarts the LIST from the first page, a bounded number of times.
   */
  async listPodsOnNode(node: string): Promise<Pod[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.podsOnNodeOnce(node);
      } catch (err: unknown) {
        if (!(err instanceof ContinueExpiredError) || attempt >= RELIST_ATTEMPTS)
          throw toClusterError(err instanceof ContinueExpiredError ? err.cause : err, {
            kind: 'Node',
            name: node,
          });
      }
    }
  }

  private async podsOnNodeOnce(node: string): Promise<Pod[]> {
    const pods: Pod[] = [];
    let cont: string | undefined;
    do {
      const page = await getJson(
        this.c.config,
        '/api/v1/pods',
        { fieldSelector: `spec.nodeName=${node}`, limit: 500, continue: cont },
        this.c.limits,
      ).catch((err: unknown) =>
        Promise.reject(cont && statusOf(err)?.code === 410 ? new ContinueExpiredError('Pod', err) : err),
      );
      for (const raw of page.items) pods.push(toModel('Pod', raw, 'v1'));
      cont = page.metadata.continue;
    } while (cont);
    return pods;
  }

  private async rawNode(name: string): Promise<Raw> {
    try {
      return plain(await this.c.core.readNode({ name })) as Raw;
    } catch (err: unknown) {
      throw toClusterError(err, { kind: 'Node', name });
    }
  }

  private async rawClaim(name: string): Promise<Raw> {
    try {
      return (await this.c.custom.getClusterCustomObject({ ...CLAIMS, name })) as Raw;
    } catch (err: unknown) {
      throw toClusterError(err, { kind: 'NodeClaim', name });
    }
  }

  async getNode(name: string): Promise<Node> {
    return toModel('Node', await this.rawNode(name), 'v1');
  }

  async getNodeClaim(name: string): Promise<NodeClaim> {
    return toModel('NodeClaim', await this.rawClaim(name), KINDS.NodeClaim.apiVersion);
  }

  async listNodes(): Promise<Node[]> {
    const nodes: Node[] = [];
    let cont: string | undefined;
    do {
      const page = await getJson(
        this.c.config,
        '/api/v1/nodes',
        { limit: 500, continue: cont },
        this.c.limits,
      ).catch((err: unknown) => Promise.reject(toClusterError(err, undefined)));
      for (const raw of page.items ?? []) nodes.push(toModel('Node', raw, 'v1'));
      cont = page.metadata?.continue;
    } while (cont);
    return nodes;
  }

  async listNodeClaims(): Promise<NodeClaim[]> {
    const claims: NodeClaim[] = [];
    let cont: string | undefined;
    do {
      const page = await getJson(
        this.c.config,
        `/apis/${CLAIM_GROUP}/${CLAIM_VERSION}/nodeclaims`,
        { limit: 500, continue: cont },
        this.c.limits,
      ).catch((err: unknown) => Promise.reject(toClusterError(err, undefined)));
      for (const raw of page.items ?? []) claims.push(toModel('NodeClaim', raw, KINDS.NodeClaim.apiVersion));
      cont = page.metadata?.continue;
    } while (cont);
    return claims;
  }

  addTaint(node: string, taint: Taint): Promise<Node> {
    return this.editTaints(node, (taints) =>
      taints.some((t) => t.key === taint.key && t.effect === taint.effect) ? undefined : [...taints, taint],
    );
  }

  removeTaint(node: string, key: string, effect: Taint['effect']): Promise<Node> {
    return this.editTaints(node, (taints) => {
      const kept = taints.filter((t) => !(t.key === key && t.effect === effect));
      return kept.length === taints.length ? undefined : kept;
    });
  }

  /**
   * Taints are a list, so the patch replaces the whole list and carries the resourceVersion it was
   * computed from (Karpenter's MergeFromWithOptimisticLock): a concurrent change means 409 and a re-read.
   */
  private editTaints(name: string, edit: (taints: Taint[]) => Taint[] | undefined): Promise<Node> {
    return withConflictRetry({ kind: 'Node', name }, this.attempts, async () => {
      const raw = await this.rawNode(name);
      const current = toModel('Node', raw, 'v1');
      const next = edit(current.spec?.taints ?? []);
      if (next === undefined) return current;
      const body = { metadata: { resourceVersion: raw.metadata.resourceVersion }, spec: { taints: next } };
      return toModel('Node', plain(await this.c.core.patchNode({ name, body }, merge)), 'v1');
    });
  }

  patchMetadata(kind: 'Node', name: string, change: MetadataChange): Promise<Node>;
  patchMetadata(kind: 'NodeClaim', name: string, change: MetadataChange): Promise<NodeClaim>;
  /** Labels and annotations merge key by key, so no lock is needed: concurrent writers cannot lose keys. */
  async patchMetadata(
    kind: 'Node' | 'NodeClaim',
    name: string,
    change: MetadataChange,
  ): Promise<Node | NodeClaim> {
    const body = {
      metadata: {
        ...(change.labels ? { labels: change.labels } : {}),
        ...(change.annotations ? { annotations: change.annotations } : {}),
      },
    };
    try {
      if (kind === 'Node')
        return toModel('Node', plain(await this.c.core.patchNode({ name, body }, merge)), 'v1');
      return toModel(
        'NodeClaim',
        await this.c.custom.patchClusterCustomObject({ ...CLAIMS, name, body }, merge),
        KINDS.NodeClaim.apiVersion,
      );
    } catch (err: unknown) {
      throw toClusterError(err, { kind, name });
    }
  }

  async createNodeClaim(claim: NodeClaim): Promise<NodeClaim> {
    const { resourceVersion: _rv, uid: _uid, creationTimestamp: _ct, ...metadata } = claim.metadata;
    const { status: _status, ...rest } = claim;
    try {
      const created = await this.c.custom.createClusterCustomObject({
        ...CLAIMS,
        body: { ...rest, metadata },
      });
      return toModel('NodeClaim', created, KINDS.NodeClaim.apiVersion);
    } catch (err: unknown) {
      throw toClusterError(err, { kind: 'NodeClaim', name: claim.metadata.name });
    }
  }

  updateNodeClaimStatus(
    name: string,
    mutate: (status: NodeClaimStatus) => NodeClaimStatus,
  ): Promise<NodeClaim> {
    return withConflictRetry({ kind: 'NodeClaim', name }, this.attempts, async () => {
      const raw = await this.rawClaim(name);
      const current = toModel('NodeClaim', raw, KINDS.NodeClaim.apiVersion);
      const body = { ...raw, status: mutate(structuredClone(current.status ?? {})) };
      const updated = await this.c.custom.replaceClusterCustomObjectStatus({ ...CLAIMS, name, body });
      return toModel('NodeClaim', updated, KINDS.NodeClaim.apiVersion);
    });
  }

  async patchStatus(
    kind: StatusKind,
    name: string,
    resourceVersion: string,
    status: Readonly<Record<string, unknown>>,
  ): Promise<void> {
    const [group, version] = KINDS[kind].apiVersion.split('/') as [string, string];
    try {
      await this.c.custom.patchClusterCustomObjectStatus(
        {
          group,
          version,
          plural: STATUS_PLURALS[kind],
          name,
          body: { metadata: { resourceVersion }, status },
        },
        merge,
      );
    } catch (err: unknown) {
      // The optimistic lock lost: one attempt, the caller's next pass reads the object again.
      if (statusOf(err)?.code === 409) throw new ConflictError({ kind, name }, 1, { cause: err });
      throw toClusterError(err, { kind, name });
    }
  }

  async patchRequestStatus(
    request: { readonly namespace: string; readonly name: string },
    resourceVersion: string,
    status: Readonly<Record<string, unknown>>,
  ): Promise<void> {
    const [group, version] = KINDS.ProvisioningRequest.apiVersion.split('/') as [string, string];
    const key = { kind: 'ProvisioningRequest', name: request.name, namespace: request.namespace };
    try {
      await this.c.custom.patchNamespacedCustomObjectStatus(
        {
          group,
          version,
          namespace: request.namespace,
          plural: 'provisioningrequests',
          name: request.name,
          body: { metadata: { resourceVersion }, status },
        },
        merge,
      );
    } catch (err: unknown) {
      // The optimistic lock lost: the next pass reads the request again and answers it if it still needs one.
      if (statusOf(err)?.code === 409) throw new ConflictError(key, 1, { cause: err });
      throw toClusterError(err, key);
    }
  }

  async deleteNodeClaim(name: string, precondition: { uid?: string } = {}): Promise<void> {
    try {
      await this.c.custom.deleteClusterCustomObject({
        ...CLAIMS,
        name,
        body: precondition.uid ? { preconditions: { uid: precondition.uid } } : {},
      });
    } catch (err: unknown) {
      throw toClusterError(err, { kind: 'NodeClaim', name });
    }
  }

  async deleteNode(name: string, precondition: { uid?: string } = {}): Promise<void> {
    try {
      await this.c.core.deleteNode({
        name,
        ...(precondition.uid ? { body: { preconditions: { uid: precondition.uid } } } : {}),
      });
    } catch (err: unknown) {
      throw toClusterError(err, { kind: 'Node', name });
    }
  }

  removeFinalizer(kind: 'Node' | 'NodeClaim', name: string, finalizer: string): Promise<void> {
    const read = async (): Promise<{ finalizers: string[]; resourceVersion: string }> => {
      const m = (kind === 'Node' ? await this.rawNode(name) : await this.rawClaim(name)).metadata;
      const finalizers = Array.isArray(m.finalizers) ? m.finalizers.map(String) : [];
      return { finalizers, resourceVersion: String(m.resourceVersion ?? '') };
    };
    const target: FinalizerTarget = {
      ref: { kind, name },
      read,
      patch: (body) =>
        kind === 'Node'
          ? this.c.core.patchNode({ name, body }, jsonPatch)
          : this.c.custom.patchClusterCustomObject({ ...CLAIMS, name, body }, jsonPatch),
    };
    return removeFinalizer(target, finalizer, this.attempts);
  }

  addFinalizer(kind: 'Node' | 'NodeClaim', name: string, finalizer: string): Promise<boolean> {
    return withConflictRetry({ kind, name }, this.attempts, async () => {
      const m = (kind === 'Node' ? await this.rawNode(name) : await this.rawClaim(name)).metadata;
      const finalizers = Array.isArray(m.finalizers) ? m.finalizers.map(String) : [];
      if (finalizers.includes(finalizer)) return true;
      if (m.deletionTimestamp) return false;
      // Karpenter's MergeFromWithOptimisticLock: a merge patch replaces the whole list, so it is pinned to the
      // resourceVersion it was computed from (409 on a concurrent change: re-read and retried).
      const body = {
        metadata: {
          resourceVersion: String(m.resourceVersion ?? ''),
          finalizers: [...finalizers, finalizer],
        },
      };
      await (kind === 'Node'
        ? this.c.core.patchNode({ name, body }, merge)
        : this.c.custom.patchClusterCustomObject({ ...CLAIMS, name, body }, merge));
      return true;
    });
  }

  /**
   * Karpenter's drain rule: 429 (a PDB allows no disruption now) is retried later, 404 means already
   * gone. With the pod's uid the eviction carries it as a precondition; 409 then means the pod of that
   * name is another one (recreated since), so the pod meant is gone too.
   */
  async evictPod(pod: ObjectKey): Promise<EvictionResult> {
    const namespace = pod.namespace ?? 'default';
    try {
      await this.c.core.createNamespacedPodEviction({
        name: pod.name,
        namespace,
        body: {
          apiVersion: 'policy/v1',
          kind: 'Eviction',
          metadata: { name: pod.name, namespace },
          ...(pod.uid ? { deleteOptions: { preconditions: { uid: pod.uid } } } : {}),
        },
      });
      return { outcome: 'evicted' };
    } catch (err: unknown) {
      const status = statusOf(err);
      if (status?.code === 429) return { outcome: 'blocked', message: status.message };
      if (status?.code === 404) return { outcome: 'gone' };
      if (status?.code === 409 && pod.uid) return { outcome: 'gone' };
      throw toClusterError(err, { kind: 'Pod', name: pod.name, namespace });
    }
  }

  /** Deduplicated and rate-limited as Karpenter's recorder does (event-recorder.ts); best effort by contract. */
  async recordEvent(event: ClusterEvent): Promise<void> {
    await this.events.record(event);
  }

  issueJoinToken(request: JoinTokenRequest): Promise<JoinToken> {
    return issueJoinToken(this.c, request);
  }

  readJoinToken(name: string): Promise<JoinToken> {
    return readJoinToken(this.c, name);
  }
}
