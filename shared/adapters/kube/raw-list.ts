// LIST pages as raw JSON over the KubeConfig's own connection settings (agent, TLS, auth headers), the
// way client-node's Watch reads. Why not the typed list calls: their model deserialization measured at
// ~2/3 of a cold ramp-3400 read (bench:state), and zod validates the raw objects anyway.
// A page is checked before it is believed: a 200 without `items` (a proxy's empty answer) is an error,
// not an empty list — nodes would look empty and could be consolidated away.
import { ApiException, type KubeConfig } from '@kubernetes/client-node';
import type { RequestOptions } from 'node:http';
import { z } from 'zod';
import { ClusterError } from '../../ports/cluster/errors.ts';
import { formatZodIssues } from '../../model/zod-issues.ts';
import { DEFAULT_LIMITS, sendBounded, type RequestLimits } from './http.ts';

const rawListSchema = z.object({
  items: z.array(z.unknown()),
  metadata: z.object({
    resourceVersion: z.string().min(1),
    continue: z.string().optional(),
  }),
});
export type RawList = z.infer<typeof rawListSchema>;

/** A 2xx answer that is not what the API server sends (not JSON, no items, no resourceVersion). */
export class MalformedResponseError extends ClusterError {
  override readonly name = 'MalformedResponseError';
  constructor(path: string, detail: string, options?: { cause?: unknown }) {
    super(`GET ${path}: malformed list answer: ${detail}`, 200, undefined, options);
  }
}

export async function getJson(
  kc: KubeConfig,
  path: string,
  query: Readonly<Record<string, string | number | undefined>>,
  limits: RequestLimits = DEFAULT_LIMITS,
): Promise<RawList> {
  const server = kc.getCurrentCluster()?.server;
  if (!server) throw new Error('the KubeConfig has no current cluster');
  const url = new URL(server.replace(/\/+$/, '') + path);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
  const opts: RequestOptions = { method: 'GET', headers: { Accept: 'application/json' } };
  await kc.applyToHTTPSOptions(opts);
  const res = await sendBounded(url, opts, limits);
  const text = res.body.toString('utf8');
  if (res.status < 200 || res.status > 299)
    throw new ApiException(res.status, `GET ${path}: HTTP ${res.status}`, text, res.headers);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new MalformedResponseError(path, `not JSON (${text.length} characters)`, { cause: err });
  }
  const parsed = rawListSchema.safeParse(json);
  if (!parsed.success)
    throw new MalformedResponseError(path, formatZodIssues(parsed.error), { cause: parsed.error });
  return parsed.data;
}
