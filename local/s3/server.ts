// S3 REST emulator on 127.0.0.1 for `@aws-sdk/client-s3` (forcePathStyle): PutObject, GetObject, DeleteObject on
// buckets created up front, with S3's own error shapes — NoSuchKey / NoSuchBucket as 404 XML (README.md).
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { closeServer, listenLocal } from '../http-server.ts';

export interface S3Object {
  readonly body: Buffer;
  readonly etag: string;
  readonly contentType: string;
  readonly lastModified: Date;
}

export interface S3Emulator {
  readonly endpoint: string;
  /** Objects by bucket, then key. */
  readonly buckets: Map<string, Map<string, S3Object>>;
  /** `<Operation> <bucket>/<key>` per request, in arrival order. */
  readonly calls: string[];
  close(): Promise<void>;
}

const xmlEscape = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** S3's error document (S3 API Reference, "Error responses"). */
function fail(res: ServerResponse, status: number, code: string, message: string, resource: string): void {
  const body =
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${xmlEscape(message)}</Message>` +
    `<Resource>${xmlEscape(resource)}</Resource><RequestId>local</RequestId></Error>`;
  res.writeHead(status, { 'content-type': 'application/xml', 'x-amz-request-id': 'local' }).end(body);
}

function readRaw(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The SDK may send a body with aws-chunked encoding: its chunks' payloads, joined. */
function unchunk(raw: Buffer, req: IncomingMessage): Buffer {
  const enc = String(req.headers['content-encoding'] ?? '');
  if (!enc.includes('aws-chunked')) return raw;
  const parts: Buffer[] = [];
  let at = 0;
  while (at < raw.length) {
    const eol = raw.indexOf('\r\n', at);
    const size = parseInt(raw.subarray(at, eol).toString('latin1').split(';')[0]!, 16);
    if (!size) break;
    parts.push(raw.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

export async function startS3Emulator(buckets: readonly string[]): Promise<S3Emulator> {
  const store = new Map<string, Map<string, S3Object>>(buckets.map((b) => [b, new Map()]));
  const calls: string[] = [];
  const server: Server = createServer((req, res) => void serve(req, res));
  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://local');
    const [, bucket = '', ...rest] = url.pathname.split('/');
    const key = decodeURIComponent(rest.join('/'));
    const raw = await readRaw(req);
    const method = req.method ?? 'GET';
    const op = { PUT: 'PutObject', GET: 'GetObject', HEAD: 'HeadObject', DELETE: 'DeleteObject' }[method];
    calls.push(`${op ?? method} ${bucket}/${key}`);
    const objects = store.get(bucket);
    if (!op || !key)
      return fail(res, 405, 'MethodNotAllowed', 'The specified method is not allowed', url.pathname);
    if (!objects) return fail(res, 404, 'NoSuchBucket', 'The specified bucket does not exist', bucket);
    if (op === 'PutObject') {
      const body = unchunk(raw, req);
      const etag = `"${createHash('md5').update(body).digest('hex')}"`;
      const contentType = String(req.headers['content-type'] ?? 'binary/octet-stream');
      objects.set(key, { body, etag, contentType, lastModified: new Date() });
      return void res.writeHead(200, { etag }).end();
    }
    if (op === 'DeleteObject') {
      objects.delete(key); // S3 answers 204 whether or not the key existed
      return void res.writeHead(204).end();
    }
    const o = objects.get(key);
    if (!o) {
      // HEAD has no body: S3 answers a bare 404 there.
      if (op === 'HeadObject') return void res.writeHead(404).end();
      return fail(res, 404, 'NoSuchKey', 'The specified key does not exist.', `/${bucket}/${key}`);
    }
    res.writeHead(200, {
      etag: o.etag,
      'content-type': o.contentType,
      'content-length': String(o.body.length),
      'last-modified': o.lastModified.toUTCString(),
    });
    res.end(op === 'HeadObject' ? undefined : o.body);
  }
  const port = await listenLocal(server);
  return {
    endpoint: `http://127.0.0.1:${port}`,
    buckets: store,
    calls,
    close: () => closeServer(server),
  };
}
