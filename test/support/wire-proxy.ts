// One HTTP proxy on 127.0.0.1 (port 0) in front of a local server that decides, request by request, what
// reaches the server and what comes back: the core of the DynamoDB fault proxy and of the crashable container.
// Nothing is mocked: the clients' real SDKs talk to the real server through this socket.
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WireRequest {
  readonly method: string;
  readonly url: string;
  /** DynamoDB's operation (the last part of X-Amz-Target), else '' */
  readonly target: string;
  readonly body: string;
}

export type WireAction =
  /** Forward, and stream the answer back (a watch stays open until the server or the proxy ends it). */
  | { readonly kind: 'forward' }
  /** Forward (the server applies it) and never answer; `applied` runs once the server has answered. */
  | { readonly kind: 'withhold'; readonly applied?: () => void }
  /** Answer at once without forwarding. */
  | {
      readonly kind: 'answer';
      readonly status: number;
      readonly headers: Readonly<Record<string, string>>;
      readonly body: string;
    }
  /** Cut the connection without forwarding: the request never arrives. */
  | { readonly kind: 'cut' };

export interface WireProxy {
  readonly endpoint: string;
  /** Cuts every exchange still open: withheld answers and open streams. */
  cutOpen(): void;
  stop(): Promise<void>;
}

export async function startWireProxy(
  upstream: string,
  decide: (r: WireRequest) => WireAction,
): Promise<WireProxy> {
  const target = new URL(upstream);
  const open = new Set<ServerResponse>();
  const cutOpen = () => {
    for (const res of open) res.destroy();
  };
  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer, action: WireAction) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    const up = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (upRes) => {
        if (action.kind === 'withhold') {
          upRes.resume();
          upRes.on('end', () => action.applied?.());
          return;
        }
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        upRes.pipe(res);
      },
    );
    up.on('error', (error) => (res.headersSent ? res.destroy() : res.writeHead(502).end(String(error))));
    up.end(body);
  };
  const handle = (req: IncomingMessage, res: ServerResponse, body: Buffer): void => {
    const action = decide({
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      target:
        String(req.headers['x-amz-target'] ?? '')
          .split('.')
          .pop() ?? '',
      body: body.toString('utf8'),
    });
    if (action.kind === 'cut') return void res.destroy();
    if (action.kind === 'answer') return void res.writeHead(action.status, action.headers).end(action.body);
    forward(req, res, body, action);
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
    cutOpen,
    stop: () =>
      new Promise<void>((resolve) => {
        cutOpen();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
