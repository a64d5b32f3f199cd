// JSON shapes the Compute Engine emulator answers with (instances, operations, errors), as the REST
// API writes them: zone and machine type as full URLs, errors as {error:{code,message,errors[]}}.
import type { GceInstance, GceOperation, GceWorld } from './world.ts';

export const BASE = 'https://www.googleapis.com/compute/v1';

export class GceHttpError extends Error {
  override name = 'GceHttpError';
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
    /** The google.rpc fields the API front end adds to some errors (429s): `status` and `details`. */
    readonly rpc?: { readonly status: string; readonly details: readonly unknown[] },
    readonly domain = 'global',
  ) {
    super(message);
  }
}

export function errorBody(e: GceHttpError): unknown {
  return {
    error: {
      code: e.status,
      message: e.message,
      errors: [{ message: e.message, domain: e.domain, reason: e.reason }],
      ...(e.rpc ? { status: e.rpc.status, details: e.rpc.details } : {}),
    },
  };
}

/** Compute Engine's rate limit, as its API front end answers it: 429, RESOURCE_EXHAUSTED, rateLimitExceeded. */
export function rateLimited(project: string): GceHttpError {
  const message = `Quota exceeded for quota metric 'Queries' and limit 'Queries per minute' of service 'compute.googleapis.com' for consumer 'project_number:${project}'.`;
  return new GceHttpError(
    429,
    'rateLimitExceeded',
    message,
    {
      status: 'RESOURCE_EXHAUSTED',
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'RATE_LIMIT_EXCEEDED',
          domain: 'googleapis.com',
          metadata: {
            service: 'compute.googleapis.com',
            quota_metric: 'compute.googleapis.com/default',
            quota_limit: 'defaultPerMinutePerProject',
            consumer: `projects/${project}`,
          },
        },
      ],
    },
    'usageLimits',
  );
}

/**
 * Compute Engine's rate limit as its rate-quota page documents it: "If your project exceeds a rate quota, you
 * receive a 403 error with the reason rateLimitExceeded" (https://cloud.google.com/compute/api-quota) — a 403 that
 * is throttling, not a permission refusal.
 */
export function rateLimited403(): GceHttpError {
  return new GceHttpError(403, 'rateLimitExceeded', 'Rate Limit Exceeded', undefined, 'usageLimits');
}

/** A resource quota (CPUs, GPUs in a region) refused synchronously: 403 quotaExceeded, not a stockout. */
export function quotaExceeded(metric: string, limit: number, region: string): GceHttpError {
  return new GceHttpError(
    403,
    'quotaExceeded',
    `Quota '${metric}' exceeded.  Limit: ${limit.toFixed(1)} in region ${region}.`,
    undefined,
    'usageLimits',
  );
}

export const zoneUrl = (w: GceWorld, zone: string): string => `${BASE}/projects/${w.project}/zones/${zone}`;
export const instanceUrl = (w: GceWorld, zone: string, name: string): string =>
  `${zoneUrl(w, zone)}/instances/${name}`;

export function instanceJson(w: GceWorld, i: GceInstance): Record<string, unknown> {
  return {
    ...i.resource,
    kind: 'compute#instance',
    id: i.id,
    name: i.name,
    zone: zoneUrl(w, i.zone),
    machineType: `${zoneUrl(w, i.zone)}/machineTypes/${i.machineType}`,
    status: i.status,
    creationTimestamp: i.creationTimestamp,
    selfLink: instanceUrl(w, i.zone, i.name),
  };
}

export function operationJson(w: GceWorld, op: GceOperation): Record<string, unknown> {
  return {
    kind: 'compute#operation',
    id: op.id,
    name: op.name,
    zone: zoneUrl(w, op.zone),
    operationType: op.operationType,
    targetLink: op.targetLink,
    status: op.status,
    progress: op.status === 'DONE' ? 100 : 0,
    insertTime: op.insertTime,
    selfLink: `${zoneUrl(w, op.zone)}/operations/${op.name}`,
    ...(op.error
      ? {
          error: op.error,
          httpErrorStatusCode: op.httpErrorStatusCode ?? 503,
          httpErrorMessage: op.httpErrorStatusCode === 403 ? 'FORBIDDEN' : 'SERVICE UNAVAILABLE',
        }
      : {}),
  };
}
