// The bounds every input is parsed within (docs/input-bounds.md states them in contract terms), and how a
// parse-level finding such as a duplicate key is reported against the object and field it belongs to.
import { objectRef } from '../../shared/model/meta.ts';
import { formatIssuePath } from '../../shared/model/zod-issues.ts';

export { MAX_INPUT_BYTES } from './read-source.ts';
/** YAML is parsed ~10× slower than JSON and takes ~300 bytes of memory per input byte: a tighter cap. */
export const MAX_YAML_BYTES = 16 * 1024 * 1024;
/** Nodes (scalars, mappings, sequences) one file's YAML may expand to once aliases are followed. */
export const MAX_YAML_NODES = 2_000_000;
/** Nesting depth of mappings and sequences; Kubernetes objects nest about 15 levels deep. */
export const MAX_DEPTH = 64;

export type KeyPath = readonly (string | number)[];

/** A key given twice in one mapping, with the path to it and a `line:column` to find it by. */
export interface DuplicateKey {
  readonly path: KeyPath;
  readonly where: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Splits a path inside a document at the Kubernetes object it falls in (Lists are looked through). */
function locate(root: unknown, path: KeyPath): { ref: string | undefined; field: KeyPath } {
  let node: unknown = root;
  for (let i = 0; i < path.length; i++) {
    if (isRecord(node) && typeof node.kind === 'string' && !node.kind.endsWith('List')) {
      const meta = isRecord(node.metadata) ? node.metadata : undefined;
      const name = typeof meta?.name === 'string' ? meta.name : undefined;
      const namespace = typeof meta?.namespace === 'string' ? meta.namespace : undefined;
      return { ref: objectRef(node.kind, { name, namespace }), field: path.slice(i) };
    }
    const key = path[i] as string | number;
    node = Array.isArray(node) ? node[Number(key)] : isRecord(node) ? node[String(key)] : undefined;
  }
  return { ref: undefined, field: path };
}

/** The error for a duplicate key: file:line:col, the object (`Kind namespace/name`) and the field path. */
export function duplicateKeyMessage(source: string, root: unknown, dup: DuplicateKey): string {
  const { ref, field } = locate(root, dup.path);
  const key = String(dup.path[dup.path.length - 1]);
  return `${source}:${dup.where}: ${ref ? `${ref}: ` : ''}${formatIssuePath(field)}: duplicate key ${JSON.stringify(key)} (a mapping may give each key once)`;
}
