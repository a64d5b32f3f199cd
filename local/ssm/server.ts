// SSM (Systems Manager Parameter Store) JSON 1.1 emulator on 127.0.0.1 for `@aws-sdk/client-ssm`, unchanged:
// GetParameter and GetParameters over the public parameters Karpenter's image aliases read (README.md).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { publicImageParameters } from './seed.ts';
import { SsmWorld, type SsmParameter } from './world.ts';
import { closeServer, listenLocal, readBody } from '../http-server.ts';

export interface SsmEmulatorOptions {
  readonly region?: string;
  /** Seed the public image parameters (seed.ts); on unless false. */
  readonly seedPublicImages?: boolean;
  readonly now?: () => Date;
}

export interface SsmEmulator {
  readonly world: SsmWorld;
  readonly endpoint: string;
  close(): Promise<void>;
}

class SsmFault extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

const shape = (world: SsmWorld, p: SsmParameter) => ({
  Name: p.name,
  Type: 'String',
  Value: p.value,
  Version: p.version,
  LastModifiedDate: p.lastModified.getTime() / 1000,
  ARN: world.arnOf(p.name),
  DataType: 'aws:ec2:image',
});

/** SSM API Reference: a name is 1–2048 characters; GetParameters takes 1–10 names. */
function names(body: Record<string, unknown>): string[] {
  const list = body.Names;
  if (!Array.isArray(list) || list.length < 1 || list.length > 10 || list.some((n) => typeof n !== 'string'))
    throw new SsmFault(
      'ValidationException',
      `1 validation error detected: Value at 'names' failed to satisfy constraint: Member must have length less than or equal to 10`,
    );
  return list as string[];
}

function handle(world: SsmWorld, action: string, body: Record<string, unknown>): unknown {
  if (action === 'GetParameter') {
    const name = body.Name;
    if (typeof name !== 'string' || name.length < 1 || name.length > 2048)
      throw new SsmFault(
        'ValidationException',
        `1 validation error detected: Value at 'name' failed to satisfy constraint`,
      );
    const p = world.parameters.get(name);
    // SSM answers a missing parameter with ParameterNotFound and no message.
    if (!p) throw new SsmFault('ParameterNotFound', '');
    return { Parameter: shape(world, p) };
  }
  if (action === 'GetParameters') {
    const asked = names(body);
    const found = asked.map((n) => world.parameters.get(n)).filter((p): p is SsmParameter => p !== undefined);
    return {
      Parameters: found.map((p) => shape(world, p)),
      InvalidParameters: asked.filter((n) => !world.parameters.has(n)),
    };
  }
  throw new SsmFault('UnknownOperationException', `Unknown operation ${action}`);
}

export async function startSsmEmulator(options: SsmEmulatorOptions = {}): Promise<SsmEmulator> {
  const world = new SsmWorld(options.region ?? 'us-east-1', options.now);
  if (options.seedPublicImages !== false)
    for (const [name, value] of publicImageParameters().parameters) world.put(name, value);
  const server: Server = createServer((req, res) => void serve(req, res));
  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const target = String(req.headers['x-amz-target'] ?? '');
    const action = target.split('.').pop() ?? '';
    world.calls.push(action);
    let status = 200;
    let out: unknown;
    try {
      const failure = world.faults.failNext[action];
      if (failure) {
        delete world.faults.failNext[action];
        throw new SsmFault(failure.type, failure.message, failure.status);
      }
      out = handle(world, action, raw ? (JSON.parse(raw) as Record<string, unknown>) : {});
    } catch (err) {
      const fault = err instanceof SsmFault ? err : new SsmFault('InternalServerError', String(err), 500);
      status = fault.status;
      out = { __type: fault.type, ...(fault.message ? { message: fault.message } : {}) };
    }
    res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' }).end(JSON.stringify(out));
  }
  const port = await listenLocal(server);
  return {
    world,
    endpoint: `http://127.0.0.1:${port}`,
    close: async () => {
      await closeServer(server);
    },
  };
}
