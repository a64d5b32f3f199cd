// The Kubernetes API emulator: an HTTP server on 127.0.0.1 (port 0) that @kubernetes/client-node and
// kubectl talk to unchanged — REST paths, verbs, watch streams, discovery, subresources, eviction.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BUILTIN_TYPES, typesFromCrd, type CrdObject, type ResourceType } from './resources.ts';
import { Store, type KubeObject, type PodTermination } from './store.ts';
import { authenticateBootstrapToken, authorizeBootstrap, bootstrapBearer } from './bootstrap-auth.ts';
import { StatusError, statusError, successStatus, tooLargeResourceVersion } from './status.ts';
import { discoveryDocument } from './discovery.ts';
import { deleteOptionsOf, evict } from './eviction.ts';
import { parseFieldSelector, parseLabelSelector, requiredNodeName } from './selectors.ts';
import { parsePath, type Route } from './routes.ts';
import { serveWatch, type BookmarkSchedule } from './watch.ts';
import { strictFields } from './validation.ts';
import { asTable, type TableContext } from './tables.ts';
import { AuditLog } from './audit.ts';
import type { Rbac } from './rbac.ts';

export type { AuditEntry } from './audit.ts';

export interface EmulatorOptions {
  readonly now?: () => Date;
  /** Events kept per resource for watch catch-up; older resourceVersions get 410 Gone. */
  readonly historyLimit?: number;
  readonly crds?: readonly CrdObject[];
  /** How a watch from a compacted resourceVersion is refused: kube-apiserver's 200 + ERROR event, or a plain HTTP 410. */
  readonly expiredWatch?: 'event' | 'status';
  /**
   * `graceful` (the default, as a real cluster): a deleted or evicted pod on a node stays with a
   * deletionTimestamp for its grace period; `immediate`: it goes at once.
   */
  readonly podTermination?: PodTermination;
  /** When watches send BOOKMARK events; see watch.ts. */
  readonly bookmarks?: BookmarkSchedule;
  /** LIST pages of a random size in [0, limit], seeded (pages.ts): a real server may serve them short or empty. */
  readonly shortPages?: { readonly seed: number };
  /** Requests the audit keeps in order (audit.ts); its counts cover every request. */
  readonly auditLimit?: number;
  /** Bearer tokens and their ClusterRoles (rbac.ts); without it every request is allowed. */
  readonly rbac?: Rbac;
  /**
   * Runs `fn` after `ms` (the end of a pod's grace period); a wall-clock timer unless given (the local fleet runs
   * it on its simulated clock, docs/fleet.md "Time"). Watch timeouts and bookmarks stay on the wall clock.
   */
  readonly later?: (ms: number, fn: () => void) => void;
  /** UIDs and generated-name suffixes: random UUIDs unless given (the local fleet derives them from its seed). */
  readonly newId?: () => string;
}

/** What a test answers instead of the server: a raw body (a proxy's empty 200, a huge page) or no answer. */
export type InjectedAnswer = { readonly code: number; readonly body: string } | 'hang';

export class KubeApiEmulator {
  readonly store: Store;
  /** The emulator's clock: grace periods and the cluster-side controllers (alive/) read it. */
  readonly now: () => Date;
  readonly stats = { requests: 0, bytesOut: 0 };
  readonly audit: AuditLog;
  /** Called before a resource request is served: tests use it to race a concurrent writer. */
  readonly beforeRequest: ((verb: string, route: Route) => void)[] = [];
  /** Consulted before a resource request is served; the first answer given replaces the server's. */
  readonly inject: ((verb: string, route: Route, query: URLSearchParams) => InjectedAnswer | undefined)[] =
    [];
  private readonly types: ResourceType[] = [...BUILTIN_TYPES];
  private server: Server | undefined;
  private url = '';
  private readonly expiredWatch: 'event' | 'status';
  private readonly bookmarks: BookmarkSchedule;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly rbac: Rbac | undefined;

  constructor(options: EmulatorOptions = {}) {
    this.rbac = options.rbac;
    this.now = options.now ?? (() => new Date());
    this.audit = new AuditLog(options.auditLimit);
    this.store = new Store(
      this.now,
      options.historyLimit,
      options.podTermination ?? 'graceful',
      options.shortPages,
      options.newId,
    );
    const later = options.later;
    this.store.schedule = (ms) => {
      if (later) return later(ms, () => this.store.reap());
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.store.reap();
      }, ms);
      timer.unref();
      this.timers.add(timer);
    };
    this.expiredWatch = options.expiredWatch ?? 'event';
    this.bookmarks = options.bookmarks ?? {};
    for (const crd of options.crds ?? []) this.installCrd(crd);
    // the API server holds each CRD as an object too: `kubectl get crds` lists them
    for (const crd of options.crds ?? []) {
      const o = crd as unknown as KubeObject;
      if (
        o.metadata?.name &&
        !this.store.find(this.typeOf('CustomResourceDefinition'), undefined, String(o.metadata.name))
      )
        this.seed([o]);
    }
  }

  /** The kubelet stand-in: every pod in its grace period terminates now (tests need not wait it out). */
  terminatePods(): void {
    this.store.terminatePods();
  }

  /** How `kubectl get` is printed now: the emulator's clock and the CRDs' printer columns by kind. */
  private tableContext(): TableContext {
    return {
      now: this.now(),
      printerColumns: (kind) =>
        this.types.find((t) => t.kind === kind && t.custom)?.printerColumns ??
        (this.types.some((t) => t.kind === kind && t.custom) ? [] : undefined),
    };
  }

  /** Registers a CRD's served versions (and stores the CRD object, as the API server would). */
  installCrd(crd: CrdObject): void {
    for (const t of typesFromCrd(crd)) {
      const i = this.types.findIndex(
        (x) => x.group === t.group && x.version === t.version && x.plural === t.plural,
      );
      if (i >= 0) this.types.splice(i, 1, t);
      else this.types.push(t);
    }
  }

  /** The type serving a kind (first served version), for in-process seeding and helpers. */
  typeOf(kind: string, apiVersion?: string): ResourceType {
    const t = this.types.find(
      (x) =>
        x.kind === kind && (!apiVersion || (x.group ? `${x.group}/${x.version}` : x.version) === apiVersion),
    );
    if (!t) throw new Error(`the emulator serves no ${kind}${apiVersion ? ` at ${apiVersion}` : ''}`);
    return t;
  }

  /** Creates objects directly in the store (no HTTP): how fixtures and benchmarks seed a fleet. */
  seed(objects: readonly KubeObject[]): void {
    for (const o of objects)
      this.store.create(
        this.typeOf(String(o.kind), String(o.apiVersion)),
        o.metadata.namespace as string | undefined,
        o,
      );
  }

  async start(): Promise<string> {
    const server = createServer((req, res) => void this.handle(req, res));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this.url;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    this.server = undefined;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.stats.requests++;
    const write = res.write.bind(res);
    const end = res.end.bind(res);
    const count = (chunk: unknown): void => {
      if (typeof chunk === 'string' || chunk instanceof Uint8Array)
        this.stats.bytesOut += Buffer.byteLength(chunk);
    };
    res.write = ((chunk: unknown, ...rest: never[]) => (
      count(chunk),
      write(chunk as string, ...rest)
    )) as typeof res.write;
    res.end = ((chunk?: unknown, ...rest: never[]) => (
      count(chunk),
      end(chunk as string, ...rest)
    )) as typeof res.end;
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const body = await readBody(req);
      this.store.reap();
      const answer = this.route(req, res, url, body);
      if (answer !== undefined) send(res, answer.code, answer.body, req.headers.accept, this.tableContext());
    } catch (err: unknown) {
      const status =
        err instanceof StatusError
          ? err
          : statusError(500, 'InternalError', err instanceof Error ? err.message : String(err));
      if (!res.headersSent) send(res, status.code, status.body());
      else res.end();
    }
  }

  private route(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    body: unknown,
  ): { code: number; body: unknown } | undefined {
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const ok = (b: unknown) => ({ code: 200, body: b });
    if (req.method === 'GET') {
      const doc = discoveryDocument(path, this.types, this.url);
      if (doc !== undefined) return ok(doc);
    }
    const route = parsePath(path, this.types);
    if (!route)
      throw statusError(404, 'NotFound', `the server could not find the requested resource (${path})`);
    return this.serveResource(req, res, url, route, body);
  }

  private serveResource(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    r: Route,
    body: unknown,
  ): { code: number; body: unknown } | undefined {
    const q = url.searchParams;
    const verb = verbOf(req.method ?? 'GET', r, q);
    const contentType = verb === 'patch' ? String(req.headers['content-type'] ?? '') : undefined;
    const entry = {
      verb,
      group: r.type.group,
      resource: r.subresource ? `${r.type.plural}/${r.subresource}` : r.type.plural,
      ...(contentType ? { contentType } : {}),
    };
    this.audit.record(entry);
    const bootstrap = bootstrapBearer(req.headers.authorization);
    if (bootstrap) {
      const who = authenticateBootstrapToken(this.store, this.typeOf('Secret'), bootstrap, this.now());
      authorizeBootstrap(who, verb, entry.resource, entry.group);
    } else this.rbac?.authorize(req.headers.authorization, entry);
    for (const hook of this.beforeRequest) hook(verb, r);
    const injected = this.inject.map((f) => f(verb, r, q)).find((a) => a !== undefined);
    if (injected === 'hang') return undefined;
    if (injected) {
      res.writeHead(injected.code, { 'Content-Type': 'application/json' }).end(injected.body);
      return undefined;
    }
    const sub = r.subresource === 'status' ? 'status' : undefined;
    const asObject = (): KubeObject => {
      if (typeof body !== 'object' || body === null || Array.isArray(body))
        throw statusError(400, 'BadRequest', 'request body must be a JSON object');
      return body as KubeObject;
    };
    switch (verb) {
      case 'list': {
        const match = combine(
          parseLabelSelector(q.get('labelSelector')),
          parseFieldSelector(q.get('fieldSelector'), r.type),
        );
        notNewerThanServer(this.store, q.get('resourceVersion'));
        const limit = q.get('limit') ? Number(q.get('limit')) : undefined;
        const nodeName = requiredNodeName(q.get('fieldSelector'));
        const page = this.store.list(r.type, r.namespace, {
          match,
          ...(nodeName !== undefined ? { nodeName } : {}),
          ...(limit ? { limit } : {}),
          ...(q.get('continue') ? { continue: q.get('continue') as string } : {}),
        });
        return { code: 200, body: listBody(r.type, page) };
      }
      case 'watch':
        serveWatch(this.store, r, q, res, { expired: this.expiredWatch, bookmarks: this.bookmarks });
        return undefined;
      case 'get':
        notNewerThanServer(this.store, q.get('resourceVersion'));
        return { code: 200, body: this.store.get(r.type, r.namespace, r.name as string) };
      case 'create':
        if (r.subresource === 'eviction')
          return {
            code: 201,
            body: evict(
              this.store,
              r.type,
              this.typeOf('PodDisruptionBudget'),
              r.namespace as string,
              r.name as string,
              body,
            ),
          };
        strictFields(r.type, q.get('fieldValidation'), asObject());
        return { code: 201, body: this.store.create(r.type, r.namespace, asObject()) };
      case 'update':
        strictFields(r.type, q.get('fieldValidation'), asObject());
        return { code: 200, body: this.store.update(r.type, r.namespace, r.name as string, asObject(), sub) };
      case 'patch':
        // The API server has no strategic merge for custom resources: they have no patch-merge keys.
        if (
          String(req.headers['content-type']).startsWith('application/strategic-merge-patch+json') &&
          !BUILTIN_TYPES.includes(r.type)
        )
          throw statusError(
            415,
            'UnsupportedMediaType',
            'strategic merge patch is not supported for custom resources',
          );
        return {
          code: 200,
          body: this.store.patch(
            r.type,
            r.namespace,
            r.name as string,
            String(req.headers['content-type'] ?? ''),
            body,
            sub,
          ),
        };
      case 'delete': {
        const gone = this.store.delete(r.type, r.namespace, r.name as string, deleteOptionsOf(body));
        return {
          code: 200,
          body: gone.metadata.deletionTimestamp
            ? gone
            : successStatus({ name: r.name, kind: r.type.plural, uid: gone.metadata.uid }),
        };
      }
      default:
        throw statusError(405, 'MethodNotAllowed', `${req.method} is not supported on ${url.pathname}`);
    }
  }
}

function verbOf(method: string, r: Route, q: URLSearchParams): string {
  const collection = r.name === undefined;
  if (method === 'GET')
    return collection ? (q.get('watch') === 'true' || q.get('watch') === '1' ? 'watch' : 'list') : 'get';
  if (method === 'POST') return collection || r.subresource === 'eviction' ? 'create' : 'unsupported';
  if (method === 'PUT' && !collection) return 'update';
  if (method === 'PATCH' && !collection) return 'patch';
  if (method === 'DELETE' && !collection) return 'delete';
  return 'unsupported';
}

/**
 * A LIST or GET at a resourceVersion the server has not reached: kube-apiserver's watch cache waits up to 3 s for
 * it, then answers 504 Timeout with a ResourceVersionTooLarge cause; the emulator's store is always current, so it
 * answers at once.
 */
function notNewerThanServer(store: Store, rv: string | null): void {
  if (!rv || rv === '0') return;
  if (Number(rv) > Number(store.resourceVersion))
    throw tooLargeResourceVersion(Number(rv), Number(store.resourceVersion));
}

const combine = (a: (o: KubeObject) => boolean, b: (o: KubeObject) => boolean) => (o: KubeObject) =>
  a(o) && b(o);

function listBody(
  t: ResourceType,
  page: { items: KubeObject[]; resourceVersion: string; continue?: string },
): Record<string, unknown> {
  return {
    kind: `${t.kind}List`,
    apiVersion: t.group ? `${t.group}/${t.version}` : t.version,
    metadata: {
      resourceVersion: page.resourceVersion,
      ...(page.continue ? { continue: page.continue } : {}),
    },
    items: page.items,
  };
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  if (chunks.length === 0) return undefined;
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw statusError(400, 'BadRequest', 'request body is not valid JSON');
  }
}

function send(
  res: ServerResponse,
  code: number,
  body: unknown,
  accept?: string,
  tables?: TableContext,
): void {
  const table = tables && accept?.includes('as=Table') ? asTable(body, tables) : undefined;
  const text = JSON.stringify(table ?? body);
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}
