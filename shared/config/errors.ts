// The config module's one error: settings that do not parse, every bad key named at once, so a cold start
// that fails says everything that must be fixed instead of one key per deploy.
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    message: string,
    /** The keys that failed, as dotted paths (`retry.attempts`, `zones[0]`). */
    readonly keys: readonly string[],
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
