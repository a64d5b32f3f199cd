// EC2 query-protocol emulator on 127.0.0.1: POST / form-encoded Action=…, XML out; the Pricing API's
// GetProducts (JSON 1.1) on the same port. Boots instances after a delay and reports them through onBoot.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { ACTIONS } from './actions.ts';
import { rebalanceRecommendation, spotInterruptionWarning, stateChange, type Ec2Event } from './events.ts';
import { Ec2Fault } from './faults.ts';
import { createFleet } from './fleet.ts';
import { getProducts } from './pricing.ts';
import { listOf, parseForm } from './query.ts';
import { seedWorld } from './seed.ts';
import { Ec2World, type BootedInstance, type EmuInstance } from './world.ts';
import { errorXml, responseXml } from './xml.ts';
import { closeServer, listenLocal, readBody } from '../http-server.ts';

export interface Ec2EmulatorOptions {
  readonly region?: string;
  readonly zones?: readonly string[];
  /** How long an instance stays pending before it boots (ms); 0 boots on the next tick. */
  readonly bootDelayMs?: number;
  /** How long a terminated instance stays `shutting-down` (ms); 0 terminates it on the next tick. */
  readonly terminateDelayMs?: number;
  /** Items per page of a Describe call that sends no MaxResults (default 4). */
  readonly pageSize?: number;
  /** Called when an instance boots: the Kubernetes emulator registers its Node here. */
  readonly onBoot?: (instance: BootedInstance) => void | Promise<void>;
  /** The world's time (launch times, events); the wall clock unless given. */
  readonly now?: () => Date;
  /**
   * Runs `fn` after `ms` (boots, terminations, interruption notices); a wall-clock timer unless given (the local
   * fleet runs them on its simulated clock, docs/fleet.md "Time"). Fault delays (`faults.delayMs`) stay on the wall clock.
   */
  readonly later?: (ms: number, fn: () => void) => void;
  /** EventBridge events (interruption warnings, rebalance recommendations, state changes). */
  readonly onEvent?: (event: Ec2Event) => void;
}

export interface Ec2Emulator {
  readonly world: Ec2World;
  readonly endpoint: string;
  /** Sends a spot interruption warning, then terminates the instance after `afterMs`. */
  interruptSpot(instanceId: string, afterMs?: number): void;
  recommendRebalance(instanceId: string): void;
  close(): Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function startEc2Emulator(options: Ec2EmulatorOptions = {}): Promise<Ec2Emulator> {
  const region = options.region ?? 'us-east-1';
  const world = new Ec2World(region, options.now);
  seedWorld(world, options.zones ?? [`${region}a`, `${region}b`, `${region}c`]);
  if (options.pageSize !== undefined) world.pageSize = options.pageSize;
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, fn: () => void): void => {
    if (options.later) return options.later(ms, fn);
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };
  const emit = (e: Ec2Event): void => options.onEvent?.(e);
  const boot = (i: EmuInstance): void =>
    later(options.bootDelayMs ?? 0, () => {
      if (i.state !== 'pending') return;
      i.state = 'running';
      emit(stateChange(world, i));
      const userData = i.userData ? Buffer.from(i.userData, 'base64').toString('utf8') : '';
      void options.onBoot?.({
        providerId: `aws:///${i.zone}/${i.instanceId}`,
        instanceId: i.instanceId,
        instanceType: i.instanceType,
        zone: i.zone,
        capacityType: i.lifecycle,
        imageId: i.imageId,
        tags: { ...i.tags },
        userData,
      });
    });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const target = req.headers['x-amz-target'];
    if (typeof target === 'string') world.calls.push(target.split('.').pop() ?? target);
    if (typeof target === 'string' && world.faults.pricingUnavailable)
      return json(res, {
        status: 503,
        body: { __type: 'ServiceUnavailableException', message: 'Pricing is unavailable' },
      });
    if (typeof target === 'string')
      return json(
        res,
        target === 'AWSPriceListService.GetProducts'
          ? getProducts(world, JSON.parse(body || '{}'))
          : { status: 400, body: { __type: 'UnknownOperationException', message: target } },
      );
    const params = parseForm(body);
    const action = params.get('Action') ?? '';
    const requestId = world.nextId('req');
    world.calls.push(action);
    world.requests.push({ action, params });
    try {
      await sleep(world.faults.delayMs[action] ?? 0);
      const failure = world.faults.failNext[action];
      if (failure?.after) failure.after -= 1;
      else if (failure) {
        delete world.faults.failNext[action];
        throw new Ec2Fault(failure.code, failure.message, failure.status);
      }
      const throttle = world.faults.throttle;
      if (throttle.remaining > 0 && (!throttle.action || throttle.action === action)) {
        throttle.remaining -= 1;
        throw new Ec2Fault('RequestLimitExceeded', 'Request limit exceeded.', 503);
      }
      const out =
        action === 'CreateFleet' ? createFleet(world, params, boot) : ACTIONS[action]?.(world, params);
      if (!out)
        throw new Ec2Fault('InvalidAction', `The action ${action} is not valid for this web service.`);
      if (action === 'TerminateInstances')
        for (const id of listOf(params, 'InstanceId')) {
          const i = world.instances.get(id) as EmuInstance;
          emit(stateChange(world, i));
          later(options.terminateDelayMs ?? 0, () => {
            if (i.state !== 'shutting-down') return;
            world.finishTermination(i);
            emit(stateChange(world, i));
          });
        }
      world.ageUnseen(action);
      res
        .writeHead(200, { 'content-type': 'text/xml;charset=UTF-8' })
        .end(responseXml(action, requestId, out));
    } catch (err) {
      world.ageUnseen(action);
      const fault = err instanceof Ec2Fault ? err : new Ec2Fault('InternalError', String(err), 500);
      res
        .writeHead(fault.status, { 'content-type': 'text/xml;charset=UTF-8' })
        .end(errorXml(fault.code, fault.message, requestId));
    }
  }

  const server: Server = createServer((req, res) => void handle(req, res));
  const port = await listenLocal(server);
  const find = (id: string): EmuInstance => {
    const i = world.instances.get(id);
    if (!i) throw new Error(`EC2 emulator: no instance ${id}`);
    return i;
  };
  return {
    world,
    endpoint: `http://127.0.0.1:${port}`,
    interruptSpot(id, afterMs = 0) {
      const i = find(id);
      emit(spotInterruptionWarning(world, i));
      later(afterMs, () => {
        if (i.state === 'terminated') return;
        i.state = 'terminated';
        emit(stateChange(world, i));
      });
    },
    recommendRebalance(id) {
      emit(rebalanceRecommendation(world, find(id)));
    },
    close: async () => {
      for (const t of timers) clearTimeout(t);
      await closeServer(server);
    },
  };
}

function json(res: ServerResponse, reply: { status: number; body: unknown }): void {
  const type = (reply.body as { __type?: string }).__type;
  res
    .writeHead(reply.status, {
      'content-type': 'application/x-amz-json-1.1',
      ...(type ? { 'x-amzn-errortype': type } : {}),
    })
    .end(JSON.stringify(reply.body));
}
