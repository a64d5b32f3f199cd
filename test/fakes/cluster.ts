// FakeCluster: an in-memory Cluster for use-case tests, held to the same contract suite as KubeCluster.
// Objects are model objects (zod-parsed on seed); writes bump a resourceVersion; `race` simulates another writer.
import { randomUUID } from 'node:crypto';
import { matchesLabelSelector } from '../../local/kube-api/selectors.ts';
import { KINDS, type ObjectOf } from '../../shared/model/objects.ts';
import type { Node } from '../../shared/model/node.ts';
import type { NodeClaim } from '../../shared/model/nodeclaim.ts';
import type { Taint } from '../../shared/model/meta.ts';
import type { JoinToken } from '../../shared/model/join-readiness.ts';
import {
  AlreadyExistsError,
  ApiError,
  ConflictError,
  ObjectNotFoundError,
} from '../../shared/ports/cluster/errors.ts';
import {
  SNAPSHOT_KINDS,
  type Cluster,
  type ClusterEvent,
  type EvictionResult,
  type JoinTokenRequest,
  type KindRead,
  type MetadataChange,
  type NodeClaimStatus,
  type ObjectKey,
  type SnapshotKind,
  type SnapshotRead,
  type StatusKind,
} from '../../shared/ports/cluster/index.ts';

type Obj = {
  metadata: {
    name: string;
    namespace?: string;
    resourceVersion?: string;
    uid?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    finalizers?: string[];
    deletionTimestamp?: string;
  };
};
const keyOf = (m: { name: string; namespace?: string }): string =>
  m.namespace ? `${m.namespace}/${m.name}` : m.name;

/** RFC 7386: null removes a key, objects merge, anything else replaces. */
function mergePatch(
  target: Record<string, unknown>,
  patch: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const out = { ...target };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else if (typeof v === 'object' && !Array.isArray(v) && typeof out[k] === 'object' && out[k] !== null)
      out[k] = mergePatch(out[k] as Record<string, unknown>, v as Record<string, unknown>);
    else out[k] = v;
  }
  return out;
}

export class FakeCluster implements Cluster {
  /** Status subresource patches written (a quiet pass writes none). */
  statusWrites = 0;
  private rv = 1;
  private readonly objects = new Map<SnapshotKind, Map<string, Obj>>(
    SNAPSHOT_KINDS.map((k) => [k, new Map()]),
  );
  private readonly changed = new Map<SnapshotKind, number>();
  private read = false;
  /** Called before each write attempt; a test makes "another writer" change the object here. */
  readonly beforeWrite: ((kind: SnapshotKind, name: string) => void)[] = [];
  /** Every event recorded, in order (the Event kind is not part of the snapshot). */
  readonly events: ClusterEvent[] = [];
  /** Bootstrap-token Secrets of kube-system by name, as the kube adapter would write them. */
  readonly joinTokens = new Map<string, JoinToken & { key?: string; expiresAt?: Date }>();

  constructor(public conflictAttempts = 5) {}

  seed(objects: readonly unknown[]): void {
    for (const raw of objects) {
      const kind = (raw as { kind: SnapshotKind }).kind;
      const parsed = KINDS[kind].schema.parse(raw) as Obj;
      parsed.metadata.uid ??= randomUUID();
      this.put(kind, parsed);
    }
  }

  private put(kind: SnapshotKind, obj: Obj): Obj {
    obj.metadata.resourceVersion = String(++this.rv);
    this.objects.get(kind)?.set(keyOf(obj.metadata), obj);
    this.changed.set(kind, (this.changed.get(kind) ?? 0) + 1);
    return obj;
  }

  private get<K extends SnapshotKind>(kind: K, name: string, namespace?: string): ObjectOf<K> & Obj {
    const obj = this.objects.get(kind)?.get(keyOf({ name, ...(namespace ? { namespace } : {}) }));
    if (!obj) throw new ObjectNotFoundError({ kind, name, ...(namespace ? { namespace } : {}) });
    return structuredClone(obj) as ObjectOf<K> & Obj;
  }

  /** Another writer touched the object: its resourceVersion moves on. */
  touch(kind: SnapshotKind, name: string, labels: Record<string, string>): void {
    const obj = this.get(kind, name);
    obj.metadata.labels = { ...obj.metadata.labels, ...labels };
    this.put(kind, obj);
  }

  private async retry<T>(kind: SnapshotKind, name: string, attempt: (read: () => Obj) => T): Promise<T> {
    for (let i = 0; i < this.conflictAttempts; i++) {
      const seen = this.get(kind, name);
      for (const hook of this.beforeWrite) hook(kind, name);
      if (this.get(kind, name).metadata.resourceVersion === seen.metadata.resourceVersion)
        return attempt(() => seen);
    }
    throw new ConflictError({ kind, name }, this.conflictAttempts);
  }

  async listNodeClaims(): Promise<NodeClaim[]> {
    return [...(this.objects.get('NodeClaim')?.values() ?? [])].map((o) => structuredClone(o) as NodeClaim);
  }

  async listNodes(): Promise<Node[]> {
    return [...(this.objects.get('Node')?.values() ?? [])].map((o) => structuredClone(o) as Node);
  }

  async readSnapshot(): Promise<SnapshotRead> {
    const all = <K extends SnapshotKind>(k: K) =>
      [...(this.objects.get(k)?.values() ?? [])].map((o) => structuredClone(o)) as ObjectOf<K>[];
    const reads = Object.fromEntries(
      SNAPSHOT_KINDS.map((k): [SnapshotKind, KindRead] => [
        k,
        {
          mode: this.read ? 'catch-up' : 'list',
          objects: this.objects.get(k)?.size ?? 0,
          changes: this.read ? (this.changed.get(k) ?? 0) : 0,
          resourceVersion: String(this.rv),
        },
      ]),
    ) as Record<SnapshotKind, KindRead>;
    this.read = true;
    this.changed.clear();
    return {
      reads,
      warnings: [],
      invalid: [],
      objects: {
        nodes: all('Node'),
        pods: all('Pod'),
        namespaces: all('Namespace'),
        pvcs: all('PersistentVolumeClaim'),
        pvs: all('PersistentVolume'),
        storageClasses: all('StorageClass'),
        csiNodes: all('CSINode'),
        pdbs: all('PodDisruptionBudget'),
        daemonSets: all('DaemonSet'),
        nodePools: all('NodePool'),
        nodeClaims: all('NodeClaim'),
        nodeClasses: [...all('EC2NodeClass'), ...all('GCENodeClass')],
        podGroups: all('PodGroup'),
        workloads: all('Workload'),
        workloadPodGroups: all('WorkloadPodGroup'),
        provisioningRequests: all('ProvisioningRequest'),
        podTemplates: all('PodTemplate'),
      },
    };
  }

  async listPodsOnNode(node: string): Promise<ObjectOf<'Pod'>[]> {
    return ([...(this.objects.get('Pod')?.values() ?? [])] as ObjectOf<'Pod'>[])
      .filter((p) => p.spec.nodeName === node)
      .map((p) => structuredClone(p));
  }

  async getNode(name: string): Promise<Node> {
    return this.get('Node', name);
  }

  async getNodeClaim(name: string): Promise<NodeClaim> {
    return this.get('NodeClaim', name);
  }

  addTaint(node: string, taint: Taint): Promise<Node> {
    return this.retry('Node', node, (read) => {
      const n = read() as Node & Obj;
      const taints = n.spec?.taints ?? [];
      if (taints.some((t) => t.key === taint.key && t.effect === taint.effect)) return n;
      return this.put('Node', { ...n, spec: { ...n.spec, taints: [...taints, taint] } } as Obj) as Node;
    });
  }

  removeTaint(node: string, key: string, effect: Taint['effect']): Promise<Node> {
    return this.retry('Node', node, (read) => {
      const n = read() as Node & Obj;
      const taints = (n.spec?.taints ?? []).filter((t) => !(t.key === key && t.effect === effect));
      return this.put('Node', { ...n, spec: { ...n.spec, taints } } as Obj) as Node;
    });
  }

  patchMetadata(kind: 'Node', name: string, change: MetadataChange): Promise<Node>;
  patchMetadata(kind: 'NodeClaim', name: string, change: MetadataChange): Promise<NodeClaim>;
  async patchMetadata(
    kind: 'Node' | 'NodeClaim',
    name: string,
    change: MetadataChange,
  ): Promise<Node | NodeClaim> {
    const obj = this.get(kind, name);
    const apply = (
      cur: Record<string, string> | undefined,
      ch: Readonly<Record<string, string | null>> | undefined,
    ) => {
      const out = { ...cur };
      for (const [k, v] of Object.entries(ch ?? {}))
        if (v === null) delete out[k];
        else out[k] = v;
      return out;
    };
    if (change.labels) obj.metadata.labels = apply(obj.metadata.labels, change.labels);
    if (change.annotations) obj.metadata.annotations = apply(obj.metadata.annotations, change.annotations);
    return this.put(kind, obj) as Node | NodeClaim;
  }

  async createNodeClaim(claim: NodeClaim): Promise<NodeClaim> {
    if (this.objects.get('NodeClaim')?.has(claim.metadata.name))
      throw new AlreadyExistsError({ kind: 'NodeClaim', name: claim.metadata.name });
    const { status: _status, ...rest } = structuredClone(claim);
    return this.put('NodeClaim', {
      ...rest,
      metadata: { ...rest.metadata, uid: randomUUID() },
    } as Obj) as NodeClaim;
  }

  updateNodeClaimStatus(
    name: string,
    mutate: (status: NodeClaimStatus) => NodeClaimStatus,
  ): Promise<NodeClaim> {
    return this.retry('NodeClaim', name, (read) => {
      const c = read() as NodeClaim & Obj;
      return this.put('NodeClaim', {
        ...c,
        status: mutate(structuredClone(c.status ?? {})),
      } as Obj) as NodeClaim;
    });
  }

  private remove(kind: 'Node' | 'NodeClaim', name: string, uid: string | undefined): void {
    const obj = this.get(kind, name);
    if (uid && obj.metadata.uid !== uid)
      throw new ApiError({ kind, name }, 409, 'Conflict', 'Precondition failed: UID mismatch');
    if ((obj.metadata.finalizers ?? []).length > 0) {
      obj.metadata.deletionTimestamp ??= new Date(0).toISOString();
      this.put(kind, obj);
    } else this.objects.get(kind)?.delete(name);
  }

  async deleteNodeClaim(name: string, precondition: { uid?: string } = {}): Promise<void> {
    this.remove('NodeClaim', name, precondition.uid);
  }

  async deleteNode(name: string, precondition: { uid?: string } = {}): Promise<void> {
    this.remove('Node', name, precondition.uid);
  }

  async removeFinalizer(kind: 'Node' | 'NodeClaim', name: string, finalizer: string): Promise<void> {
    await this.retry(kind, name, (read) => {
      const obj = read();
      const finalizers = obj.metadata.finalizers ?? [];
      if (!finalizers.includes(finalizer)) return;
      const kept = finalizers.filter((f) => f !== finalizer);
      // As in the API server: an object being deleted goes once its last finalizer does.
      if (obj.metadata.deletionTimestamp && kept.length === 0) this.objects.get(kind)?.delete(name);
      else this.put(kind, { ...obj, metadata: { ...obj.metadata, finalizers: kept } });
    });
  }

  async addFinalizer(kind: 'Node' | 'NodeClaim', name: string, finalizer: string): Promise<boolean> {
    return this.retry(kind, name, (read) => {
      const obj = read();
      const finalizers = obj.metadata.finalizers ?? [];
      if (finalizers.includes(finalizer)) return true;
      if (obj.metadata.deletionTimestamp) return false;
      this.put(kind, { ...obj, metadata: { ...obj.metadata, finalizers: [...finalizers, finalizer] } });
      return true;
    });
  }

  async evictPod(key: ObjectKey & { readonly uid?: string }): Promise<EvictionResult> {
    const namespace = key.namespace ?? 'default';
    const pod = this.objects.get('Pod')?.get(`${namespace}/${key.name}`) as ObjectOf<'Pod'> | undefined;
    if (!pod || (key.uid && pod.metadata.uid !== key.uid)) return { outcome: 'gone' };
    const phase = pod.status?.phase;
    if ((phase === 'Running' || phase === undefined) && !pod.metadata.deletionTimestamp) {
      const pdbs = [
        ...(this.objects.get('PodDisruptionBudget')?.values() ?? []),
      ] as ObjectOf<'PodDisruptionBudget'>[];
      const matching = pdbs.filter(
        (p) =>
          p.metadata.namespace === namespace &&
          matchesLabelSelector(p.spec.selector as never, pod.metadata.labels ?? {}),
      );
      if (matching.length > 1)
        throw new ApiError(
          { kind: 'Pod', name: key.name, namespace },
          500,
          'InternalError',
          'This pod has more than one PodDisruptionBudget',
        );
      const pdb = matching[0];
      if (pdb) {
        const allowed = pdb.status?.disruptionsAllowed ?? 0;
        if (allowed <= 0)
          return {
            outcome: 'blocked',
            message: `Cannot evict pod as it would violate the pod's disruption budget ${pdb.metadata.name}.`,
          };
        this.put('PodDisruptionBudget', {
          ...pdb,
          status: { ...pdb.status, disruptionsAllowed: allowed - 1 },
        } as Obj);
      }
    }
    // Eviction is a graceful deletion: a pod on a node stays, terminating, until its kubelet confirms it.
    if (pod.spec?.nodeName && phase !== 'Succeeded' && phase !== 'Failed')
      this.put('Pod', {
        ...pod,
        metadata: { ...pod.metadata, deletionTimestamp: new Date(0).toISOString() },
      } as Obj);
    else this.objects.get('Pod')?.delete(`${namespace}/${key.name}`);
    return { outcome: 'evicted' };
  }

  async patchStatus(
    kind: StatusKind,
    name: string,
    resourceVersion: string,
    status: Readonly<Record<string, unknown>>,
  ): Promise<void> {
    const obj = this.get(kind, name) as Obj & { status?: Record<string, unknown> };
    if (obj.metadata.resourceVersion !== resourceVersion) throw new ConflictError({ kind, name }, 1);
    this.statusWrites += 1;
    this.put(kind, { ...obj, status: mergePatch(obj.status ?? {}, status) } as Obj);
  }

  async patchRequestStatus(
    request: { readonly namespace: string; readonly name: string },
    resourceVersion: string,
    status: Readonly<Record<string, unknown>>,
  ): Promise<void> {
    const obj = this.get('ProvisioningRequest', request.name, request.namespace) as Obj & {
      status?: Record<string, unknown>;
    };
    if (obj.metadata.resourceVersion !== resourceVersion)
      throw new ConflictError({ kind: 'ProvisioningRequest', ...request }, 1);
    this.statusWrites += 1;
    this.put('ProvisioningRequest', { ...obj, status: mergePatch(obj.status ?? {}, status) } as Obj);
  }

  recordEvent(event: ClusterEvent): Promise<void> {
    this.events.push(event);
    return Promise.resolve();
  }

  issueJoinToken(r: JoinTokenRequest): Promise<JoinToken> {
    const found = [...this.joinTokens.values()].find((t) => t.key === r.key);
    if (found) return Promise.resolve({ id: found.id, secret: found.secret });
    const n = String(this.joinTokens.size).padStart(6, '0');
    const token = { id: n, secret: `fake${n}000000` };
    this.joinTokens.set(`bootstrap-token-${n}`, { ...token, key: r.key, expiresAt: r.expiresAt });
    return Promise.resolve(token);
  }

  readJoinToken(name: string): Promise<JoinToken> {
    const t = this.joinTokens.get(name);
    if (!t)
      return Promise.reject(new ObjectNotFoundError({ kind: 'Secret', namespace: 'kube-system', name }));
    return Promise.resolve({ id: t.id, secret: t.secret });
  }
}
