// What kube-apiserver validates on every write before storing, beyond a CRD's schema: label keys and values and
// annotation keys by their syntax, annotations' total size (ObjectMeta validation, every kind, custom resources
// too), and a Node's taints (key, value, effect, no duplicate key+effect) — refused with 422 Invalid, one cause a field.
import type { KubeObject } from './selectors.ts';
import { statusError } from './status.ts';

export interface FieldIssue {
  readonly reason:
    | 'FieldValueInvalid'
    | 'FieldValueNotSupported'
    | 'FieldValueDuplicate'
    | 'FieldValueTooLong'
    | 'FieldValueRequired';
  readonly field: string;
  readonly message: string;
}

const NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const NAME_PART_MSG =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
/** apimachinery's TotalAnnotationSizeLimitB: keys plus values, in bytes. */
export const ANNOTATIONS_MAX_BYTES = 256 * 1024;
const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;

/** apimachinery's IsQualifiedName: `[prefix/]name`, the prefix a DNS subdomain, the name at most 63 characters. */
export function qualifiedNameErrors(value: string): string[] {
  const parts = value.split('/');
  if (parts.length > 2)
    return [
      `a qualified name ${NAME_PART_MSG} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  const [prefix, name] = parts.length === 2 ? parts : [undefined, parts[0] ?? ''];
  const errs: string[] = [];
  if (prefix !== undefined) {
    if (prefix === '') errs.push('prefix part must be non-empty');
    else if (prefix.length > 253) errs.push('prefix part must be no more than 253 characters');
    else if (!SUBDOMAIN.test(prefix)) errs.push(`prefix part ${SUBDOMAIN_MSG}`);
  }
  if (!name) errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push('name part must be no more than 63 characters');
  else if (!NAME_PART.test(name)) errs.push(`name part ${NAME_PART_MSG}`);
  return errs;
}

/** apimachinery's IsValidLabelValue. */
export function labelValueErrors(value: string): string[] {
  if (value.length > 63) return ['must be no more than 63 characters'];
  return LABEL_VALUE.test(value) ? [] : [LABEL_VALUE_MSG];
}

const invalid = (field: string, value: unknown, detail: string): FieldIssue => ({
  reason: 'FieldValueInvalid',
  field,
  message: `Invalid value: ${JSON.stringify(value)}: ${detail}`,
});

const asStrings = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** ValidateLabels and ValidateAnnotations (apimachinery's objectmeta validation). */
function metaIssues(obj: KubeObject): FieldIssue[] {
  const issues: FieldIssue[] = [];
  for (const [k, v] of Object.entries(asStrings(obj.metadata.labels))) {
    for (const msg of qualifiedNameErrors(k)) issues.push(invalid('metadata.labels', k, msg));
    for (const msg of labelValueErrors(String(v))) issues.push(invalid('metadata.labels', v, msg));
  }
  let bytes = 0;
  for (const [k, v] of Object.entries(asStrings(obj.metadata.annotations))) {
    for (const msg of qualifiedNameErrors(k.toLowerCase()))
      issues.push(invalid('metadata.annotations', k, msg));
    bytes += Buffer.byteLength(k) + Buffer.byteLength(String(v));
  }
  if (bytes > ANNOTATIONS_MAX_BYTES)
    issues.push({
      reason: 'FieldValueTooLong',
      field: 'metadata.annotations',
      message: `Too long: must have at most ${ANNOTATIONS_MAX_BYTES} bytes`,
    });
  return issues;
}

/** The core API's validateNodeTaints plus validateTaintEffect (pkg/apis/core/validation). */
function taintIssues(obj: KubeObject): FieldIssue[] {
  const taints = (obj.spec as { taints?: unknown } | undefined)?.taints;
  if (!Array.isArray(taints)) return [];
  const issues: FieldIssue[] = [];
  const seen = new Set<string>();
  taints.forEach((raw: unknown, i) => {
    const t = asStrings(raw);
    const at = `spec.taints[${i}]`;
    const key = typeof t.key === 'string' ? t.key : '';
    const effect = typeof t.effect === 'string' ? t.effect : '';
    for (const msg of qualifiedNameErrors(key)) issues.push(invalid(`${at}.key`, key, msg));
    if (t.value !== undefined)
      for (const msg of labelValueErrors(String(t.value))) issues.push(invalid(`${at}.value`, t.value, msg));
    if (!effect)
      issues.push({ reason: 'FieldValueRequired', field: `${at}.effect`, message: 'Required value' });
    else if (!(TAINT_EFFECTS as readonly string[]).includes(effect))
      issues.push({
        reason: 'FieldValueNotSupported',
        field: `${at}.effect`,
        message: `Unsupported value: ${JSON.stringify(effect)}: supported values: ${TAINT_EFFECTS.map((e) => `"${e}"`).join(', ')}`,
      });
    const pair = `${effect}\u0000${key}`;
    if (seen.has(pair))
      issues.push({
        reason: 'FieldValueDuplicate',
        field: at,
        message: `Duplicate value: ${JSON.stringify(raw)}: taints must be unique by key and effect pair`,
      });
    seen.add(pair);
  });
  return issues;
}

/** 422 Invalid as the API server words it: `Kind "name" is invalid: field: detail` (several in brackets). */
export function invalidObject(
  kind: { kind: string; group: string },
  name: string,
  issues: readonly FieldIssue[],
): Error {
  const each = issues.map((i) => `${i.field}: ${i.message}`);
  const what = kind.group ? `${kind.kind}.${kind.group}` : kind.kind;
  return statusError(
    422,
    'Invalid',
    `${what} "${name}" is invalid: ${each.length === 1 ? each[0] : `[${each.join(', ')}]`}`,
    { name, group: kind.group, kind: kind.kind, causes: issues.map((i) => ({ ...i })) },
  );
}

/** Every kind's metadata; a Node's taints. Throws the API server's 422 when anything is off. */
export function admitObject(kind: { kind: string; group: string }, obj: KubeObject): void {
  const issues = [...metaIssues(obj), ...(kind.group === '' && kind.kind === 'Node' ? taintIssues(obj) : [])];
  if (issues.length > 0) throw invalidObject(kind, String(obj.metadata.name ?? ''), issues);
}
