// The Cluster port's errors: every API failure an implementation translates, each naming the object it
// concerned (`Kind namespace/name`) and carrying the HTTP status; the client's error is the `cause`.

/** Where an error happened: `Kind namespace/name`. */
export interface ObjectRefInfo {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
}

const describe = (ref: ObjectRefInfo): string =>
  `${ref.kind} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`;

/** Base of every Cluster error: the HTTP status (0 when none) and the object it concerned. */
export class ClusterError extends Error {
  override readonly name: string = 'ClusterError';
  constructor(
    message: string,
    readonly status: number,
    readonly object: ObjectRefInfo | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** 409 on a write whose resourceVersion was stale, still so after the bounded re-read retries. */
export class ConflictError extends ClusterError {
  override readonly name = 'ConflictError';
  constructor(object: ObjectRefInfo, attempts: number, options?: { cause?: unknown }) {
    super(`${describe(object)}: conflict persisted after ${attempts} attempts`, 409, object, options);
  }
}

/** 404: the object does not exist (distinct from the cloud port's InstanceNotFoundError). */
export class ObjectNotFoundError extends ClusterError {
  override readonly name = 'ObjectNotFoundError';
  constructor(object: ObjectRefInfo, options?: { cause?: unknown }) {
    super(`${describe(object)} not found`, 404, object, options);
  }
}

export class AlreadyExistsError extends ClusterError {
  override readonly name = 'AlreadyExistsError';
  constructor(object: ObjectRefInfo, options?: { cause?: unknown }) {
    super(`${describe(object)} already exists`, 409, object, options);
  }
}

/** An object the API server returned that does not parse into the model: names object and field. */
export class InvalidObjectError extends ClusterError {
  override readonly name = 'InvalidObjectError';
  constructor(
    object: ObjectRefInfo,
    readonly field: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`${describe(object)}: invalid field ${field}: ${detail}`, 0, object, options);
  }
}

/** Any other API failure, with its status, the server's reason and the object it concerned. */
export class ApiError extends ClusterError {
  override readonly name = 'ApiError';
  constructor(
    object: ObjectRefInfo | undefined,
    status: number,
    readonly reason: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(
      `${object ? describe(object) : 'request'}: API error ${status} ${reason}: ${detail}`,
      status,
      object,
      options,
    );
  }
}
