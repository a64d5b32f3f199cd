// Translates client-node failures (ApiException with a JSON Status body, watch errors with statusCode)
// into the Cluster port's typed errors, naming the object the request concerned; plus the adapter's own.
import { ApiException } from '@kubernetes/client-node';
import {
  AlreadyExistsError,
  ApiError,
  ClusterError,
  ObjectNotFoundError,
  type ObjectRefInfo,
} from '../../ports/cluster/errors.ts';
import { type SnapshotKind } from '../../ports/cluster/index.ts';

export interface StatusInfo {
  readonly code: number;
  readonly reason: string;
  readonly message: string;
}

/** The HTTP status and the server's Status reason/message of a failed call, if it was an API failure. */
export function statusOf(err: unknown): StatusInfo | undefined {
  if (err instanceof ApiException) {
    const code = Number(err.code);
    let reason = '';
    let message = String(err.message);
    const body: unknown = typeof err.body === 'string' ? safeJson(err.body) : err.body;
    if (body && typeof body === 'object') {
      const b = body as { reason?: unknown; message?: unknown };
      if (typeof b.reason === 'string') reason = b.reason;
      if (typeof b.message === 'string') message = b.message;
    }
    return { code, reason, message };
  }
  if (err instanceof Error && typeof (err as { statusCode?: unknown }).statusCode === 'number')
    return { code: (err as unknown as { statusCode: number }).statusCode, reason: '', message: err.message };
  return undefined;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** 404 → ObjectNotFoundError, 409 AlreadyExists → AlreadyExistsError, other statuses → ApiError; else as is. */
export function toClusterError(err: unknown, object: ObjectRefInfo | undefined): unknown {
  if (err instanceof ClusterError) return err;
  const status = statusOf(err);
  if (!status) return err;
  if (status.code === 404 && object) return new ObjectNotFoundError(object, { cause: err });
  if (status.code === 409 && status.reason === 'AlreadyExists' && object)
    return new AlreadyExistsError(object, { cause: err });
  return new ApiError(object, status.code, status.reason || 'Unknown', status.message, { cause: err });
}

export const isConflict = (err: unknown): boolean => {
  const s = statusOf(err);
  return s?.code === 409 && s.reason !== 'AlreadyExists';
};

/** 410 Gone: the resourceVersion is older than the server's history; the caller re-lists. */
export class WatchExpiredError extends Error {
  override readonly name = 'WatchExpiredError';
  constructor(
    readonly kind: SnapshotKind,
    readonly resourceVersion: string,
    options?: { cause?: unknown },
  ) {
    super(`${kind}: watch from resourceVersion ${resourceVersion} expired (410 Gone)`, options);
  }
}

/** How many times a LIST restarts after its continue token expired (410) before the 410 is the answer. */
export const RELIST_ATTEMPTS = 3;

/** 410 Expired on a continue token: the LIST must start again from its first page. */
export class ContinueExpiredError extends Error {
  override readonly name = 'ContinueExpiredError';
  constructor(
    readonly kind: string,
    cause: unknown,
  ) {
    super(`${kind}: LIST continue token expired (410)`, { cause });
  }
}
