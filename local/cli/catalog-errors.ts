// Why `kraftsman catalog` could not read the account, as one line naming what (exit 2): no credentials, access
// denied (with the API call), an unreachable or unknown region; anything else keeps the cloud's own words.
import type { Cloud } from '../../shared/model/labels.ts';
import { InputError } from './errors.ts';

const DENIED = new Set([
  'UnauthorizedOperation',
  'AccessDenied',
  'AccessDeniedException',
  'AuthFailure',
  'UnrecognizedClientException',
  'InvalidClientTokenId',
  'SignatureDoesNotMatch',
  'PERMISSION_DENIED',
]);

interface Found {
  readonly name: string;
  readonly code: string;
  readonly status?: number;
  readonly message: string;
}

/** The innermost error of a cause chain that says something (adapters wrap the SDK's error). */
function causes(e: unknown): Found[] {
  const out: Found[] = [];
  for (let c: unknown = e, depth = 0; c && depth < 6; depth++) {
    if (typeof c !== 'object') break;
    const o = c as {
      name?: unknown;
      code?: unknown;
      Code?: unknown;
      message?: unknown;
      cause?: unknown;
      $metadata?: { httpStatusCode?: number };
      status?: unknown;
    };
    out.push({
      name: String(o.name ?? ''),
      code: String(o.Code ?? o.code ?? ''),
      ...(typeof o.$metadata?.httpStatusCode === 'number'
        ? { status: o.$metadata.httpStatusCode }
        : typeof o.status === 'number'
          ? { status: o.status }
          : {}),
      message: String(o.message ?? ''),
    });
    c = o.cause;
  }
  return out;
}

export function accountError(e: unknown, cloud: Cloud, region: string): InputError {
  const chain = causes(e);
  const where = `${cloud === 'aws' ? 'AWS' : 'Google Cloud'} region ${region}`;
  const call = /^(aws|gcp) (\S+) failed/.exec(chain[0]?.message ?? '')?.[2];
  const last = chain[chain.length - 1];
  const detail = last ? `${last.name || last.code}: ${last.message}` : String(e);
  if (
    chain.some(
      (c) =>
        c.name === 'CredentialsProviderError' || /could not load (the )?default credentials/i.test(c.message),
    )
  )
    return new InputError(
      `no ${cloud === 'aws' ? 'AWS' : 'Google Cloud'} credentials found (${detail}); ${
        cloud === 'aws'
          ? 'set AWS_PROFILE or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY'
          : 'run gcloud auth application-default login or set GOOGLE_APPLICATION_CREDENTIALS'
      }`,
      { cause: e },
    );
  // Google's REST errors carry the HTTP status as `code` (403, 404); gRPC-style ones the status name or number
  if (call === 'regions.get' && chain.some((c) => c.code === '404' || c.code === '5' || c.status === 404))
    return new InputError(`unknown ${where}: ${detail}`, { cause: e });
  const denied = (c: Found) =>
    DENIED.has(c.name) ||
    DENIED.has(c.code) ||
    ['401', '403', '7', '16'].includes(c.code) ||
    c.status === 403 ||
    c.status === 401;
  if (chain.some(denied))
    return new InputError(`access denied${call ? ` to ${call}` : ''} in ${where}: ${detail}`, { cause: e });
  if (
    chain.some(
      (c) =>
        c.code === 'ENOTFOUND' || c.code === 'ECONNREFUSED' || /getaddrinfo|ECONNREFUSED/.test(c.message),
    )
  )
    return new InputError(`cannot reach ${where} (an unknown region, or no network): ${detail}`, {
      cause: e,
    });
  return new InputError(`reading ${where} failed${call ? ` in ${call}` : ''}: ${detail}`, { cause: e });
}
