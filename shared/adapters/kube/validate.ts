// The adapter boundary: every object read from the API server is parsed into its shared/model type.
// Raw JSON (LIST pages, watch events, custom objects) goes in as is; typed client-node results through plain().
import { KINDS, wireKind, type ObjectOf } from '../../model/objects.ts';
import { InvalidObjectError } from '../../ports/cluster/errors.ts';
import { type SnapshotKind } from '../../ports/cluster/index.ts';
import { formatIssuePath } from '../../model/zod-issues.ts';

/**
 * What to do with an object that does not parse. `fail` (the default) fails the read with an
 * InvalidObjectError naming object and field: skipping a bound pod would make its node look emptier
 * than it is, and consolidation could then remove a node that is in use. `skip` drops the object
 * with a warning (for tools that only display the fleet).
 */
export const INVALID_POLICIES = ['fail', 'skip'] as const;
export type InvalidPolicy = (typeof INVALID_POLICIES)[number];

/** Dates → ISO strings, undefined members dropped: the JSON the server sent, as far as the model reads. */
export function plain(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = plain(v);
    return out;
  }
  return value;
}

export function toModel<K extends SnapshotKind>(kind: K, raw: unknown, apiVersion: string): ObjectOf<K> {
  // Items of a LIST carry no apiVersion/kind on a real API server; the model requires them.
  const obj: Record<string, unknown> = {
    ...(raw as Record<string, unknown>),
    apiVersion,
    kind: wireKind(kind),
  };
  const parsed = KINDS[kind].schema.safeParse(obj);
  if (parsed.success) return parsed.data as ObjectOf<K>;
  const m = (obj.metadata ?? {}) as { name?: unknown; namespace?: unknown };
  const issue = parsed.error.issues[0];
  throw new InvalidObjectError(
    {
      kind,
      name: typeof m.name === 'string' ? m.name : '<unnamed>',
      ...(typeof m.namespace === 'string' ? { namespace: m.namespace } : {}),
    },
    formatIssuePath(issue?.path ?? []),
    issue?.message ?? 'invalid',
    { cause: parsed.error },
  );
}
