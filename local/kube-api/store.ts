// The emulator's storage: objects by resource (group/plural), one global resourceVersion counter like
// etcd's, optimistic concurrency, finalizers, status subresources, and a bounded event log per resource.
import { randomUUID } from 'node:crypto';
import { apiVersionOf, type ResourceType } from './resources.ts';
import { validateCustomResource } from './schema.ts';
import { EventLog, type WatchEvent, type Watcher } from './events.ts';
import { alreadyExists, conflict, notFound, statusError } from './status.ts';
import { applyPatch } from './patch.ts';
import type { KubeObject, Matcher } from './selectors.ts';

export type { KubeObject } from './selectors.ts';
export interface ListOptions {
  readonly match?: Matcher;
  readonly limit?: number;
  readonly continue?: string;
}
export interface ListResult {
  readonly items: KubeObject[];
  readonly resourceVersion: string;
  readonly continue?: string;
}
export type Subresource = 'status' | undefined;

const meta = (o: KubeObject): Record<string, unknown> => o.metadata;
const objKey = (ns: string | undefined, name: string): string => (ns ? `${ns}/${name}` : name);
const resKey = (t: ResourceType): string => `${t.group}/${t.plural}`;
const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

class Table {
  readonly objects = new Map<string, KubeObject>();
  private sorted: string[] | undefined;
  readonly log = new EventLog();
  keys(): string[] {
    this.sorted ??= [...this.objects.keys()].sort();
    return this.sorted;
  }
  invalidate(): void {
    this.sorted = undefined;
  }
}

export class Store {
  private rv = 1;
  private readonly tables = new Map<string, Table>();
  private readonly deleteHooks: ((type: ResourceType, obj: KubeObject) => void)[] = [];
  constructor(
    private readonly now: () => Date = () => new Date(),
    readonly historyLimit = 50_000,
  ) {}

  get resourceVersion(): string {
    return String(this.rv);
  }

  private table(t: ResourceType): Table {
    let table = this.tables.get(resKey(t));
    if (!table) this.tables.set(resKey(t), (table = new Table()));
    return table;
  }

  /** Called after every deletion (the "owner recreates evicted pods" helper hangs here). */
  onDelete(hook: (type: ResourceType, obj: KubeObject) => void): void {
    this.deleteHooks.push(hook);
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

  private check(t: ResourceType, obj: KubeObject): void {
    if (!t.schema) return;
    const issues = validateCustomResource(obj, t.schema).filter((i) => !i.unknownField);
    if (issues.length > 0) {
      const name = String(meta(obj).name ?? '');
      const causes = issues.map((i) => ({
        reason: 'FieldValueInvalid',
        field: i.path.replace(/^\./, ''),
        message: i.message,
      }));
      throw statusError(
        422,
        'Invalid',
        `${t.kind}.${t.group} "${name}" is invalid: ${issues.map((i) => `${i.path.replace(/^\./, '')}: ${i.message}`).join(', ')}`,
        { name, group: t.group, kind: t.kind, causes },
      );
    }
  }

  create(t: ResourceType, ns: string | undefined, input: KubeObject): KubeObject {
    const obj = structuredClone(input);
    const m = (obj.metadata ??= {});
    if (!m.name && typeof m.generateName === 'string')
      m.name = `${m.generateName}${randomUUID().slice(0, 5)}`;
    if (typeof m.name !== 'string' || !m.name)
      throw statusError(422, 'Invalid', `${t.kind}: metadata.name: Required value`);
    if (t.namespaced) m.namespace = ns ?? m.namespace ?? 'default';
    else delete m.namespace;
    const key = objKey(m.namespace as string | undefined, m.name);
    const table = this.table(t);
    if (table.objects.has(key)) throw alreadyExists(`${t.plural}${t.group ? `.${t.group}` : ''}`, m.name);
    m.uid = randomUUID();
    m.creationTimestamp = this.now()
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z');
    m.generation = 1;
    delete m.deletionTimestamp;
    this.stamp(t, obj);
    this.check(t, obj);
    table.objects.set(key, obj);
    table.invalidate();
    this.record(t, 'ADDED', obj);
    return obj;
  }

  get(t: ResourceType, ns: string | undefined, name: string): KubeObject {
    const obj = this.table(t).objects.get(objKey(t.namespaced ? ns : undefined, name));
    if (!obj) throw notFound(`${t.plural}${t.group ? `.${t.group}` : ''}`, name);
    return obj;
  }

  /** Pages walk keys in sorted order from the continue token; each page reads current state. */
  list(t: ResourceType, ns: string | undefined, opts: ListOptions = {}): ListResult {
    const table = this.table(t);
    const keys = table.keys();
    const token = opts.continue ? decodeContinue(opts.continue) : undefined;
    let i = token ? lowerBound(keys, token.after) : 0;
    const items: KubeObject[] = [];
    const limit = opts.limit && opts.limit > 0 ? opts.limit : Infinity;
    const prefix = t.namespaced && ns ? `${ns}/` : '';
    for (; i < keys.length && items.length < limit; i++) {
      const key = keys[i] as string;
      if (prefix && !key.startsWith(prefix)) continue;
      const obj = table.objects.get(key) as KubeObject;
      if (!opts.match || opts.match(obj)) items.push(obj);
    }
    const rv = token?.rv ?? this.resourceVersion;
    const more = i < keys.length && items.length >= limit;
    const last = items[items.length - 1];
    return {
      items,
      resourceVersion: rv,
      ...(more && last
        ? {
            continue: encodeContinue(
              rv,
              objKey(meta(last).namespace as string | undefined, meta(last).name as string),
            ),
          }
        : {}),
    };
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
      for (const k of ['name', 'namespace', 'uid', 'creationTimestamp', 'deletionTimestamp', 'generation'])
        if (meta(current)[k] !== undefined) meta(obj)[k] = meta(current)[k];
      if (hasStatus) obj.status = structuredClone(current.status);
      if (JSON.stringify(obj.spec) !== JSON.stringify(current.spec))
        meta(obj).generation = Number(meta(current).generation ?? 1) + 1;
    }
    if (obj.status === undefined) delete obj.status;
    this.stamp(t, obj);
    this.check(t, obj);
    const key = objKey(meta(obj).namespace as string | undefined, meta(obj).name as string);
    const finalizers = meta(obj).finalizers as string[] | undefined;
    if (meta(obj).deletionTimestamp && (finalizers ?? []).length === 0) return this.remove(t, key, obj);
    this.table(t).objects.set(key, obj);
    this.record(t, 'MODIFIED', obj);
    return obj;
  }

  /** Deletes now, or marks for deletion while finalizers remain (the object goes when the last one does). */
  delete(
    t: ResourceType,
    ns: string | undefined,
    name: string,
    precondition: { uid?: string; resourceVersion?: string } = {},
  ): KubeObject {
    const current = this.get(t, ns, name);
    const m = meta(current);
    if (
      (precondition.uid && precondition.uid !== m.uid) ||
      (precondition.resourceVersion && precondition.resourceVersion !== m.resourceVersion)
    )
      throw statusError(
        409,
        'Conflict',
        `Precondition failed for ${t.plural} "${name}": UID or resourceVersion mismatch`,
      );
    const key = objKey(m.namespace as string | undefined, name);
    if (((m.finalizers as string[] | undefined) ?? []).length > 0) {
      if (m.deletionTimestamp) return current;
      const marked = {
        ...structuredClone(current),
        metadata: {
          ...structuredClone(m),
          deletionTimestamp: this.now()
            .toISOString()
            .replace(/\.\d{3}Z$/, 'Z'),
        },
      };
      this.stamp(t, marked);
      this.table(t).objects.set(key, marked);
      this.record(t, 'MODIFIED', marked);
      return marked;
    }
    return this.remove(t, key, structuredClone(current));
  }

  private remove(t: ResourceType, key: string, last: KubeObject): KubeObject {
    const table = this.table(t);
    table.objects.delete(key);
    table.invalidate();
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
    for (const table of this.tables.values()) table.log.compact(this.rv);
  }

  all(t: ResourceType): KubeObject[] {
    const table = this.table(t);
    return table.keys().map((k) => table.objects.get(k) as KubeObject);
  }
}

const encodeContinue = (rv: string, after: string): string =>
  Buffer.from(JSON.stringify({ rv, after })).toString('base64url');
function decodeContinue(token: string): { rv: string; after: string } {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString()) as {
      rv?: unknown;
      after?: unknown;
    };
    if (typeof parsed.rv === 'string' && typeof parsed.after === 'string')
      return { rv: parsed.rv, after: parsed.after };
  } catch {
    // fall through to the error below
  }
  throw statusError(400, 'BadRequest', 'continue key is not valid');
}

/** First index whose key sorts after `after`. */
function lowerBound(keys: string[], after: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((keys[mid] as string) <= after) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
