// EC2 errors translated into the CloudProvider error contract, classified by the error's name/code
// along its `cause` chain (SDK errors carry the EC2 code as `name`; fleet errors carry `errorCode`).
import {
  FatalCloudError,
  InstanceNotFoundError,
  RetryableCloudError,
} from '../../ports/cloud-provider/errors.ts';

/** Codes Karpenter's AWS provider treats as "no capacity for this offering" (unfulfillable capacity). */
export const CAPACITY_CODES: ReadonlySet<string> = new Set([
  'InsufficientInstanceCapacity',
  'InsufficientCapacity',
  'InsufficientHostCapacity',
  'InsufficientReservedInstanceCapacity',
  'InsufficientFreeAddressesInSubnet',
  'MaxSpotInstanceCountExceeded',
  'ReservationCapacityExceeded',
  'SpotMaxPriceTooLow',
  'UnfulfillableCapacity',
  'VcpuLimitExceeded',
]);

/** Throttling and transient server-side failures: retried with backoff, then surfaced as retryable. */
export const THROTTLING_CODES: ReadonlySet<string> = new Set([
  'RequestLimitExceeded',
  'Throttling',
  'ThrottlingException',
  'RequestThrottled',
  'TooManyRequestsException',
  'ServiceUnavailable',
  'ServiceUnavailableException',
  'Unavailable',
  'InternalError',
  'InternalFailure',
  'TimeoutError',
  'ECONNRESET',
  'ECONNREFUSED',
]);

export const NOT_FOUND_CODES: ReadonlySet<string> = new Set([
  'InvalidInstanceID.NotFound',
  'InvalidInstanceID.Malformed',
]);

export type Ec2ErrorKind = 'capacity' | 'throttled' | 'not-found' | 'fatal';

function codesAlong(err: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = err;
  for (let depth = 0; current && typeof current === 'object' && depth < 10; depth++) {
    const e = current as {
      name?: unknown;
      code?: unknown;
      Code?: unknown;
      errno?: unknown;
      $metadata?: { httpStatusCode?: number };
    };
    for (const c of [e.Code, e.code, e.name]) if (typeof c === 'string') codes.push(c);
    if ((e.$metadata?.httpStatusCode ?? 0) >= 500) codes.push('InternalError');
    current = (current as { cause?: unknown }).cause;
  }
  return codes;
}

export function classifyCode(code: string): Ec2ErrorKind {
  if (CAPACITY_CODES.has(code)) return 'capacity';
  if (THROTTLING_CODES.has(code)) return 'throttled';
  if (NOT_FOUND_CODES.has(code)) return 'not-found';
  return 'fatal';
}

/** The most specific kind found anywhere along the cause chain. */
export function classifyEc2Error(err: unknown): Ec2ErrorKind {
  const kinds = codesAlong(err).map(classifyCode);
  return (['capacity', 'not-found', 'throttled'] as const).find((k) => kinds.includes(k)) ?? 'fatal';
}

/** Translates an SDK failure of `what` (e.g. "DescribeSubnets") into a contract error. */
export function toCloudError(err: unknown, what: string): Error {
  const kind = classifyEc2Error(err);
  const message = `EC2 ${what} failed: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`;
  if (kind === 'not-found') return new InstanceNotFoundError(message, undefined, { cause: err });
  if (kind === 'throttled') return new RetryableCloudError(message, { cause: err });
  return new FatalCloudError(message, { cause: err });
}

/** A node class that cannot be launched as configured (no image, no subnet, no security group). */
export class NodeClassResolutionError extends Error {
  override name = 'NodeClassResolutionError' as const;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
