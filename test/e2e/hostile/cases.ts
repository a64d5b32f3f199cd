// The shape of one hostile-input case, and the helper for the commonest kind: an object the API server (or
// Karpenter's CRDs) would refuse, which must exit 2 naming the file, the object and the field path.
import { escapeRegExp, simulateYaml, type Obj } from './objects.ts';
import type { ChildInput } from './run-child.ts';

export interface HostileCase {
  readonly name: string;
  /** Writes the case's inputs into `dir`; returns the CLI arguments (and stdin, or an endless FIFO). */
  readonly setup: (dir: string) => ChildInput;
  readonly code: 0 | 2;
  /** Each must match stderr. */
  readonly stderr: readonly RegExp[];
  /** Must match stdout (exit 0 cases); exit 2 cases always require an empty stdout. */
  readonly stdout?: RegExp;
  /** Runs through main() in this process instead of as a child (a variant of a case that runs as one). */
  readonly inProcess?: boolean;
}

/** Marks the named cases to run in-process; every name must be a case. */
export function inProcessWhere(cases: readonly HostileCase[], names: ReadonlySet<string>): HostileCase[] {
  const known = new Set(cases.map((c) => c.name));
  for (const n of names) if (!known.has(n)) throw new Error(`no hostile case named ${n}`);
  return cases.map((c) => (names.has(c.name) ? { ...c, inProcess: true } : c));
}

const slug = (name: string): string => name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60);

/** `file[:line:col]: Kind namespace/name: field.path: ` as the error line must start. */
export function objectError(name: string, ref: string, field: string): RegExp {
  const where = `${escapeRegExp(`${slug(name)}.yaml`).source}(:\\d+:\\d+)?: `;
  return new RegExp(`error: .*${where}${escapeRegExp(ref).source}: ${escapeRegExp(field).source}: `);
}

/** An invalid object: exit 2, the error names file, object and field, and says what is wrong. */
export function refused(
  name: string,
  objects: Obj[],
  ref: string,
  field: string,
  message: RegExp,
): HostileCase {
  return {
    name,
    setup: simulateYaml(name, ...objects),
    code: 2,
    stderr: [objectError(name, ref, field), message],
  };
}
