// CLI errors: InputError (bad input or usage, exit 2) carries a message that names file, object and field.
export class InputError extends Error {
  override name = 'InputError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
