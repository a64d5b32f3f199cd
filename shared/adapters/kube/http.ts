// Every request to the API server is bounded in time and in size: a server (or a proxy in front of it)
// that never answers, or answers without end, fails the call with a typed error instead of hanging a
// pass or filling the heap. Used for the raw LIST pages and, as client-node's HttpLibrary, for every
// typed call; watches are bounded by their own timer (catchup.ts) and a cap on each event line (watch-stream.ts).
import { request as httpRequest, type Agent, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import {
  ResponseContext,
  type HttpLibrary,
  type RequestContext,
  wrapHttpLibrary,
} from '@kubernetes/client-node';
import { ClusterError } from '../../ports/cluster/errors.ts';

export interface RequestLimits {
  /** Whole request, connect to last byte (ms). */
  readonly timeoutMs: number;
  /** Largest response body accepted (bytes); a LIST page of 500 pods is a few MB. */
  readonly maxResponseBytes: number;
  /** Largest watch event line accepted (bytes); DEFAULT_MAX_WATCH_EVENT_BYTES (watch-stream.ts) when absent. */
  readonly maxWatchEventBytes?: number;
}
export const DEFAULT_LIMITS: RequestLimits = { timeoutMs: 30_000, maxResponseBytes: 64 * 1024 * 1024 };

/** The API server did not answer within the time limit. */
export class RequestTimeoutError extends ClusterError {
  override readonly name = 'RequestTimeoutError';
  constructor(what: string, timeoutMs: number) {
    super(`${what}: no complete answer within ${timeoutMs} ms`, 0, undefined);
  }
}

/** The answer was larger than the size limit (it is cut off, not read into memory). */
export class ResponseTooLargeError extends ClusterError {
  override readonly name = 'ResponseTooLargeError';
  constructor(what: string, maxBytes: number) {
    super(`${what}: the answer exceeds ${maxBytes} bytes`, 0, undefined);
  }
}

export interface BoundedResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

/** `options` are node's request options as the KubeConfig fills them (headers, agent, TLS material). */
export function sendBounded(
  url: URL,
  options: RequestOptions & { readonly body?: string | Buffer },
  limits: RequestLimits,
): Promise<BoundedResponse> {
  const { body, ...init } = options;
  const what = `${init.method ?? 'GET'} ${url.pathname}`;
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, init);
    const timer = setTimeout(
      () => req.destroy(new RequestTimeoutError(what, limits.timeoutMs)),
      limits.timeoutMs,
    );
    const fail = (err: unknown): void => {
      clearTimeout(timer);
      reject(err);
    };
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > limits.maxResponseBytes)
          req.destroy(new ResponseTooLargeError(what, limits.maxResponseBytes));
        else chunks.push(c);
      });
      res.on('end', () => {
        clearTimeout(timer);
        resolve({
          status: res.statusCode ?? 0,
          headers: Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, String(v)])),
          body: Buffer.concat(chunks),
        });
      });
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end(body);
  });
}

/** client-node's HttpLibrary over sendBounded, so typed calls get the same limits as LIST pages. */
export function boundedHttpLibrary(limits: RequestLimits): HttpLibrary {
  return wrapHttpLibrary({
    async send(request: RequestContext): Promise<ResponseContext> {
      const body = request.getBody();
      if (body !== undefined && typeof body !== 'string' && !Buffer.isBuffer(body))
        throw new Error(`${request.getHttpMethod()} ${request.getUrl()}: unsupported request body type`);
      const res = await sendBounded(
        new URL(request.getUrl()),
        {
          method: String(request.getHttpMethod()),
          // A body goes with its length: node would otherwise chunk a DELETE's body, which servers refuse.
          headers: {
            ...request.getHeaders(),
            ...(body !== undefined ? { 'Content-Length': String(Buffer.byteLength(body)) } : {}),
          },
          ...(body !== undefined ? { body } : {}),
          ...(request.getAgent() ? { agent: request.getAgent() as Agent } : {}),
        },
        limits,
      );
      return new ResponseContext(res.status, res.headers, {
        text: async () => res.body.toString('utf8'),
        binary: async () => res.body,
      });
    },
  });
}
