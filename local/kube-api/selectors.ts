// Label selectors (=, ==, !=, in, notin, exists, !key) and field selectors (=, ==, != on the fields a resource
// supports) as the API server parses them from `labelSelector` / `fieldSelector`: anything malformed is 400.
import { FIELD_DEFAULTS, fieldLabel } from './field-labels.ts';
import { labelValueErrors, qualifiedNameErrors } from './meta-validation.ts';
import type { ResourceType } from './resources.ts';
import { statusError } from './status.ts';

export type Matcher = (obj: KubeObject) => boolean;
export type KubeObject = Record<string, unknown> & { metadata: Record<string, unknown> };

/** Splits on commas that are not inside parentheses: `a in (x,y),b` → [`a in (x,y)`, `b`]. */
function splitTerms(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (depth !== 0) throw badSelector(s, 'unbalanced parentheses');
  out.push(cur);
  const terms = out.map((t) => t.trim());
  if (terms.some((t) => t.length === 0)) throw badSelector(s, 'empty requirement');
  return terms;
}

const badSelector = (term: string, why: string) =>
  statusError(400, 'BadRequest', `unable to parse requirement: ${JSON.stringify(term)}: ${why}`);

/** labels.Parse checks every key as a qualified name and every value as a label value. */
function checkLabel(key: string, values: readonly string[]): void {
  const keyErr = qualifiedNameErrors(key)[0];
  if (keyErr) throw badSelector(key, `key: Invalid value: ${JSON.stringify(key)}: ${keyErr}`);
  for (const [i, v] of values.entries()) {
    const err = labelValueErrors(v)[0];
    if (err) throw badSelector(key, `values[${i}][${key}]: Invalid value: ${JSON.stringify(v)}: ${err}`);
  }
}

type LabelTerm = (labels: Record<string, string>) => boolean;

function labelTerm(term: string): LabelTerm {
  const set = /^([^\s!=]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(term);
  if (set) {
    const [, key, op, list] = set as unknown as [string, string, string, string];
    const given = list.split(',').map((v) => v.trim());
    if (list.trim() === '') throw badSelector(term, "for 'in', 'notin' operators, values set can't be empty");
    checkLabel(key, given);
    const values = new Set(given);
    return op === 'in'
      ? (l) => l[key] !== undefined && values.has(l[key])
      : (l) => l[key] === undefined || !values.has(l[key]);
  }
  const eq = /^([^\s!=]+)\s*(==|=|!=)\s*([^\s,]*)$/.exec(term);
  if (eq) {
    const [, key, op, value] = eq as unknown as [string, string, string, string];
    checkLabel(key, [value]);
    return op === '!=' ? (l) => l[key] !== value : (l) => l[key] === value;
  }
  if (/^![^\s!=]+$/.test(term)) {
    checkLabel(term.slice(1), []);
    return (l) => l[term.slice(1)] === undefined;
  }
  if (/^[^\s!=(),]+$/.test(term)) {
    checkLabel(term, []);
    return (l) => l[term] !== undefined;
  }
  throw statusError(400, 'BadRequest', `unable to parse requirement: "${term}"`);
}

export function parseLabelSelector(selector: string | null): Matcher {
  if (!selector) return () => true;
  const terms = splitTerms(selector).map(labelTerm);
  return (obj) => {
    const labels = (obj.metadata.labels ?? {}) as Record<string, string>;
    return terms.every((t) => t(labels));
  };
}

export function fieldValue(obj: unknown, path: string | readonly string[]): string {
  let cur: unknown = obj;
  for (const part of typeof path === 'string' ? path.split('.') : path)
    cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[part] : undefined;
  return cur === undefined || cur === null ? '' : String(cur);
}

/** A field selector on the fields `t` supports (field-labels.ts); without `t`, any dotted path (in-process use). */
export function parseFieldSelector(selector: string | null, t?: ResourceType): Matcher {
  if (!selector) return () => true;
  const terms = splitTerms(selector).map((term) => {
    const m = /^([A-Za-z0-9_.]+)\s*(==|=|!=)\s*(.*)$/.exec(term);
    if (!m) throw statusError(400, 'BadRequest', `invalid selector: '${term}'; can't understand '${term}'`);
    const [, given, op, value] = m as unknown as [string, string, string, string];
    const known = t ? fieldLabel(t, given) : { label: given };
    if ('error' in known) throw statusError(400, 'BadRequest', known.error);
    // Split once per selector, not once per object: a LIST of a 28,000-pod fleet tests every pod.
    const path = known.label.split('.');
    const absent = FIELD_DEFAULTS[known.label] ?? '';
    const read = (o: KubeObject): string => fieldValue(o, path) || absent;
    return op === '!=' ? (o: KubeObject) => read(o) !== value : (o: KubeObject) => read(o) === value;
  });
  return (obj) => terms.every((t) => t(obj));
}

/** The value a field selector requires of `spec.nodeName` (`=` or `==`), if it has such a term. */
export function requiredNodeName(selector: string | null): string | undefined {
  if (!selector) return undefined;
  for (const term of splitTerms(selector)) {
    const m = /^spec\.nodeName\s*(==|=)\s*(.*)$/.exec(term);
    if (m) return m[2];
  }
  return undefined;
}

/** A metav1.LabelSelector (matchLabels + matchExpressions) as PDBs and DaemonSets carry it. */
export function matchesLabelSelector(
  selector:
    | {
        matchLabels?: Record<string, string>;
        matchExpressions?: { key: string; operator: string; values?: string[] }[];
      }
    | undefined,
  labels: Record<string, string>,
): boolean {
  if (!selector) return false;
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = labels[e.key] !== undefined;
    const inValues = has && (e.values ?? []).includes(labels[e.key] as string);
    const ok =
      e.operator === 'In'
        ? inValues
        : e.operator === 'NotIn'
          ? !inValues
          : e.operator === 'Exists'
            ? has
            : !has;
    if (!ok) return false;
  }
  return true;
}
