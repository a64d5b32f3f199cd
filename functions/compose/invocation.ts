// One invocation's frame, shared by every handler: the Lambda context is validated, the logger carries the
// request id (and the pass id) for this invocation only, and metrics are flushed whether the run failed or not.
import { z } from 'zod';
import type { Logger } from '../../shared/ports/logger.ts';
import type { Metrics } from '../../shared/ports/metrics.ts';

export const lambdaContextSchema = z.looseObject({
  awsRequestId: z.string().min(1, 'awsRequestId is required'),
  functionName: z.string().optional(),
  getRemainingTimeInMillis: z.custom<() => number>((v) => typeof v === 'function').optional(),
});
export type LambdaContext = z.infer<typeof lambdaContextSchema>;

export interface InvocationLogger extends Logger {
  startInvocation(keys: Readonly<Record<string, string>>): void;
}
export interface FlushableMetrics extends Metrics {
  flush(): void;
}
export interface InvocationObservability {
  readonly logger: InvocationLogger;
  readonly metrics: FlushableMetrics;
}

export class InvalidContextError extends Error {
  override readonly name = 'InvalidContextError';
}

export function parseContext(context: unknown): LambdaContext {
  const parsed = lambdaContextSchema.safeParse(context);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new InvalidContextError(
    `Lambda context: ${issue?.path.join('.') || '<root>'}: ${issue?.message ?? 'invalid'}`,
    { cause: parsed.error },
  );
}

/** What is left of the invocation, less a margin to finish and flush; `fallback` outside Lambda. */
export function remainingMs(context: LambdaContext, fallback: number, marginMs = 30_000): number {
  const left = context.getRemainingTimeInMillis?.();
  return left === undefined ? fallback : Math.max(0, left - marginMs);
}

/** Runs one invocation: keys on every log line, a failure logged once and rethrown (it fails the invocation). */
export async function invocation<T>(
  obs: InvocationObservability,
  keys: Readonly<Record<string, string>>,
  run: () => Promise<T>,
): Promise<T> {
  obs.logger.startInvocation(keys);
  try {
    return await run();
  } catch (err: unknown) {
    obs.logger.error('invocation failed', {
      error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
    });
    throw err;
  } finally {
    obs.metrics.flush();
  }
}
