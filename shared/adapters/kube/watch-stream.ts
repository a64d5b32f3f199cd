// One WATCH request over the KubeConfig's own connection settings, read as newline-delimited JSON with a cap
// on each event line. client-node's Watch reads lines through node:readline, which buffers a line without
// limit and silently drops one that is not JSON; a server or proxy that streams one endless line would fill
// the heap, and a dropped DELETED event would leave a node that is gone in the snapshot. Here either is a
// typed error, and the snapshot reader re-lists the kind (snapshot.ts).
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { ApiException, type KubeConfig } from '@kubernetes/client-node';
import { ClusterError } from '../../ports/cluster/errors.ts';

/**
 * kube-apiserver refuses request bodies above 3 MiB and etcd objects above 1.5 MiB, so one event's JSON stays
 * far below this; a longer line is not an event the API server sent.
 */
export const DEFAULT_MAX_WATCH_EVENT_BYTES = 16 * 1024 * 1024;
/** Bytes of a non-200 answer read for its Status message. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** A watch event line longer than the cap: the stream is cut off, never buffered. */
export class WatchEventTooLargeError extends ClusterError {
  override readonly name = 'WatchEventTooLargeError';
  constructor(what: string, maxBytes: number) {
    super(`${what}: an event line exceeds ${maxBytes} bytes`, 0, undefined);
  }
}

/** A watch event line that is not a JSON object with a string `type`. */
export class MalformedWatchEventError extends ClusterError {
  override readonly name = 'MalformedWatchEventError';
  constructor(what: string, detail: string, options?: { cause?: unknown }) {
    super(`${what}: malformed watch event: ${detail}`, 200, undefined, options);
  }
}

export interface WatchStream {
  /** `what` names the resource in errors (e.g. "watch /api/v1/nodes (Node)"). */
  readonly what: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string | number | boolean | undefined>>;
  readonly maxEventBytes: number;
  onEvent(type: string, object: unknown): void;
  /** Called once: without an error when the server ended the stream. */
  onDone(err?: unknown): void;
}

/** Starts the watch; the returned function ends it (onDone is not called for an abort). */
export async function openWatch(kc: KubeConfig, w: WatchStream): Promise<() => void> {
  const server = kc.getCurrentCluster()?.server;
  if (!server) throw new Error('the KubeConfig has no current cluster');
  const url = new URL(server.replace(/\/+$/, '') + w.path);
  url.searchParams.set('watch', 'true');
  for (const [k, v] of Object.entries(w.query)) if (v !== undefined) url.searchParams.set(k, String(v));
  const opts: RequestOptions = { method: 'GET', headers: { Accept: 'application/json' } };
  await kc.applyToHTTPSOptions(opts);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const req = send(url, opts);
  let done = false;
  const finish = (err?: unknown): void => {
    if (done) return;
    done = true;
    req.destroy();
    w.onDone(err);
  };
  req.on('response', (res) => {
    if (res.statusCode === 200) readLines(res, w, finish);
    else readError(res, w.what, finish);
  });
  req.on('error', (err) => finish(err));
  req.end();
  return () => {
    done = true;
    req.destroy();
  };
}

/** Splits the body at newlines, holding at most `maxEventBytes` of an unfinished line. */
function readLines(res: IncomingMessage, w: WatchStream, finish: (err?: unknown) => void): void {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  res.on('data', (chunk: Buffer) => {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      const line = Buffer.concat([...pending, chunk.subarray(start, nl)]);
      pending = [];
      pendingBytes = 0;
      start = nl + 1;
      if (line.length > w.maxEventBytes) return finish(new WatchEventTooLargeError(w.what, w.maxEventBytes));
      const err = deliver(line, w);
      if (err) return finish(err);
    }
    const rest = chunk.subarray(start);
    pendingBytes += rest.length;
    if (pendingBytes > w.maxEventBytes) return finish(new WatchEventTooLargeError(w.what, w.maxEventBytes));
    if (rest.length > 0) pending.push(rest);
  });
  res.on('end', () => {
    const err = pendingBytes > 0 ? deliver(Buffer.concat(pending), w) : undefined;
    finish(err);
  });
  res.on('error', (err) => finish(err));
}

function deliver(line: Buffer, w: WatchStream): Error | undefined {
  const text = line.toString('utf8').trim();
  if (text === '') return undefined;
  let event: unknown;
  try {
    event = JSON.parse(text);
  } catch (cause) {
    return new MalformedWatchEventError(w.what, `not JSON (${text.length} characters)`, { cause });
  }
  const e = event as { type?: unknown; object?: unknown } | null;
  if (typeof e !== 'object' || e === null || typeof e.type !== 'string')
    return new MalformedWatchEventError(w.what, 'no event type');
  w.onEvent(e.type, e.object);
  return undefined;
}

/** A refused watch (410 Gone, 403, ...) as the ApiException the typed calls throw, Status body and all. */
function readError(res: IncomingMessage, what: string, finish: (err?: unknown) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  res.on('data', (c: Buffer) => {
    if (size < MAX_ERROR_BODY_BYTES) chunks.push(c);
    size += c.length;
  });
  res.on('end', () => {
    const body = Buffer.concat(chunks).subarray(0, MAX_ERROR_BODY_BYTES).toString('utf8');
    const code = res.statusCode ?? 0;
    const headers = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, String(v)]));
    finish(new ApiException(code, `${what}: HTTP ${code}`, body, headers));
  });
  res.on('error', (err) => finish(err));
}
