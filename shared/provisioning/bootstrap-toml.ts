// The TOML that Bottlerocket settings are written in (TOML 1.0): enough to read a user's settings and write them
// back merged — tables, dotted and quoted keys, strings, integers, floats, booleans, arrays, inline tables. What it
// does not read (multi-line strings, dates, arrays of tables) is refused with its line, never dropped.

export type TomlValue = string | number | boolean | TomlValue[] | TomlTable;
export interface TomlTable {
  [key: string]: TomlValue;
}

const isTable = (v: TomlValue | undefined): v is TomlTable =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

class Reader {
  i = 0;
  constructor(
    readonly s: string,
    readonly where: string,
  ) {}
  fail(why: string): never {
    const line = this.s.slice(0, this.i).split('\n').length;
    throw new Error(`${this.where}: TOML line ${line}: ${why}`);
  }
  /** Skips spaces and tabs (and, with `lines`, newlines and comments). */
  skip(lines = false): void {
    for (;;) {
      const c = this.s[this.i];
      if (c === ' ' || c === '\t' || c === '\r') this.i++;
      else if (lines && c === '\n') this.i++;
      else if (c === '#') while (this.i < this.s.length && this.s[this.i] !== '\n') this.i++;
      else return;
    }
  }
  peek = (): string | undefined => this.s[this.i];
  expect(c: string): void {
    if (this.s[this.i] !== c) this.fail(`expected ${JSON.stringify(c)}`);
    this.i++;
  }
  string(): string {
    const q = this.s[this.i];
    if (this.s.startsWith(q === '"' ? '"""' : "'''", this.i))
      this.fail('multi-line strings are not supported');
    this.i++;
    let out = '';
    for (;;) {
      const c = this.s[this.i++];
      if (c === undefined || c === '\n') this.fail('unterminated string');
      if (c === q) return out;
      if (q === '"' && c === '\\') {
        const e = this.s[this.i++];
        const simple: Record<string, string> = {
          b: '\b',
          t: '\t',
          n: '\n',
          f: '\f',
          r: '\r',
          '"': '"',
          '\\': '\\',
        };
        if (e && simple[e] !== undefined) out += simple[e];
        else if (e === 'u' || e === 'U') {
          const n = e === 'u' ? 4 : 8;
          const hex = this.s.slice(this.i, this.i + n);
          if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== n) this.fail('bad unicode escape');
          out += String.fromCodePoint(parseInt(hex, 16));
          this.i += n;
        } else this.fail(`bad escape \\${e ?? ''}`);
      } else out += c;
    }
  }
  key(): string[] {
    const parts: string[] = [];
    for (;;) {
      this.skip();
      const c = this.peek();
      if (c === '"' || c === "'") parts.push(this.string());
      else {
        const m = /^[A-Za-z0-9_-]+/.exec(this.s.slice(this.i));
        if (!m) this.fail('expected a key');
        parts.push(m[0]);
        this.i += m[0].length;
      }
      this.skip();
      if (this.peek() !== '.') return parts;
      this.i++;
    }
  }
  value(): TomlValue {
    this.skip();
    const c = this.peek();
    if (c === '"' || c === "'") return this.string();
    if (c === '[') return this.array();
    if (c === '{') return this.inline();
    const m = /^[^\s,\]}#]+/.exec(this.s.slice(this.i));
    if (!m) this.fail('expected a value');
    this.i += m[0].length;
    const t = m[0];
    if (t === 'true' || t === 'false') return t === 'true';
    if (/^[+-]?(0|[1-9](_?\d)*)$/.test(t)) return Number(t.replace(/_/g, ''));
    if (/^[+-]?(0|[1-9](_?\d)*)(\.\d(_?\d)*)?([eE][+-]?\d+)?$/.test(t)) return Number(t.replace(/_/g, ''));
    return this.fail(`unsupported value ${JSON.stringify(t)} (dates, hex, inf and nan are not read)`);
  }
  array(): TomlValue[] {
    this.expect('[');
    const out: TomlValue[] = [];
    for (;;) {
      this.skip(true);
      if (this.peek() === ']') break;
      out.push(this.value());
      this.skip(true);
      if (this.peek() === ',') this.i++;
      else if (this.peek() !== ']') this.fail('expected , or ] in an array');
    }
    this.i++;
    return out;
  }
  inline(): TomlTable {
    this.expect('{');
    const out: TomlTable = {};
    this.skip();
    if (this.peek() === '}') {
      this.i++;
      return out;
    }
    for (;;) {
      const k = this.key();
      this.expect('=');
      set(out, k, this.value(), this);
      this.skip();
      if (this.peek() === '}') break;
      this.expect(',');
    }
    this.i++;
    return out;
  }
}

function tableAt(root: TomlTable, path: readonly string[], r: Reader): TomlTable {
  let t = root;
  for (const p of path) {
    const next = t[p] ?? (t[p] = {});
    if (!isTable(next)) r.fail(`${path.join('.')}: ${p} is not a table`);
    t = next;
  }
  return t;
}

function set(root: TomlTable, key: readonly string[], v: TomlValue, r: Reader): void {
  const t = tableAt(root, key.slice(0, -1), r);
  const last = key[key.length - 1] as string;
  if (last in t) r.fail(`key ${key.join('.')} defined twice`);
  t[last] = v;
}

/** The document as nested tables; an error names `where`, the line and what is not read. */
export function parseToml(text: string, where: string): TomlTable {
  const r = new Reader(text, where);
  const root: TomlTable = {};
  let current = root;
  for (;;) {
    r.skip(true);
    if (r.peek() === undefined) return root;
    if (r.peek() === '[') {
      r.i++;
      if (r.peek() === '[') r.fail('arrays of tables ([[…]]) are not supported');
      const path = r.key();
      r.expect(']');
      current = tableAt(root, path, r);
    } else {
      const k = r.key();
      r.expect('=');
      set(current, k, r.value(), r);
    }
    r.skip();
    if (r.peek() !== undefined && r.peek() !== '\n') r.fail('expected the end of the line');
  }
}

const tomlKey = (k: string): string => (/^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k));
const inlineValue = (v: TomlValue): string => {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(inlineValue).join(', ')}]`;
  return `{ ${Object.entries(v)
    .map(([k, x]) => `${tomlKey(k)} = ${inlineValue(x)}`)
    .join(', ')} }`;
};

/** TOML text: each table's values under its [header], its sub-tables after them. */
export function writeToml(root: TomlTable): string {
  const out: string[] = [];
  const walk = (t: TomlTable, path: string[]): void => {
    const values = Object.entries(t).filter(([, v]) => !isTable(v));
    const tables = Object.entries(t).filter(([, v]) => isTable(v));
    if (values.length > 0 || (path.length > 0 && tables.length === 0)) {
      if (path.length > 0) out.push(`${out.length ? '\n' : ''}[${path.map(tomlKey).join('.')}]`);
      for (const [k, v] of values) out.push(`${tomlKey(k)} = ${inlineValue(v)}`);
    }
    for (const [k, v] of tables) walk(v as TomlTable, [...path, k]);
  };
  walk(root, []);
  return `${out.join('\n')}\n`;
}

export { isTable };
