// Compute Engine list pagination: maxResults 0–500 (500 when absent on the real API; smaller here so a
// reader of one page misses the rest), a pageToken bound to the request it came from, nextPageToken.
import { createHash } from 'node:crypto';
import { GceHttpError } from './resources.ts';

const fingerprint = (url: URL): string => {
  const q = [...url.searchParams].filter(([k]) => k !== 'pageToken' && k !== 'maxResults').sort();
  return createHash('sha256')
    .update(JSON.stringify([url.pathname, q]))
    .digest('hex')
    .slice(0, 16);
};

export function pageOf<T>(
  url: URL,
  items: readonly T[],
  defaultSize: number,
): { readonly page: T[]; readonly nextPageToken?: string } {
  const raw = url.searchParams.get('maxResults');
  const size = raw === null ? defaultSize : Number(raw);
  if (raw !== null && (!Number.isInteger(size) || size < 0 || size > 500))
    throw new GceHttpError(
      400,
      'invalid',
      `Invalid value for field 'maxResults': '${raw}'. Must be less than or equal to 500`,
    );
  const limit = size === 0 ? 500 : size;
  const token = url.searchParams.get('pageToken');
  const offset = token ? offsetOf(token, fingerprint(url)) : 0;
  const page = items.slice(offset, offset + limit);
  if (offset + limit >= items.length) return { page };
  const nextPageToken = Buffer.from(JSON.stringify({ o: offset + limit, f: fingerprint(url) })).toString(
    'base64url',
  );
  return { page, nextPageToken };
}

function offsetOf(token: string, expected: string): number {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as {
      o?: unknown;
      f?: unknown;
    };
    if (Number.isInteger(parsed.o) && parsed.f === expected) return parsed.o as number;
  } catch {
    // not one of ours
  }
  throw new GceHttpError(400, 'invalid', `Invalid value for field 'pageToken': '${token}'`);
}
