// A strict, minimal SQS emulator on 127.0.0.1 speaking SQS's JSON protocol (AwsJson1_0: POST, X-Amz-Target
// AmazonSQS.<Operation>, application/x-amz-json-1.0) for the calls the interruption-queue tests make with the
// real @aws-sdk/client-sqs. Time is the caller's clock, so visibility timeouts and retention run in test time.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SqsError, invalidParameter } from './errors.ts';
import { INPUTS, SqsService, type Operation } from './operations.ts';
import type { EmuQueue } from './queue.ts';

const CONTENT_TYPE = 'application/x-amz-json-1.0';

export interface SqsEmulator {
  readonly endpoint: string;
  readonly region: string;
  /** Queues by name, to read their state in assertions. */
  readonly queues: ReadonlyMap<string, EmuQueue>;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': CONTENT_TYPE,
    'x-amzn-requestid': randomUUID(),
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** One request: the operation from X-Amz-Target, its input checked, the service's answer. */
function dispatch(service: SqsService, req: IncomingMessage, body: string): unknown {
  const target = String(req.headers['x-amz-target'] ?? '');
  const op = /^AmazonSQS\.(\w+)$/.exec(target)?.[1];
  if (req.method !== 'POST' || !String(req.headers['content-type']).startsWith(CONTENT_TYPE))
    throw new SqsError('InvalidAction', 'InvalidAction', `expected POST ${CONTENT_TYPE}, got ${req.method}`);
  if (!op || !(op in INPUTS))
    throw new SqsError(
      'UnsupportedOperation',
      'AWS.SimpleQueueService.UnsupportedOperation',
      `the emulator does not implement ${target || 'a request without X-Amz-Target'}`,
    );
  let raw: unknown;
  try {
    raw = JSON.parse(body || '{}');
  } catch {
    throw invalidParameter(`${op}: the body is not JSON`);
  }
  const parsed = INPUTS[op as Operation].safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(input)'}: ${i.message}`);
    throw invalidParameter(`${op}: ${issues.join('; ')}`);
  }
  return (service[op as Operation] as (input: unknown) => unknown).call(service, parsed.data);
}

export function startSqsEmulator(opts: { now: () => number; region?: string }): Promise<SqsEmulator> {
  let base = '';
  const service = new SqsService(() => base, opts.region ?? 'us-east-1', opts.now);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        send(res, 200, dispatch(service, req, Buffer.concat(chunks).toString('utf8')));
      } catch (err: unknown) {
        const e =
          err instanceof SqsError ? err : new SqsError('InternalError', 'InternalError', String(err), 500);
        res.setHeader('x-amzn-query-error', `${e.queryCode};${e.status >= 500 ? 'Receiver' : 'Sender'}`);
        send(res, e.status, { __type: `com.amazonaws.sqs#${e.type}`, message: e.message });
      }
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const close = () =>
        new Promise<void>((r) => {
          server.closeAllConnections();
          server.close(() => r());
        });
      resolve({ endpoint: base, region: service.region, queues: service.queues, close });
    });
  });
}
