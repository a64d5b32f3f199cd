// Invoker port: hand a payload to another kraftsman function asynchronously (Lambda's Event invocation).
// The caller does not wait for the work: it learns only that the invocation was accepted.
export const INVOKABLE_FUNCTIONS = ['launch-aws', 'launch-gcp', 'admit', 'census-worker'] as const;
export type InvokableFunction = (typeof INVOKABLE_FUNCTIONS)[number];

export interface Invoker {
  /** Resolves once the platform accepted the invocation; throws InvokeError otherwise. */
  invoke(target: InvokableFunction, payload: unknown): Promise<void>;
}

/** The invocation was refused or never reached the platform: the caller's work stays undone. */
export class InvokeError extends Error {
  override readonly name = 'InvokeError';
  constructor(
    readonly target: InvokableFunction,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`invoke ${target}: ${message}`, options);
  }
}
