// CLI errors: InputError (bad input or usage, exit 2) carries a message that names file, object and field.
export class InputError extends Error {
  override name = 'InputError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * The usage error for an argument that is not an option. Every input is a flag's value (kubectl's -f), so a bare
 * path most likely lacks its -f: the message offers the corrected form.
 */
export function unexpectedArgument(arg: string, usage: string): InputError {
  const hint = arg.startsWith('-') ? '' : `: did you mean -f ${arg}?`;
  return new InputError(
    `${arg.startsWith('-') ? 'unknown option' : 'unexpected argument'} ${JSON.stringify(arg)}${hint}\n${usage}`,
  );
}
