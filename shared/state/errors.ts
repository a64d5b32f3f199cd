// Errors of the state module: input objects that cannot be read, named by source, object and field.
export class InvalidObjectError extends Error {
  override name = 'InvalidObjectError';
  constructor(
    message: string,
    readonly source: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
