// IAM query-protocol emulator on 127.0.0.1 for `@aws-sdk/client-iam`, unchanged: POST / form-encoded Action=…,
// XML out in IAM's shapes (README.md). Seeded with the roles the caller names.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { parseForm } from '../ec2/query.ts';
import { ACTIONS } from './actions.ts';
import { IamFault } from './faults.ts';
import { IamWorld, type IamPropagation } from './world.ts';
import { errorXml, responseXml } from './xml.ts';
import { closeServer, listenLocal, readBody } from '../http-server.ts';

export interface IamEmulatorOptions {
  /** Roles that exist (node roles a node class names); none otherwise. */
  readonly roles?: readonly string[];
  /** How long a new or changed instance profile stays unusable to EC2 (README.md, "Eventual consistency"). */
  readonly propagation?: IamPropagation;
  /** The world's time (create dates, the propagation lag); the wall clock unless given. */
  readonly now?: () => Date;
}

export interface IamEmulator {
  readonly world: IamWorld;
  readonly endpoint: string;
  close(): Promise<void>;
}

export async function startIamEmulator(options: IamEmulatorOptions = {}): Promise<IamEmulator> {
  const world = new IamWorld(options.now);
  for (const r of options.roles ?? []) world.addRole(r);
  if (options.propagation) world.propagation = options.propagation;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const params = parseForm(await readBody(req));
    const action = params.get('Action') ?? '';
    const requestId = world.nextId('req-').toLowerCase();
    world.calls.push(action);
    world.requests.push({ action, params });
    try {
      const failure = world.faults.failNext[action];
      if (failure) {
        delete world.faults.failNext[action];
        throw new IamFault(failure.code, failure.message, failure.status);
      }
      const handler = ACTIONS[action];
      if (!handler)
        throw new IamFault('InvalidAction', `Could not find operation ${action} for version 2010-05-08`);
      const out = handler(world, params);
      res.writeHead(200, { 'content-type': 'text/xml' }).end(responseXml(action, requestId, out));
    } catch (err) {
      const fault = err instanceof IamFault ? err : new IamFault('ServiceFailure', String(err), 500);
      res
        .writeHead(fault.status, { 'content-type': 'text/xml' })
        .end(errorXml(fault.code, fault.message, requestId));
    }
  }

  const server: Server = createServer((req, res) => void handle(req, res));
  const port = await listenLocal(server);
  return {
    world,
    endpoint: `http://127.0.0.1:${port}`,
    close: async () => {
      await closeServer(server);
    },
  };
}
