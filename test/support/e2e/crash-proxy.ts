// A crash at the wire: HTTP proxies in front of the kube emulator, DynamoDB Local and the EC2 emulator that
// belong to one "container". Armed with a trigger, the container dies at that request — after the server
// applied it (the answer is lost) or before it reached the server — and from then on every request of that
// container fails and every open stream is cut, as if its process were gone. Nothing is mocked: the
// container's real SDK clients talk to the real servers through these sockets.
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WireRequest {
  readonly method: string;
  readonly url: string;
  /** DynamoDB's operation (X-Amz-Target), else '' */
  readonly target: string;
  readonly body: string;
}

export interface Trigger {
  /** Which proxy: 'kube', 'dynamodb' or 'ec2'. */
  readonly server: 'kube' | 'dynamodb' | 'ec2';
  readonly matches: (r: WireRequest) => boolean;
  /** The n-th matching request (1 = the first). */
  readonly nth?: number;
  /** 'after': the server applies the request and the answer is lost; 'before': it never arrives. */
  readonly when: 'after' | 'before';
}

export interface CrashableContainer {
  readonly endpoints: { readonly kube: string; readonly dynamodb: string; readonly ec2: string };
  arm(trigger: Trigger): void;
  /** True once the armed trigger fired. */
  readonly crashed: boolean;
  close(): Promise<void>;
}

export async function startCrashableContainer(upstreams: {
  kube: string;
  dynamodb: string;
  ec2: string;
}): Promise<CrashableContainer> {
  let trigger: Trigger | undefined;
  let seen = 0;
  let dead = false;
  const open = new Set<ServerResponse>();
  const die = () => {
    dead = true;
    for (const res of open) res.destroy();
  };
  const fires = (server: Trigger['server'], r: WireRequest): boolean => {
    if (dead || !trigger || trigger.server !== server || !trigger.matches(r)) return false;
    seen += 1;
    return seen === (trigger.nth ?? 1);
  };
  const proxies = await Promise.all(
    (['kube', 'dynamodb', 'ec2'] as const).map((server) =>
      proxy(
        upstreams[server],
        (r) => (dead ? 'refuse' : fires(server, r) ? trigger!.when : 'pass'),
        die,
        open,
      ),
    ),
  );
  const [kube, dynamodb, ec2] = proxies as [Proxy, Proxy, Proxy];
  return {
    endpoints: { kube: kube.endpoint, dynamodb: dynamodb.endpoint, ec2: ec2.endpoint },
    arm: (t) => {
      trigger = t;
      seen = 0;
    },
    get crashed() {
      return dead;
    },
    close: async () => {
      die();
      await Promise.all(proxies.map((p) => p.close()));
    },
  };
}

interface Proxy {
  readonly endpoint: string;
  close(): Promise<void>;
}

type Verdict = 'pass' | 'after' | 'before' | 'refuse';

async function proxy(
  upstream: string,
  judge: (r: WireRequest) => Verdict,
  die: () => void,
  open: Set<ServerResponse>,
): Promise<Proxy> {
  const target = new URL(upstream);
  const handle = (req: IncomingMessage, res: ServerResponse, body: Buffer): void => {
    const wire: WireRequest = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      target:
        String(req.headers['x-amz-target'] ?? '')
          .split('.')
          .pop() ?? '',
      body: body.toString('utf8'),
    };
    const verdict = judge(wire);
    // A dead container's requests go nowhere: 403 is an answer no client retries.
    if (verdict === 'refuse') return void res.writeHead(403, { 'content-type': 'text/plain' }).end('crashed');
    if (verdict === 'before') {
      res.destroy();
      return die();
    }
    open.add(res);
    res.on('close', () => open.delete(res));
    const up = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (upRes) => {
        if (verdict === 'after') {
          upRes.resume();
          upRes.on('end', die); // applied by the server; the answer dies with the container
          return;
        }
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        upRes.pipe(res); // streamed: watches stay open until the container dies
      },
    );
    up.on('error', () => res.destroy());
    up.end(body);
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
