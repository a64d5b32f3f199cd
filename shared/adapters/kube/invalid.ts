// What an object that failed validation concerns, read from its raw fields (the model refused it, so only the
// few fields that name a node or an instance are trusted, each only when it is a string):
// docs/mechanisms/identity.md#invalid-objects.
import type { InvalidObject, SnapshotKind } from '../../ports/cluster/index.ts';

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const field = (o: unknown, ...path: string[]): string | undefined => {
  let at: unknown = o;
  for (const p of path)
    at = at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[p] : undefined;
  return str(at);
};
const some = (...values: (string | undefined)[]): string[] => values.filter((v): v is string => !!v);

/** The invalid object as the snapshot reports it: kind, name, uid, the error, and its nodes and instances. */
export function invalidObject(kind: SnapshotKind, raw: unknown, message: string): InvalidObject {
  const name = field(raw, 'metadata', 'name') ?? '<unnamed>';
  const namespace = field(raw, 'metadata', 'namespace');
  const uid = field(raw, 'metadata', 'uid');
  const concerns =
    kind === 'Node'
      ? { nodes: some(field(raw, 'metadata', 'name')), providerIds: some(field(raw, 'spec', 'providerID')) }
      : kind === 'Pod'
        ? { nodes: some(field(raw, 'spec', 'nodeName')), providerIds: [] }
        : kind === 'NodeClaim'
          ? {
              nodes: some(field(raw, 'status', 'nodeName')),
              providerIds: some(field(raw, 'status', 'providerID')),
            }
          : { nodes: [], providerIds: [] };
  return { kind, name, ...(namespace ? { namespace } : {}), ...(uid ? { uid } : {}), message, ...concerns };
}
