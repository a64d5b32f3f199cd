// Admission of a custom resource as the API server does it before storing: prune and default by the
// CRD's structural schema (schema.ts), then validate, refusing with 422 Invalid and one cause per field.
import type { ResourceType } from './resources.ts';
import { pruneCustomResource, validateCustomResource, type JsonSchema } from './schema.ts';
import type { KubeObject } from './selectors.ts';
import { statusError } from './status.ts';

/** Prunes undeclared fields, fills defaults, then validates: what the API server stores is what a read returns. */
export function admitCustomResource(t: ResourceType, schema: JsonSchema, obj: KubeObject): void {
  pruneCustomResource(obj, schema);
  // After pruning no unknown field is left to report; a strict caller validates before pruning.
  const issues = validateCustomResource(obj, schema).filter((i) => !i.unknownField);
  if (issues.length === 0) return;
  const name = String(obj.metadata.name ?? '');
  const field = (path: string): string => path.replace(/^\./, '');
  const causes = issues.map((i) => ({
    reason: 'FieldValueInvalid',
    field: field(i.path),
    message: i.message,
  }));
  throw statusError(
    422,
    'Invalid',
    `${t.kind}.${t.group} "${name}" is invalid: ${issues.map((i) => `${field(i.path)}: ${i.message}`).join(', ')}`,
    { name, group: t.group, kind: t.kind, causes },
  );
}

/**
 * `?fieldValidation=Strict` (what kubectl sends once the OpenAPI document offers it): a create or update of a
 * custom resource naming a field its schema does not declare is refused with 400, in the API server's words,
 * instead of the field being pruned silently. `Warn` and `Ignore` (and no parameter) prune as before.
 */
export function strictFields(t: ResourceType, directive: string | null, obj: KubeObject): void {
  if (directive !== 'Strict' || !t.schema) return;
  const unknown = validateCustomResource(structuredClone(obj), t.schema).filter((i) => i.unknownField);
  if (unknown.length === 0) return;
  const fields = unknown.map((i) => `unknown field "${i.path.replace(/^\./, '')}"`).join(', ');
  throw statusError(
    400,
    'BadRequest',
    `${t.kind} in version "${t.version}" cannot be handled as a ${t.kind}: strict decoding error: ${fields}`,
  );
}
