// The pass snapshot: every kind LISTed in pages the first time (cold), then caught up by WATCH from
// each kind's last resourceVersion (warm), re-listing a kind whose watch answers 410 Gone or streams an
// event line over the cap or not JSON. Objects that fail validation are remembered per kind until an event
// makes them parse (or deletes them), so every read reports them (SnapshotRead.invalid).
import type { ObjectOf } from '../../model/objects.ts';
import { InvalidObjectError } from '../../ports/cluster/errors.ts';
import {
  OPTIONAL_KINDS,
  SKIPPED_WHEN_INVALID,
  SNAPSHOT_KINDS,
  type InvalidObject,
  type KindRead,
  type SnapshotKind,
  type SnapshotRead,
} from '../../ports/cluster/index.ts';
import type { Logger } from '../../ports/logger.ts';
import type { ClusterObjects } from '../../state/objects.ts';
import type { KubeClients } from './client.ts';
import {
  ContinueExpiredError,
  RELIST_ATTEMPTS,
  statusOf,
  toClusterError,
  WatchExpiredError,
} from './errors.ts';
import { catchUp, type RawEvent } from './catchup.ts';
import { KIND_SPECS } from './kinds.ts';
import { MalformedWatchEventError, WatchEventTooLargeError } from './watch-stream.ts';
import { invalidObject } from './invalid.ts';
import { toModel, type InvalidPolicy } from './validate.ts';

export interface SnapshotOptions {
  /** LIST page size (`limit`); the API server's default chunk size is 500. */
  readonly pageSize?: number;
  /**
   * Upper bound on one catch-up watch (`timeoutSeconds`). kube-apiserver (and the emulator, by default) sends
   * its bookmark 2 s before a watch's timeout, so a short timeout keeps a warm read near `timeout - 2 s`
   * (1 s at the default 3) and at this bound at worst. Kinds are caught up in parallel.
   */
  readonly catchUpTimeoutSeconds?: number;
  readonly invalid?: InvalidPolicy;
  readonly logger?: Logger;
}

interface KindState {
  objects: Map<string, unknown>;
  /** Objects of the kind that fail validation now, by key (skipped from `objects`). */
  invalid: Map<string, InvalidObject>;
  resourceVersion: string;
}

/** One kind's maps while a read applies events to them. */
interface Staged {
  readonly objects: Map<string, unknown>;
  readonly invalid: Map<string, InvalidObject>;
}

const NOT_SERVED = Symbol('not served');

const mustRelist = (
  err: unknown,
): err is WatchExpiredError | WatchEventTooLargeError | MalformedWatchEventError =>
  err instanceof WatchExpiredError ||
  err instanceof WatchEventTooLargeError ||
  err instanceof MalformedWatchEventError;

const keyOf = (o: unknown): string => {
  const m = (o as { metadata?: { namespace?: string; name?: string } }).metadata ?? {};
  return m.namespace ? `${m.namespace}/${m.name}` : String(m.name);
};

export class SnapshotReader {
  private readonly state = new Map<SnapshotKind, KindState>();
  constructor(
    private readonly c: KubeClients,
    private readonly options: SnapshotOptions = {},
  ) {}

  /** Forget the warm state: the next read is a full LIST again. */
  reset(): void {
    this.state.clear();
  }

  async read(): Promise<SnapshotRead> {
    const warnings: string[] = [];
    const results = await Promise.all(
      SNAPSHOT_KINDS.map(async (kind) => [kind, await this.readKind(kind, warnings)] as const),
    );
    const reads = Object.fromEntries(results) as Record<SnapshotKind, KindRead>;
    const invalid = [...this.state.values()].flatMap((s) => [...s.invalid.values()]);
    return { objects: this.assemble(), reads, warnings, invalid };
  }

  private async readKind(kind: SnapshotKind, warnings: string[]): Promise<KindRead> {
    const prev = this.state.get(kind);
    if (prev) {
      try {
        const caught = await catchUp(
          this.c,
          KIND_SPECS[kind],
          prev.resourceVersion,
          this.options.catchUpTimeoutSeconds ?? 3,
        );
        const staged = { objects: new Map(prev.objects), invalid: new Map(prev.invalid) };
        // Only each object's last event matters: an object added and deleted in between never counts.
        const last = new Map(caught.events.map((e) => [keyOf(e.object), e] as const));
        for (const e of last.values()) this.apply(kind, staged, e, warnings);
        this.state.set(kind, { ...staged, resourceVersion: caught.resourceVersion });
        return {
          mode: 'catch-up',
          objects: staged.objects.size,
          changes: caught.events.length,
          resourceVersion: caught.resourceVersion,
        };
      } catch (err: unknown) {
        if (!mustRelist(err)) throw err;
        // An expired resourceVersion, or a stream that cannot be trusted (an event line over the cap, a line
        // that is not JSON): the events before it are not the kind's whole history, so a fresh LIST is.
        this.options.logger?.info('watch ended unusable, re-listing', {
          kind,
          resourceVersion: prev.resourceVersion,
          error: err.message,
        });
        return { ...(await this.list(kind, warnings)), mode: 'relist' };
      }
    }
    return this.list(kind, warnings);
  }

  /**
   * Paginated LIST (`limit`/`continue`); the first page's resourceVersion is where a catch-up starts.
   * A continue token the server has expired (410: etcd compacted its snapshot) restarts the LIST from
   * the first page, as client-go's pager does: pages from two snapshots must not be mixed.
   */
  private async list(kind: SnapshotKind, warnings: string[]): Promise<KindRead> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.listOnce(kind, warnings);
      } catch (err: unknown) {
        if (!(err instanceof ContinueExpiredError)) throw err;
        if (attempt >= RELIST_ATTEMPTS) throw err.cause;
        this.options.logger?.info('continue token expired, listing again from the first page', { kind });
      }
    }
  }

  private async listOnce(kind: SnapshotKind, warnings: string[]): Promise<KindRead> {
    const spec = KIND_SPECS[kind];
    const staged = { objects: new Map<string, unknown>(), invalid: new Map<string, InvalidObject>() };
    let cont: string | undefined;
    let resourceVersion = '';
    do {
      const page = await spec
        .listPage(this.c, { limit: this.options.pageSize ?? 500, ...(cont ? { _continue: cont } : {}) })
        .catch((err: unknown) =>
          // an optional kind the server does not serve: none of it, and no watch state (listed again next read)
          !cont && OPTIONAL_KINDS.has(kind) && statusOf(err)?.code === 404
            ? NOT_SERVED
            : Promise.reject(
                cont && statusOf(err)?.code === 410
                  ? new ContinueExpiredError(kind, toClusterError(err, undefined))
                  : toClusterError(err, undefined),
              ),
        );
      if (page === NOT_SERVED) return { mode: 'list', objects: 0, changes: 0, resourceVersion: '' };
      if (!resourceVersion) resourceVersion = page.resourceVersion;
      for (const raw of page.items)
        this.apply(kind, staged, { type: 'ADDED', object: raw as Record<string, unknown> }, warnings);
      cont = page.continue;
    } while (cont);
    this.state.set(kind, { ...staged, resourceVersion });
    return { mode: 'list', objects: staged.objects.size, changes: 0, resourceVersion };
  }

  private apply(kind: SnapshotKind, into: Staged, e: RawEvent, warnings: string[]): void {
    const key = keyOf(e.object);
    into.invalid.delete(key);
    if (e.type === 'DELETED') {
      into.objects.delete(key);
      return;
    }
    try {
      into.objects.set(key, toModel(kind, e.object, KIND_SPECS[kind].apiVersion));
    } catch (err: unknown) {
      if (!(err instanceof InvalidObjectError)) throw err;
      if (this.options.invalid !== 'skip' && !SKIPPED_WHEN_INVALID.has(kind)) throw err;
      into.objects.delete(key);
      into.invalid.set(key, invalidObject(kind, e.object, err.message));
      warnings.push(err.message);
      this.options.logger?.warn('skipped invalid object', { error: err.message });
    }
  }

  private all<K extends SnapshotKind>(kind: K): ObjectOf<K>[] {
    return [...(this.state.get(kind)?.objects.values() ?? [])] as ObjectOf<K>[];
  }

  private assemble(): ClusterObjects {
    return {
      nodes: this.all('Node'),
      pods: this.all('Pod'),
      namespaces: this.all('Namespace'),
      pvcs: this.all('PersistentVolumeClaim'),
      pvs: this.all('PersistentVolume'),
      storageClasses: this.all('StorageClass'),
      csiNodes: this.all('CSINode'),
      pdbs: this.all('PodDisruptionBudget'),
      daemonSets: this.all('DaemonSet'),
      nodePools: this.all('NodePool'),
      nodeClaims: this.all('NodeClaim'),
      nodeClasses: [...this.all('EC2NodeClass'), ...this.all('GCENodeClass')],
      podGroups: this.all('PodGroup'),
      workloads: this.all('Workload'),
      workloadPodGroups: this.all('WorkloadPodGroup'),
      // answered by the provision function (docs/mechanisms/provisioning-requests.md)
      provisioningRequests: this.all('ProvisioningRequest'),
      podTemplates: this.all('PodTemplate'),
    };
  }
}
