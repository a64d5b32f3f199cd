// An HTTP proxy on 127.0.0.1 (port 0) in front of a local DynamoDB that injects faults by operation:
// apply the request but withhold the response (the client times out and retries), or answer with an error.
import { createServer, request } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault =
  /** Forward the request (the server applies it), then never answer: the client's request timeout fires. */
  | { readonly kind: 'withhold-response' }
  /** Answer without forwarding, as DynamoDB does for throttling and validation errors. */
  | { readonly kind: 'error'; readonly status: number; readonly type: string; readonly message?: string };

interface Rule {
  readonly operation: string;
  readonly fault: Fault;
  remaining: number;
}

export interface FaultProxy {
  readonly endpoint: string;
  /** Apply `fault` to the next `times` requests of `operation` (e.g. UpdateItem). */
  inject(operation: string, fault: Fault, times?: number): void;
  /** Drops every fault not yet applied. */
  clearFaults(): void;
  /** Operations that reached the proxy, in order, each with the fault applied (if any). */
  readonly log: { operation: string; fault?: Fault['kind'] }[];
  stop(): Promise<void>;
}

export async function startFaultProxy(upstream: string): Promise<FaultProxy> {
  const target = new URL(upstream);
  const rules: Rule[] = [];
  const log: FaultProxy['log'] = [];
  const held = new Set<ServerResponse>();

  const handle = (req: IncomingMessage, res: ServerResponse, body: Buffer): void => {
    const operation =
      String(req.headers['x-amz-target'] ?? '')
        .split('.')
        .pop() ?? '';
    const rule = rules.find((r) => r.operation === operation && r.remaining > 0);
    if (rule) rule.remaining -= 1;
    log.push({ operation, ...(rule ? { fault: rule.fault.kind } : {}) });
    if (rule?.fault.kind === 'error') {
      const payload = JSON.stringify({
        __type: `com.amazonaws.dynamodb.v20120810#${rule.fault.type}`,
        message: rule.fault.message ?? 'injected by the fault proxy',
      });
      res.writeHead(rule.fault.status, {
        'content-type': 'application/x-amz-json-1.0',
        'x-amzn-errortype': rule.fault.type,
      });
      res.end(payload);
      return;
    }
    const upstreamReq = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (upstreamRes) => {
        const chunks: Buffer[] = [];
        upstreamRes.on('data', (c: Buffer) => chunks.push(c));
        upstreamRes.on('end', () => {
          if (rule?.fault.kind === 'withhold-response') {
            held.add(res);
            res.on('close', () => held.delete(res));
            return;
          }
          res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
          res.end(Buffer.concat(chunks));
        });
      },
    );
    upstreamReq.on('error', (error) => {
      res.writeHead(502);
      res.end(String(error));
    });
    upstreamReq.end(body);
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
    log,
    inject: (operation, fault, times = 1) => rules.push({ operation, fault, remaining: times }),
    clearFaults: () => void rules.splice(0),
    stop: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
