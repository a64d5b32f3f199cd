// The emulator's storage: objects by resource (group/plural), one global resourceVersion counter like
// etcd's, optimistic concurrency, finalizers, status subresources, and a bounded event log per resource.
// Pod termination (grace periods) is bookkept in termination.ts.
import { randomUUID } from 'node:crypto';
import { apiVersionOf, type ResourceType } from './resources.ts';
import { admitCustomResource } from './validation.ts';
import { admitObject } from './meta-validation.ts';
import { Pager } from './pages.ts';
import type { WatchEvent, Watcher } from './events.ts';
import { Table } from './table.ts';
import { alreadyExists, conflict, notFound, statusError, versionRequired } from './status.ts';
import { applyPatch } from './patch.ts';
import { rfc3339, Terminations, type PodTermination } from './termination.ts';
import type { KubeObject, Matcher } from './selectors.ts';

export type { KubeObject } from './selectors.ts';
export { POD_TERMINATION, type PodTermination } from './termination.ts';
export interface ListOptions {
  readonly match?: Matcher;
  /** The field selector's `spec.nodeName=` value, when it has one: read through the pods' index. */
  readonly nodeName?: string;
  readonly limit?: number;
  readonly continue?: string;
}
export interface ListResult {
  readonly items: KubeObject[];
  readonly resourceVersion: string;
  readonly continue?: string;
}
export type Subresource = 'status' | undefined;
export interface DeleteOptions {
  readonly uid?: string;
  readonly resourceVersion?: string;
  readonly gracePeriodSeconds?: number;
}

const meta = (o: KubeObject): Record<string, unknown> => o.metadata;
const objKey = (ns: string | undefined, name: string): string => (ns ? `${ns}/${name}` : name);
const resKey = (t: ResourceType): string => `${t.group}/${t.plural}`;
const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export class Store {
  private rv = 1;
  private readonly pager: Pager;
  private readonly tables = new Map<string, Table>();
  private readonly deleteHooks: ((type: ResourceType, obj: KubeObject) => void)[] = [];
  private readonly terminations: Terminations;
  constructor(
    private readonly now: () => Date = () => new Date(),
    readonly historyLimit = 50_000,
    readonly podTermination: PodTermination = 'graceful',
    /** Pages of a random size in [0, limit] (seeded), as a real server may serve them (pages.ts). */
    shortPages?: { readonly seed: number },
    /** UIDs and generated-name suffixes. */
    readonly newId: () => string = randomUUID,
  ) {
    this.pager = new Pager(shortPages);
    this.terminations = new Terminations(
      {
        now: () => this.now(),
        current: (t, key) => this.table(t).objects.get(key),
        mark: (t, key, current, fields) => this.mark(t, key, current, fields),
        remove: (t, key, last) => this.remove(t, key, last),
      },
      podTermination,
    );
  }

  /** Set by the server: wakes it up when a grace period ends, so watchers see the DELETED event. */
  set schedule(wake: (ms: number) => void) {
    this.terminations.schedule = wake;
  }

  get resourceVersion(): string {
    return String(this.rv);
  }

  private table(t: ResourceType): Table {
    let table = this.tables.get(resKey(t));
    if (!table) this.tables.set(resKey(t), (table = new Table(t.group === '' && t.plural === 'pods')));
    return table;
  }

  /** Called after every deletion (the "owner recreates evicted pods" helper hangs here). */
  onDelete(hook: (type: ResourceType, obj: KubeObject) => void): void {
    this.deleteHooks.push(hook);
  }

  /** Called when a pod starts its graceful termination (a ReplicaSet replaces it from then on). */
  onTerminate(hook: (type: ResourceType, obj: KubeObject) => void): void {
    this.terminations.onTerminate(hook);
  }

  private record(t: ResourceType, type: WatchEvent['type'], obj: KubeObject): void {
    this.table(t).log.append({ type, object: obj, rv: Number(meta(obj).resourceVersion) }, this.historyLimit);
  }

  private stamp(t: ResourceType, obj: KubeObject): KubeObject {
    obj.apiVersion = apiVersionOf(t);
    obj.kind = t.kind;
    meta(obj).resourceVersion = String(++this.rv);
    return obj;
  }

  /**
   * Custom resources are pruned, defaulted and validated by their CRD's schema before they are stored; every
   * object's labels and annotations, and a Node's taints, are validated as the API server does (meta-validation.ts).
   */
  private check(t: ResourceType, obj: KubeObject): void {
    if (t.schema) admitCustomResource(t, t.schema, obj);
    admitObject(t, obj);
  }

  create(t: ResourceType, ns: string | undefined, input: KubeObject): KubeObject {
    const obj = structuredClone(input);
    const m = (obj.metadata ??= {});
    if (!m.name && typeof m.generateName === 'string')
      m.name = `${m.generateName}${this.newId().slice(0, 5)}`;
    if (typeof m.name !== 'string' || !m.name)
      throw statusError(422, 'Invalid', `${t.kind}: metadata.name: Required value`);
    if (t.namespaced) m.namespace = ns ?? m.namespace ?? 'default';
    else delete m.namespace;
    const key = objKey(m.namespace as string | undefined, m.name);
    const table = this.table(t);
    if (table.objects.has(key)) throw alreadyExists(`${t.plural}${t.group ? `.${t.group}` : ''}`, m.name);
    m.uid = this.newId();
    m.creationTimestamp = this.now()
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z');
    m.generation = 1;
    delete m.deletionTimestamp;
    this.stamp(t, obj);
    this.check(t, obj);
    table.put(key, obj);
    this.record(t, 'ADDED', obj);
    return obj;
  }

  get(t: ResourceType, ns: string | undefined, name: string): KubeObject {
    const obj = this.table(t).objects.get(objKey(t.namespaced ? ns : undefined, name));
    if (!obj) throw notFound(`${t.plural}${t.group ? `.${t.group}` : ''}`, name);
    return obj;
  }

  /** The object, or undefined when there is none (where `get` would answer 404). */
  find(t: ResourceType, ns: string | undefined, name: string): KubeObject | undefined {
    return this.table(t).objects.get(objKey(t.namespaced ? ns : undefined, name));
  }

  /**
   * Pages walk keys in sorted order from the continue token; every page of one LIST reads the state its first
   * page read, at the first page's resourceVersion (pages.ts), as kube-apiserver's paginated LIST does.
   */
  list(t: ResourceType, ns: string | undefined, opts: ListOptions = {}): ListResult {
    const table = this.table(t);
    const resource = resKey(t);
    // The match still decides: the index only narrows which keys are read (the same items, in the same order).
    const take = () => ({
      resource,
      rv: this.resourceVersion,
      keys: (opts.nodeName !== undefined ? table.keysOnNode(opts.nodeName) : undefined) ?? table.keys(),
      objects: table.objects,
    });
    return this.pager.page(resource, take, {
      prefix: t.namespaced && ns ? `${ns}/` : '',
      ...(opts.match ? { match: opts.match } : {}),
      ...(opts.limit !== undefined ? { limit: opts.limit } : {}),
      ...(opts.continue !== undefined ? { continue: opts.continue } : {}),
    });
  }

  /** Full replace of the object (or of its status only, for the status subresource). */
  update(
    t: ResourceType,
    ns: string | undefined,
    name: string,
    input: KubeObject,
    sub: Subresource,
  ): KubeObject {
    const current = this.get(t, ns, name);
    const wanted = input.metadata?.resourceVersion;
    if (t.custom && (wanted === undefined || wanted === '')) throw versionRequired(t, name);
    if (wanted !== undefined && wanted !== '' && wanted !== meta(current).resourceVersion)
      throw conflict(`${t.plural}${t.group ? `.${t.group}` : ''}`, name);
    return this.write(t, current, structuredClone(input), sub);
  }

  patch(
    t: ResourceType,
    ns: string | undefined,
    name: string,
    contentType: string,
    patch: unknown,
    sub: Subresource,
  ): KubeObject {
    const current = this.get(t, ns, name);
    const patched = applyPatch(contentType, structuredClone(current), patch) as KubeObject;
    // A patch that carries metadata.resourceVersion is a precondition (optimistic lock), as in the API server.
    const wanted = isObj(patched.metadata) ? patched.metadata.resourceVersion : undefined;
    if (wanted !== meta(current).resourceVersion)
      throw conflict(`${t.plural}${t.group ? `.${t.group}` : ''}`, name);
    return this.write(t, current, patched, sub);
  }

  private write(t: ResourceType, current: KubeObject, next: KubeObject, sub: Subresource): KubeObject {
    const hasStatus = t.subresources.includes('status');
    let obj: KubeObject;
    if (sub === 'status') obj = { ...structuredClone(current), status: next.status };
    else {
      obj = { ...next, metadata: { ...next.metadata } };
      // Identity fields are the server's: name, namespace, uid, creationTimestamp cannot change.
      for (const k of [
        'name',
        'namespace',
        'uid',
        'creationTimestamp',
        'deletionTimestamp',
        'deletionGracePeriodSeconds',
        'generation',
      ])
        if (meta(current)[k] !== undefined) meta(obj)[k] = meta(current)[k];
      if (hasStatus) obj.status = structuredClone(current.status);
      if (JSON.stringify(obj.spec) !== JSON.stringify(current.spec))
        meta(obj).generation = Number(meta(current).generation ?? 1) + 1;
    }
    if (obj.status === undefined) delete obj.status;
    this.stamp(t, obj);
    this.check(t, obj);
    noNewFinalizers(t, current, obj);
    const key = objKey(meta(obj).namespace as string | undefined, meta(obj).name as string);
    if (deletesOnUpdate(current, obj)) return this.remove(t, key, obj);
    this.table(t).put(key, obj);
    this.record(t, 'MODIFIED', obj);
    return obj;
  }

  /**
   * Deletes now; or marks for deletion while finalizers remain (the object goes when the last one does);
   * or, for a pod on a node, starts graceful termination: the pod stays with `deletionTimestamp` (now +
   * grace) and `deletionGracePeriodSeconds` until the grace period ends, as a kubelet would confirm it.
   */
  delete(t: ResourceType, ns: string | undefined, name: string, options: DeleteOptions = {}): KubeObject {
    const current = this.get(t, ns, name);
    const m = meta(current);
    if (
      (options.uid && options.uid !== m.uid) ||
      (options.resourceVersion && options.resourceVersion !== m.resourceVersion)
    )
      throw statusError(
        409,
        'Conflict',
        `Precondition failed for ${t.plural} "${name}": UID in precondition: ${options.uid ?? ''}, UID in object meta: ${String(m.uid)}`,
      );
    const key = objKey(m.namespace as string | undefined, name);
    const grace = this.terminations.graceOf(t, current, options.gracePeriodSeconds);
    if (grace > 0) return this.terminations.start(t, key, current, grace);
    if (((m.finalizers as string[] | undefined) ?? []).length > 0) {
      if (m.deletionTimestamp) return current;
      // The API server's graceful deletion of an object other than a pod: grace 0, held by its finalizers.
      return this.mark(t, key, current, {
        deletionTimestamp: rfc3339(this.now()),
        deletionGracePeriodSeconds: 0,
      });
    }
    return this.remove(t, key, structuredClone(current));
  }

  private mark(
    t: ResourceType,
    key: string,
    current: KubeObject,
    fields: Record<string, unknown>,
  ): KubeObject {
    const marked = {
      ...structuredClone(current),
      metadata: { ...structuredClone(meta(current)), ...fields },
    };
    this.stamp(t, marked);
    this.table(t).put(key, marked);
    this.record(t, 'MODIFIED', marked);
    return marked;
  }

  /** Removes every pod whose grace period has ended (the server calls this before each request). */
  reap(): void {
    this.terminations.reap();
  }

  /** The kubelet stand-in: every terminating pod finishes now, whatever is left of its grace period. */
  terminatePods(): void {
    this.terminations.finishAll();
  }

  private remove(t: ResourceType, key: string, last: KubeObject): KubeObject {
    this.terminations.forget(key);
    const table = this.table(t);
    table.drop(key);
    this.stamp(t, last);
    this.record(t, 'DELETED', last);
    for (const hook of this.deleteHooks) hook(t, last);
    return last;
  }

  /** Replays events after `fromRv` (410 when compacted away), then follows live changes. */
  watch(t: ResourceType, watcher: Watcher, fromRv: string | undefined): () => void {
    const table = this.table(t);
    if (fromRv === undefined || fromRv === '' || fromRv === '0') {
      for (const key of table.keys())
        watcher.send({ type: 'ADDED', object: table.objects.get(key) as KubeObject, rv: 0 });
      return table.log.subscribe(watcher, this.rv);
    }
    return table.log.subscribe(watcher, Number(fromRv));
  }

  /** Drops every resource's event history: any watch from an older resourceVersion now gets 410. */
  compact(): void {
    this.pager.forget();
    for (const table of this.tables.values()) table.log.compact(this.rv);
  }

  all(t: ResourceType): KubeObject[] {
    const table = this.table(t);
    return table.keys().map((k) => table.objects.get(k) as KubeObject);
  }
}

/**
 * The API server's ShouldDeleteDuringUpdate: an update completes a deletion when the object was being deleted, the
 * update leaves it no finalizer, and its grace period is over (absent or 0). A pod in graceful termination that
 * is updated (its status, a label) stays until its grace period ends, as its kubelet would confirm it.
 */
function deletesOnUpdate(current: KubeObject, next: KubeObject): boolean {
  const m = meta(current);
  if (!m.deletionTimestamp) return false;
  if (((meta(next).finalizers as string[] | undefined) ?? []).length > 0) return false;
  return m.deletionGracePeriodSeconds === undefined || m.deletionGracePeriodSeconds === 0;
}

/**
 * The API server's metadata validation on update: an object being deleted may lose finalizers, never gain
 * one ("no new finalizers can be added if the object is being deleted"), so its deletion can complete.
 */
function noNewFinalizers(t: ResourceType, current: KubeObject, next: KubeObject): void {
  if (!meta(current).deletionTimestamp) return;
  const had = new Set((meta(current).finalizers as string[] | undefined) ?? []);
  const added = ((meta(next).finalizers as string[] | undefined) ?? []).filter((f) => !had.has(f));
  if (added.length === 0) return;
  throw statusError(
    422,
    'Invalid',
    `${t.kind} "${String(meta(current).name)}" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => JSON.stringify(f)).join(', ')}}`,
  );
}
