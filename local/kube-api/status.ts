// metav1.Status bodies and the error the emulator throws to answer a request with one.
export class StatusError extends Error {
  override readonly name = 'StatusError';
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
  body(): Record<string, unknown> {
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      ...(this.details ? { details: this.details } : {}),
      code: this.code,
    };
  }
}

export const statusError = (
  code: number,
  reason: string,
  message: string,
  details?: Record<string, unknown>,
): StatusError => new StatusError(code, reason, message, details);

export const notFound = (resource: string, name: string): StatusError =>
  statusError(404, 'NotFound', `${resource} "${name}" not found`, { name, kind: resource });

export const conflict = (resource: string, name: string): StatusError =>
  statusError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${resource} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
    { name, kind: resource },
  );

/**
 * An update without metadata.resourceVersion of a kind whose strategy refuses unconditional updates (every custom
 * resource): the registry store's Update answers 422 Invalid naming the field; the kind is the resource's plural.
 */
export const versionRequired = (t: { plural: string; group: string }, name: string): StatusError => {
  const message = 'Invalid value: 0x0: must be specified for an update';
  const resource = t.group ? `${t.plural}.${t.group}` : t.plural;
  return statusError(
    422,
    'Invalid',
    `${resource} "${name}" is invalid: metadata.resourceVersion: ${message}`,
    {
      name,
      group: t.group,
      kind: t.plural,
      causes: [{ reason: 'FieldValueInvalid', message, field: 'metadata.resourceVersion' }],
    },
  );
};

/** apiserver storage's NewTooLargeResourceVersionError: a 504 Timeout with a ResourceVersionTooLarge cause. */
export const tooLargeResourceVersion = (wanted: number, current: number): StatusError =>
  statusError(504, 'Timeout', `Too large resource version: ${wanted}, current: ${current}`, {
    causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
    retryAfterSeconds: 1,
  });

export const alreadyExists = (resource: string, name: string): StatusError =>
  statusError(409, 'AlreadyExists', `${resource} "${name}" already exists`, { name, kind: resource });

export const successStatus = (details: Record<string, unknown>): Record<string, unknown> => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Success',
  details,
});
