// The CloudProvider port's error contract: the classes every adapter translates its SDK's errors into, and the
// refusal of an instance that fails an identity or ownership check (docs/mechanisms/identity.md#instances).
// Callers match them by name along the `cause` chain (names survive bundling), so each name is unique
// across the ports: a Kubernetes 404 is an ObjectNotFoundError, never an InstanceNotFoundError.
import type { UnavailableOffering } from '../../model/unavailable-offering.ts';

export const CLOUD_ERROR_NAMES = [
  'InstanceNotFoundError',
  'InsufficientCapacityError',
  'RetryableCloudError',
  'FatalCloudError',
  'OwnershipError',
] as const;
export type CloudErrorName = (typeof CLOUD_ERROR_NAMES)[number];

/** The instance (or the resource a call named) does not exist: a delete already happened. */
export class InstanceNotFoundError extends Error {
  override name = 'InstanceNotFoundError' as const;
  constructor(
    message: string,
    readonly id?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The cloud had no capacity for any offering tried; `offerings` are to be marked unavailable. */
export class InsufficientCapacityError extends Error {
  override name = 'InsufficientCapacityError' as const;
  constructor(
    message: string,
    readonly offerings: readonly UnavailableOffering[],
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Throttling, a server error or a timeout that outlived the adapter's own retries: try again later. */
export class RetryableCloudError extends Error {
  override name = 'RetryableCloudError' as const;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A request the cloud will never accept as made (bad node class, permissions, invalid parameters). */
export class FatalCloudError extends Error {
  override name = 'FatalCloudError' as const;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Why an adapter refused to act on an instance: a subset of the loop's refusal reasons (shared/loop/refusals.ts). */
export const OWNERSHIP_REASONS = [
  /** The providerID's project (GCE) or the instance's account (EC2) is not this deployment's. */
  'foreign-project',
  /** The instance lacks this cluster's tag or label. */
  'foreign-cluster',
  /** The instance lacks this deployment's id tag or label (an instance from before deployment ids included). */
  'foreign-deployment',
  /** The instance is not the one the claim or command recorded (another claim's, or another zone's). */
  'instance-mismatch',
  /** The providerID cannot be parsed. */
  'malformed-provider-id',
] as const;
export type OwnershipReason = (typeof OWNERSHIP_REASONS)[number];

/**
 * The instance is not this deployment's to destroy (or not the one expected): final for this attempt, never
 * retried as if transient. The caller refuses visibly (shared/loop/terminate-instance.ts).
 */
export class OwnershipError extends Error {
  override name = 'OwnershipError' as const;
  constructor(
    message: string,
    readonly reason: OwnershipReason,
    readonly id: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const NAMES: ReadonlySet<string> = new Set(CLOUD_ERROR_NAMES);
const isCloudError = (err: Error): err is Error & { name: CloudErrorName } => NAMES.has(err.name);

/** Finds the first contract error along an error's `cause` chain, by name (survives bundling). */
export function cloudErrorOf(err: unknown): (Error & { name: CloudErrorName }) | undefined {
  let current: unknown = err;
  for (let depth = 0; current instanceof Error && depth < 10; depth++) {
    if (isCloudError(current)) return current;
    current = current.cause;
  }
  return undefined;
}

/** True when trying again later may succeed (capacity frees up, throttling passes). */
export function isRetryableCloudError(err: unknown): boolean {
  const found = cloudErrorOf(err);
  return found?.name === 'RetryableCloudError' || found?.name === 'InsufficientCapacityError';
}

/** The OwnershipError along an error's `cause` chain, or undefined. */
export function ownershipErrorOf(err: unknown): OwnershipError | undefined {
  const found = cloudErrorOf(err);
  return found instanceof OwnershipError ? found : undefined;
}
