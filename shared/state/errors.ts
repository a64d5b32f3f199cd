// Errors of the state module: input documents that cannot be read, named by source, object and field
// (the Cluster port's InvalidObjectError is the API-server counterpart).
export class InvalidDocumentError extends Error {
  override name = 'InvalidDocumentError';
  constructor(
    message: string,
    readonly source: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
