// The Logger port as Powertools Logger: one JSON line per entry carrying the invocation's request id, the
// pass id and whatever keys a scope adds (claim name, NodePool), so one claim's story greps out of CloudWatch.
import { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import type { Logger } from '../ports/logger.ts';

export const LOG_LEVELS = ['DEBUG', 'INFO', 'WARN', 'ERROR'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface JsonLoggerOptions {
  readonly serviceName: string;
  readonly level: LogLevel;
  readonly keys?: Readonly<Record<string, string>>;
}

/** A Logger that can also set the keys of the current invocation (request id, pass id). */
export interface InvocationLogger extends Logger {
  /** Replaces the per-invocation keys; call once at the start of each invocation. */
  startInvocation(keys: Readonly<Record<string, string>>): void;
}

export function jsonLogger(options: JsonLoggerOptions): InvocationLogger {
  const inner = new PowertoolsLogger({
    serviceName: options.serviceName,
    logLevel: options.level,
    ...(options.keys ? { persistentKeys: { ...options.keys } } : {}),
  });
  return {
    debug: (message, fields) => inner.debug(message, { ...fields }),
    info: (message, fields) => inner.info(message, { ...fields }),
    warn: (message, fields) => inner.warn(message, { ...fields }),
    error: (message, fields) => inner.error(message, { ...fields }),
    startInvocation: (keys) => {
      inner.resetKeys();
      inner.appendKeys({ ...keys });
    },
  };
}
