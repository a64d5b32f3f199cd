// Label selectors (=, ==, !=, in, notin, exists, !key) and field selectors (=, ==, != on dotted paths)
// as the API server parses them from `labelSelector` / `fieldSelector` query parameters.
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
  if (cur.trim()) out.push(cur);
  return out.map((t) => t.trim()).filter((t) => t.length > 0);
}

type LabelTerm = (labels: Record<string, string>) => boolean;

function labelTerm(term: string): LabelTerm {
  const set = /^([^\s!=]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(term);
  if (set) {
    const [, key, op, list] = set as unknown as [string, string, string, string];
    const values = new Set(list.split(',').map((v) => v.trim()));
    return op === 'in'
      ? (l) => l[key] !== undefined && values.has(l[key])
      : (l) => l[key] === undefined || !values.has(l[key]);
  }
  const eq = /^([^\s!=]+)\s*(==|=|!=)\s*([^\s,]*)$/.exec(term);
  if (eq) {
    const [, key, op, value] = eq as unknown as [string, string, string, string];
    return op === '!=' ? (l) => l[key] !== value : (l) => l[key] === value;
  }
  if (/^![^\s!=]+$/.test(term)) return (l) => l[term.slice(1)] === undefined;
  if (/^[^\s!=(),]+$/.test(term)) return (l) => l[term] !== undefined;
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

export function parseFieldSelector(selector: string | null): Matcher {
  if (!selector) return () => true;
  const terms = splitTerms(selector).map((term) => {
    const m = /^([A-Za-z0-9_.]+)\s*(==|=|!=)\s*(.*)$/.exec(term);
    if (!m) throw statusError(400, 'BadRequest', `invalid field selector: "${term}"`);
    const [, dotted, op, value] = m as unknown as [string, string, string, string];
    // Split once per selector, not once per object: a LIST of a 28,000-pod fleet tests every pod.
    const path = dotted.split('.');
    return op === '!='
      ? (o: KubeObject) => fieldValue(o, path) !== value
      : (o: KubeObject) => fieldValue(o, path) === value;
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
