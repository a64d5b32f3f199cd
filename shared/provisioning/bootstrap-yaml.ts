// A small YAML writer for the documents kraftsman renders (nodeadm's NodeConfig): maps, lists and scalars, strings
// double-quoted as JSON writes them (a JSON string is a valid YAML double-quoted scalar).

type Value = string | number | boolean | readonly Value[] | { readonly [k: string]: Value };

const key = (k: string): string => (/^[A-Za-z_][A-Za-z0-9_.\/-]*$/.test(k) ? k : JSON.stringify(k));
const scalar = (v: string | number | boolean): string =>
  typeof v === 'string' ? JSON.stringify(v) : String(v);
const isMap = (v: Value): v is { readonly [k: string]: Value } => typeof v === 'object' && !Array.isArray(v);

function lines(v: Value, indent: string): string[] {
  if (Array.isArray(v)) {
    if (v.length === 0) return [`${indent}[]`];
    return v.flatMap((item: Value) => {
      const inner = lines(item, `${indent}  `);
      const first = (inner[0] ?? '').trimStart();
      return typeof item === 'object' ? [`${indent}- ${first}`, ...inner.slice(1)] : [`${indent}- ${first}`];
    });
  }
  if (isMap(v)) {
    const entries = Object.entries(v);
    if (entries.length === 0) return [`${indent}{}`];
    return entries.flatMap(([k, x]) => {
      if (typeof x !== 'object') return [`${indent}${key(k)}: ${scalar(x as string | number | boolean)}`];
      if ((Array.isArray(x) && x.length === 0) || (isMap(x) && Object.keys(x).length === 0))
        return [`${indent}${key(k)}: ${Array.isArray(x) ? '[]' : '{}'}`];
      return [`${indent}${key(k)}:`, ...lines(x, `${indent}  `)];
    });
  }
  return [`${indent}${scalar(v as string | number | boolean)}`];
}

/** The YAML text of a map, one trailing newline. */
export const toYaml = (doc: { readonly [k: string]: Value }): string => `${lines(doc, '').join('\n')}\n`;
export type YamlValue = Value;
