// Compute Engine errors translated into the CloudProvider error contract. HTTP errors (GaxiosError /
// GoogleError) carry the status and the API's `reason`s; operation errors carry codes such as
// ZONE_RESOURCE_POOL_EXHAUSTED. Both are read along the `cause` chain.
import {
  FatalCloudError,
  InstanceNotFoundError,
  RetryableCloudError,
} from '../../ports/cloud-provider/errors.ts';

/**
 * Stockouts: this offering has no capacity now (the caller records it with a TTL and tries the next).
 * Not `RESOURCE_EXHAUSTED`: that is the google.rpc status of a 429 rate limit, which is throttling.
 * `MACHINE_TYPE_UNSUPPORTED` (the zone does not offer the machine type) is an unavailable offering too, as
 * Karpenter's GCP provider reads it: the same type in another zone, or another type, may well launch.
 */
export const CAPACITY_CODES: ReadonlySet<string> = new Set([
  'ZONE_RESOURCE_POOL_EXHAUSTED',
  'ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS',
  'RESOURCE_POOL_EXHAUSTED',
  'STOCKOUT',
  'INSUFFICIENT_CAPACITY',
  'MACHINE_TYPE_UNSUPPORTED',
  // The subnetwork has no address left for the instance: EC2's InsufficientFreeAddressesInSubnet, which
  // Karpenter's AWS provider counts as unfulfillable capacity (another zone's subnetwork may have room).
  'IP_SPACE_EXHAUSTED',
  'IP_SPACE_EXHAUSTED_WITH_DETAILS',
]);
/**
 * A resource quota of the project (CPUs, GPUs of a model in a region): 403 `quotaExceeded`, or an
 * operation error `QUOTA_EXCEEDED`. Karpenter's AWS provider treats EC2's quota codes (VcpuLimitExceeded,
 * MaxSpotInstanceCountExceeded) as unfulfillable capacity: the offering is marked unavailable for a while
 * and the claim tries the next one (a GPU quota is per model, a spot quota per capacity type, so another
 * offering may launch). A launch does the same with these, recording the quota's code as the reason.
 */
export const QUOTA_CODES: ReadonlySet<string> = new Set(['QUOTA_EXCEEDED', 'quotaExceeded']);
export const THROTTLING_CODES: ReadonlySet<string> = new Set([
  'rateLimitExceeded',
  'RATE_LIMIT_EXCEEDED',
  'userRateLimitExceeded',
  'backendError',
  'internalError',
  'UNAVAILABLE',
  'ECONNRESET',
  'ECONNREFUSED',
  'ETIMEDOUT',
]);
export const NOT_FOUND_CODES: ReadonlySet<string> = new Set(['notFound', 'NOT_FOUND', 'RESOURCE_NOT_FOUND']);
export const ALREADY_EXISTS_CODES: ReadonlySet<string> = new Set([
  'alreadyExists',
  'ALREADY_EXISTS',
  'RESOURCE_ALREADY_EXISTS',
]);

export type GceErrorKind = 'capacity' | 'quota' | 'throttled' | 'not-found' | 'already-exists' | 'fatal';

interface HttpLike {
  code?: unknown;
  status?: unknown;
  reason?: unknown;
  message?: unknown;
  response?: { status?: number; data?: unknown };
  cause?: unknown;
}

function reasonsOf(body: unknown): string[] {
  const error = (body as { error?: { errors?: { reason?: string }[]; status?: string } } | undefined)?.error;
  return [...(error?.errors ?? []).map((e) => e.reason ?? ''), error?.status ?? ''].filter(Boolean);
}

/** Every code, reason and HTTP status along the cause chain. */
export function codesAlong(err: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = err;
  for (let depth = 0; current && typeof current === 'object' && depth < 10; depth++) {
    const e = current as HttpLike;
    for (const c of [e.code, e.status, e.reason, e.response?.status])
      if (typeof c === 'string' || typeof c === 'number') codes.push(String(c));
    codes.push(...reasonsOf(e.response?.data));
    const opCodes = (current as { codes?: unknown }).codes;
    if (Array.isArray(opCodes)) codes.push(...opCodes.map(String));
    if (typeof e.message === 'string' && e.message.startsWith('{')) {
      try {
        codes.push(...reasonsOf(JSON.parse(e.message)));
      } catch {
        // not a JSON body: the message is plain text
      }
    }
    for (const code of [...CAPACITY_CODES, ...QUOTA_CODES])
      if (typeof e.message === 'string' && e.message.includes(code)) codes.push(code);
    current = e.cause;
  }
  return codes;
}

/** The capacity or quota code an unavailable offering is recorded with (the first along the chain). */
export function refusalCode(err: unknown): string | undefined {
  return codesAlong(err).find((c) => CAPACITY_CODES.has(c) || QUOTA_CODES.has(c));
}

export function classifyCode(code: string): GceErrorKind {
  if (CAPACITY_CODES.has(code)) return 'capacity';
  if (QUOTA_CODES.has(code)) return 'quota';
  if (ALREADY_EXISTS_CODES.has(code) || code === '409') return 'already-exists';
  if (NOT_FOUND_CODES.has(code) || code === '404') return 'not-found';
  if (THROTTLING_CODES.has(code) || code === '429' || /^5\d\d$/.test(code)) return 'throttled';
  return 'fatal';
}

export function classifyGceError(err: unknown): GceErrorKind {
  const kinds = codesAlong(err).map(classifyCode);
  return (
    (['capacity', 'quota', 'already-exists', 'not-found', 'throttled'] as const).find((k) =>
      kinds.includes(k),
    ) ?? 'fatal'
  );
}

export function toCloudError(err: unknown, what: string): Error {
  const kind = classifyGceError(err);
  const message = `Compute Engine ${what} failed: ${err instanceof Error ? err.message.slice(0, 500) : String(err)}`;
  if (kind === 'not-found') return new InstanceNotFoundError(message, undefined, { cause: err });
  if (kind === 'throttled') return new RetryableCloudError(message, { cause: err });
  if (kind === 'quota')
    return new FatalCloudError(`${message} (a project quota, not a stockout: raise it or free usage)`, {
      cause: err,
    });
  return new FatalCloudError(message, { cause: err });
}

/** A zonal operation that finished with an error: its codes decide capacity vs fatal. */
export class OperationError extends Error {
  override name = 'OperationError' as const;
  constructor(
    message: string,
    readonly codes: readonly string[],
  ) {
    super(message);
  }
}
