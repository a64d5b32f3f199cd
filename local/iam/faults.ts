// The IAM emulator's error: an IAM error code, its message and the HTTP status IAM sends it with.
export class IamFault extends Error {
  override name = 'IamFault';
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

/** IAM API Reference, each action's "Errors": the codes and their HTTP statuses. */
export const noSuchEntity = (message: string): IamFault => new IamFault('NoSuchEntity', message, 404);
export const alreadyExists = (message: string): IamFault => new IamFault('EntityAlreadyExists', message, 409);
export const limitExceeded = (message: string): IamFault => new IamFault('LimitExceeded', message, 409);
export const deleteConflict = (message: string): IamFault => new IamFault('DeleteConflict', message, 409);
export const validation = (message: string): IamFault => new IamFault('ValidationError', message, 400);
