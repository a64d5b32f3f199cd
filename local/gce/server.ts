// Compute Engine REST emulator on 127.0.0.1 for @google-cloud/compute with fallback (REST) transport:
// instances insert/bulkInsert/get/list/aggregatedList/delete, zone operations get/wait/list,
// machineTypes, acceleratorTypes, regions.get; requestId idempotency; fault injection; onBoot for the Kubernetes emulator.
// It serves `project` and any `otherProjects` (one world each), so a providerID can name a VM of another project.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { compileFilter } from './filter.ts';
import { bulkInsert, insert, preempt, remove, settle, type Hooks } from './instances.ts';
import { pageOf } from './pages.ts';
import {
  GceHttpError,
  errorBody,
  instanceJson,
  operationJson,
  rateLimited,
  rateLimited403,
} from './resources.ts';
import { seedWorld } from './seed.ts';
import { defaultSkus, skusResponse } from './billing.ts';
import { GceWorld, type BootedGceInstance, type GceInstance, type GceOperation } from './world.ts';
import { closeServer, readBody } from '../http-server.ts';

export interface GceEmulatorOptions {
  readonly project?: string;
  /** More projects served on the same port, each its own world (same region and zones). */
  readonly otherProjects?: readonly string[];
  readonly region?: string;
  readonly zones?: readonly string[];
  readonly onBoot?: (instance: BootedGceInstance) => void | Promise<void>;
  /** The world's time (creation and operation insert times); the wall clock unless given. */
  readonly now?: () => Date;
  /**
   * Runs `fn` after `ms` (the instance state steps); a wall-clock timer unless given (the local fleet runs them on
   * its simulated clock, docs/fleet.md "Time"). Operation delays and operations.wait stay on the wall clock.
   */
  readonly later?: (ms: number, fn: () => void) => void;
  /** Items per page of a list that sends no maxResults (default 2). */
  readonly pageSize?: number;
  /** How long operations.wait blocks before answering with a still-running operation (Compute Engine: about 2 minutes). */
  readonly waitBudgetMs?: number;
  /**
   * How long (wall ms) a new instance stays PROVISIONING, then STAGING, before it is RUNNING and boots; 0 (the
   * default) moves it on a timer tick after the request that created it, so a caller that reads it back at once
   * sees PROVISIONING, as on Compute Engine (README, "Instance states").
   */
  readonly stateStepMs?: number;
}

export interface GceEmulator {
  readonly world: GceWorld;
  /** The world of one served project (`world` is the first project's); throws for a project not served. */
  worldOf(project: string): GceWorld;
  readonly port: number;
  /** Preempts a Spot VM the way Compute Engine does (an operation of type compute.instances.preempted). */
  preempt(zone: string, name: string): void;
  close(): Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const WAIT_BUDGET_MS = 2_000;

export async function startGceEmulator(options: GceEmulatorOptions = {}): Promise<GceEmulator> {
  const zones = options.zones ?? ['us-central1-a', 'us-central1-b'];
  const worlds = new Map<string, GceWorld>();
  for (const project of [options.project ?? 'kraftsman-test', ...(options.otherProjects ?? [])]) {
    const w = new GceWorld(project, options.region ?? 'us-central1', options.now);
    seedWorld(w, zones);
    if (options.pageSize !== undefined) w.pageSize = options.pageSize;
    w.skus.push(...defaultSkus());
    worlds.set(project, w);
  }
  const world = [...worlds.values()][0] as GceWorld;
  const timers = new Set<NodeJS.Timeout>();
  const later = (fn: () => void): void => {
    if (options.later) return options.later(options.stateStepMs ?? 0, fn);
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, options.stateStepMs ?? 0);
    timers.add(t);
  };
  // PROVISIONING → STAGING → RUNNING, a step at a time; a VM deleted meanwhile (STOPPING) never boots.
  const hooksOf = (world: GceWorld): Hooks => ({
    created: (i: GceInstance) =>
      later(() => {
        if (i.status !== 'PROVISIONING') return;
        i.status = 'STAGING';
        later(() => {
          if (i.status !== 'STAGING') return;
          i.status = 'RUNNING';
          boot(world, i);
        });
      }),
  });
  const boot = (world: GceWorld, i: GceInstance): void => {
    const items = ((i.resource.metadata ?? {}) as { items?: { key: string; value: string }[] }).items ?? [];
    void options.onBoot?.({
      providerId: `gce://${world.project}/${i.zone}/${i.name}`,
      name: i.name,
      zone: i.zone,
      machineType: i.machineType,
      provisioningModel: i.provisioningModel,
      labels: { ...((i.resource.labels ?? {}) as Record<string, string>) },
      startupScript: items.find((x) => x.key === 'startup-script')?.value ?? '',
    });
  };

  function withRequestId(world: GceWorld, url: URL, make: () => GceOperation): GceOperation {
    const requestId = url.searchParams.get('requestId');
    const seen = requestId ? world.operations.get(world.requestIds.get(requestId) ?? '') : undefined;
    if (seen) return seen;
    const op = make();
    if (requestId) world.requestIds.set(requestId, op.name);
    settle(world);
    return op;
  }

  async function route(method: string, url: URL, body: Record<string, unknown>): Promise<unknown> {
    const p = url.pathname.split('/').filter(Boolean);
    // compute v1 projects P (aggregated instances | zones Z …)
    const world = worlds.get(p[3] ?? '');
    if (p[0] !== 'compute' || p[1] !== 'v1' || p[2] !== 'projects' || !world)
      throw new GceHttpError(404, 'notFound', `no route ${method} ${url.pathname}`);
    const hooks = hooksOf(world);
    const filter = compileFilter(url.searchParams.get('filter'));
    if (p[4] === 'aggregated' && p[5] === 'instances' && method === 'GET') {
      // Pages run over every (zone, instance) pair; a page names the zones of the instances it holds.
      const shown = world.listed();
      const all = zones.flatMap((z) =>
        shown
          .filter((i) => i.zone === z)
          .map((i) => instanceJson(world, i))
          .filter(filter)
          .map((i) => [z, i] as const),
      );
      const { page, nextPageToken } = pageOf(url, all, world.pageSize);
      const items: Record<string, { instances?: unknown[]; warning?: unknown }> = {};
      for (const z of zones)
        if (!nextPageToken && !all.some(([zone]) => zone === z))
          items[`zones/${z}`] = {
            warning: { code: 'NO_RESULTS_ON_PAGE', message: 'There are no results for scope' },
          };
      for (const [z, i] of page) (items[`zones/${z}`] ??= { instances: [] }).instances?.push(i);
      return { kind: 'compute#instanceAggregatedList', items, ...(nextPageToken ? { nextPageToken } : {}) };
    }
    if (p[4] === 'regions' && p[5] && !p[6] && method === 'GET') {
      // regions.get: the region's zones as URLs (Compute Engine's Region resource); 404 for a region it lacks
      const inRegion = zones.filter((z) => z.slice(0, z.lastIndexOf('-')) === p[5]);
      if (inRegion.length === 0)
        throw new GceHttpError(
          404,
          'notFound',
          `The resource 'projects/${world.project}/regions/${p[5]}' was not found`,
        );
      const base = `https://www.googleapis.com/compute/v1/projects/${world.project}`;
      return {
        kind: 'compute#region',
        name: p[5],
        status: 'UP',
        selfLink: `${base}/regions/${p[5]}`,
        zones: inRegion.map((z) => `${base}/zones/${z}`),
      };
    }
    const zone = p[5] ?? '';
    if (p[4] !== 'zones' || !zones.includes(zone))
      throw new GceHttpError(
        404,
        'notFound',
        `The resource 'projects/${world.project}/zones/${zone}' was not found`,
      );
    const [kind, name, verb] = [p[6], p[7], p[8]];
    const listOf = (listKind: string, all: readonly unknown[]) => {
      const { page, nextPageToken } = pageOf(url, all, world.pageSize);
      return { kind: listKind, items: page, ...(nextPageToken ? { nextPageToken } : {}) };
    };
    if (kind === 'instances') {
      if (method === 'POST' && name === 'bulkInsert')
        return operationJson(
          world,
          withRequestId(world, url, () => bulkInsert(world, hooks, zone, body)),
        );
      if (method === 'POST' && !name)
        return operationJson(
          world,
          withRequestId(world, url, () => insert(world, hooks, zone, body)),
        );
      if (method === 'GET' && !name)
        return listOf(
          'compute#instanceList',
          world
            .listed()
            .filter((i) => i.zone === zone)
            .map((i) => instanceJson(world, i))
            .filter(filter),
        );
      const instance = world.instances.get(world.key(zone, name ?? ''));
      if (method === 'GET' && !verb) {
        if (!instance)
          throw new GceHttpError(
            404,
            'notFound',
            `The resource 'projects/${world.project}/zones/${zone}/instances/${name}' was not found`,
          );
        return instanceJson(world, instance);
      }
      if (method === 'DELETE' && !verb)
        return operationJson(
          world,
          withRequestId(world, url, () => remove(world, zone, name ?? '')),
        );
    }
    if (kind === 'operations') {
      if (method === 'GET' && !name)
        return listOf(
          'compute#operationList',
          [...world.operations.values()]
            .filter((o) => o.zone === zone)
            .map((o) => operationJson(world, o))
            .filter(filter),
        );
      const op = world.operations.get(name ?? '');
      if (!op)
        throw new GceHttpError(
          404,
          'notFound',
          `The resource 'projects/${world.project}/zones/${zone}/operations/${name}' was not found`,
        );
      if (method === 'POST' && verb === 'wait') {
        // Like Compute Engine, wait returns when the operation is DONE or its budget runs out (the caller loops).
        const deadline = Date.now() + (options.waitBudgetMs ?? WAIT_BUDGET_MS);
        while (op.status !== 'DONE' && Date.now() < deadline) {
          await sleep(Math.max(1, Math.min(op.doneAt - Date.now(), 20)));
          settle(world);
        }
      }
      return operationJson(world, op);
    }
    if (kind === 'machineTypes' && method === 'GET') {
      return listOf(
        'compute#machineTypeList',
        [...world.machineTypes.values()]
          .filter((t) => t.zones.includes(zone))
          .map((t) => ({
            kind: 'compute#machineType',
            name: t.name,
            guestCpus: t.guestCpus,
            memoryMb: t.memoryMb,
            zone,
            ...(t.accelerators ? { accelerators: t.accelerators } : {}),
            architecture: t.architecture ?? 'X86_64',
          })),
      );
    }
    if (kind === 'acceleratorTypes' && method === 'GET') {
      return listOf(
        'compute#acceleratorTypeList',
        [...world.acceleratorTypes.values()]
          .filter((a) => a.zones.includes(zone))
          .map((a) => ({
            kind: 'compute#acceleratorType',
            name: a.name,
            description: a.description,
            maximumCardsPerInstance: a.maximumCardsPerInstance,
            zone,
          })),
      );
    }
    throw new GceHttpError(404, 'notFound', `no route ${method} ${url.pathname}`);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const text = await readBody(req);
    const method = req.method ?? 'GET';
    world.calls.push(`${method} ${url.pathname}`);
    if (text) world.bodies.push({ path: url.pathname, body: JSON.parse(text) as Record<string, unknown> });
    const send = (status: number, body: unknown): void =>
      void res
        .writeHead(status, { 'content-type': 'application/json; charset=UTF-8' })
        .end(JSON.stringify(body));
    try {
      if (url.pathname === '/v1/services/6F81-5844-456A/skus' && method === 'GET') {
        // The Cloud Billing catalog stand-in shares the port (both clients take one endpoint in tests).
        if (world.faults.billingUnavailable)
          throw new GceHttpError(503, 'backendError', 'The service is currently unavailable.');
        return send(200, skusResponse(world.skus, world.region));
      }
      if (world.faults.throttle > 0) {
        world.faults.throttle -= 1;
        throw world.faults.throttleStatus === 403 ? rateLimited403() : rateLimited(world.project);
      }
      for (const w of worlds.values()) settle(w);
      send(200, await route(method, url, text ? (JSON.parse(text) as Record<string, unknown>) : {}));
    } catch (err) {
      const e = err instanceof GceHttpError ? err : new GceHttpError(500, 'backendError', String(err));
      send(e.status, errorBody(e));
    }
  }

  const server: Server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    world,
    worldOf: (project) => {
      const w = worlds.get(project);
      if (!w) throw new Error(`GCE emulator: project ${project} is not served`);
      return w;
    },
    port: (server.address() as AddressInfo).port,
    preempt: (zone, name) => void preempt(world, zone, name),
    close: async () => {
      for (const t of timers) clearTimeout(t);
      await closeServer(server);
    },
  };
}
