// A logger that adds fixed fields to every entry (a claim name, a gang, a pass id), over any Logger port.
import type { Logger } from '../ports/logger.ts';

export function scopedLogger(logger: Logger, fields: Readonly<Record<string, unknown>>): Logger {
  return {
    debug: (m, f) => logger.debug(m, { ...fields, ...f }),
    info: (m, f) => logger.info(m, { ...fields, ...f }),
    warn: (m, f) => logger.warn(m, { ...fields, ...f }),
    error: (m, f) => logger.error(m, { ...fields, ...f }),
  };
}

/** Drops everything: for callers that were given no logger. */
export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
