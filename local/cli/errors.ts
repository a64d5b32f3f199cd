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

/**
 * Walks a small command's flags (`--flag value`, `--flag=value`, `-f value`) in order: `visit` gets the flag, a
 * `value()` that takes the flag's value (a usage error when it has none) and the argument as written.
 */
export function eachFlag(
  argv: readonly string[],
  usage: string,
  visit: (flag: string, value: () => string, arg: string) => void,
): void {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const [flag, inline] = eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
    visit(
      flag,
      () => {
        const v = inline ?? argv[++i];
        if (v === undefined || v === '') throw new InputError(`${flag} needs a value\n${usage}`);
        return v;
      },
      arg,
    );
  }
}
