// LIST pages as raw JSON over the KubeConfig's own connection settings (agent, TLS, auth headers), the
// way client-node's Watch reads. Why not the typed list calls: their model deserialization measured at
// ~2/3 of a cold ramp-3400 read (bench:state), and zod validates the raw objects anyway.
import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { ApiException, type KubeConfig } from '@kubernetes/client-node';

export interface RawList {
  readonly items?: unknown[];
  readonly metadata?: { readonly resourceVersion?: string; readonly continue?: string };
}

export async function getJson(
  kc: KubeConfig,
  path: string,
  query: Readonly<Record<string, string | number | undefined>>,
): Promise<RawList> {
  const server = kc.getCurrentCluster()?.server;
  if (!server) throw new Error('the KubeConfig has no current cluster');
  const url = new URL(server.replace(/\/+$/, '') + path);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
  const opts: RequestOptions = { method: 'GET', headers: { Accept: 'application/json' } };
  await kc.applyToHTTPSOptions(opts);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const { status, headers, text } = await new Promise<{
    status: number;
    headers: Record<string, string>;
    text: string;
  }>((resolve, reject) => {
    const req = send(url, opts, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers as Record<string, string>,
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
  if (status < 200 || status > 299)
    throw new ApiException(status, `GET ${path}: HTTP ${status}`, text, headers);
  return JSON.parse(text) as RawList;
}
