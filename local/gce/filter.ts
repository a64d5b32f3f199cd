// The subset of Compute Engine list filters kraftsman sends: `a.b = "v"` / `a.b != v` terms joined by
// AND or spaces, optionally parenthesised; every term must hold.
const TERM = /\(?\s*([A-Za-z][\w.-]*)\s*(=|!=|eq|ne)\s*"?([^"()\s]*)"?\s*\)?/g;

export function compileFilter(
  filter: string | null | undefined,
): (resource: Record<string, unknown>) => boolean {
  const text = (filter ?? '').trim();
  if (!text) return () => true;
  const terms = [...text.matchAll(TERM)].map(([, path = '', op = '', value = '']) => ({
    path: path.split('.'),
    negate: op === '!=' || op === 'ne',
    value,
  }));
  if (terms.length === 0) throw new Error(`unsupported filter ${JSON.stringify(text)}`);
  return (resource) =>
    terms.every((t) => {
      let v: unknown = resource;
      for (const p of t.path) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[p] : undefined;
      const equal = v !== undefined && String(v) === t.value;
      return t.negate ? !equal : equal;
    });
}
