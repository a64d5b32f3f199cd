// The JSONPath subset CRD printer columns use (additionalPrinterColumns[].jsonPath, as kube-apiserver's
// TableConvertor evaluates it): dotted fields with `\.` escaping a dot inside a key (`.metadata.labels.
// karpenter\.sh/nodepool`), list indexes (`[0]`), and equality filters (`[?(@.type=="Ready")]`). A path that
// matches several values prints them comma-joined, as kubectl does; one that matches nothing prints "".

type Step =
  | { kind: 'field'; name: string }
  | { kind: 'index'; at: number }
  | { kind: 'filter'; field: string; value: string };

function parse(path: string): Step[] {
  const steps: Step[] = [];
  let i = 0;
  while (i < path.length) {
    const c = path[i];
    if (c === '.') {
      let name = '';
      i++;
      while (i < path.length && path[i] !== '.' && path[i] !== '[') {
        if (path[i] === '\\' && path[i + 1] === '.') {
          name += '.';
          i += 2;
        } else name += path[i++];
      }
      steps.push({ kind: 'field', name });
    } else if (c === '[') {
      const end = path.indexOf(']', i);
      if (end < 0) throw new Error(`jsonPath ${path}: unclosed [`);
      const inner = path.slice(i + 1, end);
      const filter = /^\?\(@\.([A-Za-z0-9_]+)\s*==\s*["']([^"']*)["']\)$/.exec(inner);
      if (filter) steps.push({ kind: 'filter', field: filter[1] as string, value: filter[2] as string });
      else if (/^\d+$/.test(inner)) steps.push({ kind: 'index', at: Number(inner) });
      else throw new Error(`jsonPath ${path}: unsupported [${inner}]`);
      i = end + 1;
    } else throw new Error(`jsonPath ${path}: unexpected ${JSON.stringify(c)} at ${i}`);
  }
  return steps;
}

function step(values: unknown[], s: Step): unknown[] {
  const out: unknown[] = [];
  for (const v of values) {
    if (s.kind === 'field') {
      if (v !== null && typeof v === 'object' && !Array.isArray(v) && s.name in v)
        out.push((v as Record<string, unknown>)[s.name]);
    } else if (Array.isArray(v)) {
      if (s.kind === 'index') {
        if (s.at < v.length) out.push(v[s.at]);
      } else
        for (const e of v)
          if (
            e !== null &&
            typeof e === 'object' &&
            String((e as Record<string, unknown>)[s.field]) === s.value
          )
            out.push(e);
    }
  }
  return out;
}

/** The values `path` selects in `object`. */
export function evaluate(object: unknown, path: string): unknown[] {
  return parse(path).reduce<unknown[]>(step, [object]);
}

/** The cell text: scalars as they are, objects as JSON, several values comma-joined. */
export function cellText(values: readonly unknown[]): string {
  return values
    .filter((v) => v !== undefined && v !== null)
    .map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v)))
    .join(',');
}
