// The secrets adapter's error: a secret that cannot be read (missing, denied, unreachable, not text). It names
// the secret and never carries its value.
export class SecretReadError extends Error {
  override readonly name = 'SecretReadError';
  constructor(
    message: string,
    readonly secretId: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
