// Label selectors (metav1.LabelSelector) compiled once into predicates.
import type { LabelSelector } from '../model/meta.ts';

export type Labels = Readonly<Record<string, string>>;
export type LabelPredicate = (labels: Labels | undefined) => boolean;

const NOTHING: LabelPredicate = () => false;

/** An absent selector selects nothing (as in pod affinity terms); an empty one selects everything. */
export function compileSelector(selector: LabelSelector | undefined): LabelPredicate {
  if (!selector) return NOTHING;
  const match = Object.entries(selector.matchLabels ?? {});
  const exprs = selector.matchExpressions ?? [];
  return (labels) => {
    const l = labels ?? {};
    for (const [k, v] of match) if (l[k] !== v) return false;
    for (const e of exprs) {
      const v = l[e.key];
      switch (e.operator) {
        case 'In':
          if (v === undefined || !(e.values ?? []).includes(v)) return false;
          break;
        case 'NotIn':
          if (v !== undefined && (e.values ?? []).includes(v)) return false;
          break;
        case 'Exists':
          if (v === undefined) return false;
          break;
        case 'DoesNotExist':
          if (v !== undefined) return false;
          break;
      }
    }
    return true;
  };
}

/** A stable text form of a selector, for grouping identical topology constraints. */
export function selectorKey(selector: LabelSelector | undefined): string {
  if (!selector) return '∅';
  const ml = Object.entries(selector.matchLabels ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${v}`);
  const me = (selector.matchExpressions ?? [])
    .map((e) => `${e.key} ${e.operator} ${[...(e.values ?? [])].sort().join('|')}`)
    .sort();
  return `${ml.join(',')};${me.join(',')}`;
}

/**
 * A label every pod the selector selects must carry (its first matchLabels pair, else a single-valued In), so a
 * count can read only the pods indexed under it; undefined when the selector names none.
 */
export function selectorAnchor(
  selector: LabelSelector | undefined,
): { readonly key: string; readonly value: string } | undefined {
  const first = Object.entries(selector?.matchLabels ?? {})[0];
  if (first) return { key: first[0], value: first[1] };
  const single = (selector?.matchExpressions ?? []).find(
    (e) => e.operator === 'In' && e.values?.length === 1,
  );
  return single ? { key: single.key, value: single.values?.[0] as string } : undefined;
}
