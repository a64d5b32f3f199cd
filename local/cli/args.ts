// Command-line arguments of docs/contract.md, parsed strictly (unknown flags and missing values are usage errors).
import { cloudOfRegion } from '../../shared/catalog/regions.ts';
import { z } from 'zod';
import { InputError, unexpectedArgument } from './errors.ts';
import { MAX_WORKERS } from './workers/limits.ts';

export const COMMANDS = ['simulate', 'plan', 'census'] as const;
export type Command = (typeof COMMANDS)[number];

export interface Args {
  readonly command: Command;
  readonly files: readonly string[];
  /** -R: a directory given with -f is read with its subdirectories. */
  readonly recursive: boolean;
  readonly catalog: string | undefined;
  /** --extra-types FILE...: types added to the catalog in use, or replacing the type of the same name. */
  readonly extraTypes: readonly string[];
  /** --region R...: the regions whose offerings are used, instead of those the snapshot names. */
  readonly regions: readonly string[];
  readonly now: Date | undefined;
  readonly output: 'json' | 'table';
  readonly upstream: boolean;
  readonly maxCommands: number;
  readonly spotToSpot: boolean;
  readonly spotToSpotMinTypes: number;
  readonly skipUnchangedNegatives: boolean;
  /** --workers N (plan and census): threads simulating candidates; 1 simulates in this thread. */
  readonly workers: number;
}

export const USAGE = `usage: kraftsman <simulate|plan|census> -f FILE|DIR [-f ...] [-R] [--catalog FILE] [--now RFC3339]
                 [--extra-types FILE ...] [--region R ...] [-o json|table] [--upstream]
       plan:     [--max-commands N] [--spot-to-spot] [--spot-to-spot-min-types N] [--skip-unchanged-negatives]
       plan, census: [--workers N]`;

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/;

export function parseNow(text: string): Date {
  const m = RFC3339.exec(text);
  const bad = () =>
    new InputError(`--now ${JSON.stringify(text)} is not an RFC 3339 instant (e.g. 2026-09-01T12:00:00Z)`);
  if (!m) throw bad();
  const [, y, mo, d, h, mi, s, , , oh, om] = m.map((x) => (x === undefined ? undefined : x));
  const year = Number(y),
    month = Number(mo),
    day = Number(d);
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > days || Number(h) > 23 || Number(mi) > 59 || Number(s) > 60)
    throw bad();
  if (oh !== undefined && (Number(oh) > 23 || Number(om) > 59)) throw bad();
  const date = new Date(text.replace('t', 'T').replace('z', 'Z'));
  if (Number.isNaN(date.getTime())) throw bad();
  return date;
}

function positiveInt(flag: string, value: string | undefined): number {
  if (value === undefined || !/^\d+$/.test(value) || Number(value) < 1)
    throw new InputError(`${flag} needs a positive integer`);
  return Number(value);
}

const workersSchema = z
  .string()
  .regex(/^\d+$/, 'must be a whole number ≥ 1')
  .transform(Number)
  .pipe(
    z
      .number()
      .min(1, 'must be a whole number ≥ 1')
      .max(MAX_WORKERS, `is at most ${MAX_WORKERS} (one thread per core is the most that helps)`),
  );

/** --workers N: a whole number from 1 to MAX_WORKERS (docs/contract.md). */
function workersOf(value: string): number {
  const parsed = workersSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new InputError(
    `--workers ${parsed.error.issues[0]?.message ?? 'is invalid'}, not ${JSON.stringify(value)}`,
  );
}

export function parseArgs(argv: readonly string[]): Args {
  const [command, ...rest] = argv;
  if (!command || !(COMMANDS as readonly string[]).includes(command)) {
    throw new InputError(command ? `unknown command ${JSON.stringify(command)}\n${USAGE}` : USAGE);
  }
  const files: string[] = [];
  let catalog: string | undefined;
  const extraTypes: string[] = [];
  const regions: string[] = [];
  let now: Date | undefined;
  let output: 'json' | 'table' = 'table';
  let upstream = false,
    recursive = false,
    spotToSpot = false,
    skip = false;
  let maxCommands = 1,
    minTypes = 15,
    workers = 1;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] as string;
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    const value = (): string => {
      const v = inline ?? rest[++i];
      if (v === undefined) throw new InputError(`${flag} needs a value\n${USAGE}`);
      return v;
    };
    switch (flag) {
      case '-f':
      case '--filename':
        files.push(value());
        break;
      case '-R':
      case '--recursive':
        recursive = true;
        break;
      case '--catalog':
        catalog = value();
        break;
      case '--extra-types':
        extraTypes.push(value());
        break;
      case '--region': {
        const v = value();
        if (!cloudOfRegion(v))
          throw new InputError(
            `--region ${JSON.stringify(v)} is not an AWS or Google Cloud region name (e.g. us-west-2, us-central1)`,
          );
        regions.push(v);
        break;
      }
      case '--now':
        now = parseNow(value());
        break;
      case '-o':
      case '--output': {
        const v = value();
        if (v !== 'json' && v !== 'table')
          throw new InputError(`-o must be json or table, not ${JSON.stringify(v)}`);
        output = v;
        break;
      }
      case '--upstream':
        upstream = true;
        break;
      case '--max-commands':
        maxCommands = positiveInt(flag, value());
        break;
      case '--spot-to-spot':
        spotToSpot = true;
        break;
      case '--spot-to-spot-min-types':
        minTypes = positiveInt(flag, value());
        break;
      case '--skip-unchanged-negatives':
        skip = true;
        break;
      case '--workers':
        workers = workersOf(value());
        break;
      default:
        throw unexpectedArgument(arg, USAGE);
    }
  }
  if (files.length === 0) throw new InputError(`no input: give at least one -f FILE\n${USAGE}`);
  return {
    command: command as Command,
    files,
    recursive,
    catalog,
    extraTypes,
    regions,
    now,
    output,
    upstream,
    maxCommands,
    spotToSpot,
    spotToSpotMinTypes: minTypes,
    skipUnchangedNegatives: skip,
    workers,
  };
}
