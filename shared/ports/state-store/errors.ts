// The StateStore port's errors: lost lease races carry the item that won, bad input names method and field,
// and an unavailable backing service keeps the SDK error as `cause`.
import type { z } from 'zod';
import type { Fence, LeaseView } from './records.ts';
import { formatZodIssues } from '../../model/zod-issues.ts';

export class StateStoreError extends Error {
  override readonly name: string = 'StateStoreError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
/** The lease is held by someone else (or this run already ran): `holder` is the winning item. */
export class LockHeldError extends StateStoreError {
  override readonly name = 'LockHeldError';
  constructor(
    readonly holder: LeaseView,
    readonly reason: 'held' | 'same-run',
    options?: { cause?: unknown },
  ) {
    super(
      `lease ${holder.cluster}/${holder.name} ${reason === 'held' ? `is held by ${holder.owner} (token ${holder.token})` : `already ran run ${holder.lastRunId}`}`,
      options,
    );
  }
}
/** A heartbeat or release for a lease that expired or was taken over: `current` is what the store holds. */
export class LockLostError extends StateStoreError {
  override readonly name = 'LockLostError';
  constructor(
    readonly fence: Fence,
    readonly current: LeaseView | undefined,
    options?: { cause?: unknown },
  ) {
    super(
      `lease ${fence.cluster}/${fence.name} token ${fence.token} is no longer held by ${fence.owner}${current ? ` (now ${current.owner}, token ${current.token})` : ''}`,
      options,
    );
  }
}
/** A fenced write from a stale holder was refused: `current` is the lease item that won. */
export class StaleWriteError extends StateStoreError {
  override readonly name = 'StaleWriteError';
  constructor(
    readonly fence: Fence,
    readonly current: LeaseView | undefined,
    options?: { cause?: unknown },
  ) {
    super(
      `write fenced by ${fence.cluster}/${fence.name} token ${fence.token} refused: ${current ? `current token ${current.token} held by ${current.owner}` : 'no lease'}`,
      options,
    );
  }
}
/** A conditional write lost: `current` is the item that made the condition fail (undefined if absent). */
export class ConditionFailedError<T = unknown> extends StateStoreError {
  override readonly name = 'ConditionFailedError';
  constructor(
    message: string,
    readonly current: T | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
/** Bad input to the store, named by method and field. */
export class InvalidStateInputError extends StateStoreError {
  override readonly name = 'InvalidStateInputError';
}
/** An item the store read does not parse: a bug or a foreign writer. */
export class CorruptItemError extends StateStoreError {
  override readonly name = 'CorruptItemError';
}
/** The backing service failed (after retries for throttling and timeouts); the SDK error is the `cause`. */
export class StoreUnavailableError extends StateStoreError {
  override readonly name = 'StoreUnavailableError';
}

/** Parses store input with zod and names the method and field on failure. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new InvalidStateInputError(formatZodIssues(result.error, where), { cause: result.error });
}
