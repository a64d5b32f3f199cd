// Reads JSON text as JSON only: one value or several concatenated (`jq -c` output), at any line length. One
// linear structural scan finds each value's end, bounds nesting depth and finds duplicate keys (which
// JSON.parse silently lets the last one win); JSON.parse then builds each value (docs/input-bounds.md).
import { InputError } from './errors.ts';
import { MAX_DEPTH, type KeyPath, type DuplicateKey } from './input-limits.ts';

interface Frame {
  readonly object: boolean;
  readonly keys: Set<string> | undefined;
  index: number;
}

/** Line and column (1-based) of an offset, for error messages. */
export function lineCol(text: string, offset: number): string {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return `${line}:${offset - start + 1}`;
}

const isWs = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
// characters of numbers and of true/false/null; JSON.parse judges the exact grammar afterwards
const isLiteral = (c: number): boolean =>
  (c >= 0x30 && c <= 0x39) ||
  (c >= 0x61 && c <= 0x7a) ||
  (c >= 0x41 && c <= 0x5a) ||
  c === 0x2d ||
  c === 0x2b ||
  c === 0x2e;

function describe(text: string, i: number): string {
  if (i >= text.length) return 'end of input';
  const c = text[i] as string;
  if (c === '/') return '"/" (JSON has no comments)';
  return JSON.stringify(c);
}

/** Scans one JSON value from `start`; returns its end, and the first duplicate key met, if any. */
class Scanner {
  private i: number;
  private readonly stack: Frame[] = [];
  private readonly path: (string | number)[] = [];
  duplicate: DuplicateKey | undefined;

  constructor(
    private readonly text: string,
    private readonly source: string,
    start: number,
  ) {
    this.i = start;
  }

  private fail(expected: string): never {
    throw new InputError(
      `${this.source}:${lineCol(this.text, this.i)}: JSON syntax error: unexpected ${describe(this.text, this.i)}, expected ${expected}`,
    );
  }

  private skipWs(): number {
    const t = this.text;
    while (this.i < t.length && isWs(t.charCodeAt(this.i))) this.i++;
    return this.i < t.length ? t.charCodeAt(this.i) : -1;
  }

  /** Moves past a string that starts at i; returns its raw text with quotes. */
  private string(): string {
    const t = this.text;
    const start = this.i;
    for (let j = start + 1; ;) {
      const k = t.indexOf('"', j);
      if (k === -1) {
        this.i = t.length;
        this.fail('a closing quote');
      }
      let backslashes = 0;
      while (t.charCodeAt(k - 1 - backslashes) === 0x5c) backslashes++;
      if (backslashes % 2 === 0) {
        this.i = k + 1;
        return t.slice(start, this.i);
      }
      j = k + 1;
    }
  }

  private open(object: boolean): void {
    if (this.stack.length >= MAX_DEPTH)
      throw new InputError(
        `${this.source}:${lineCol(this.text, this.i)}: nesting deeper than ${MAX_DEPTH} levels`,
      );
    this.stack.push({ object, keys: object ? new Set() : undefined, index: 0 });
    this.i++;
  }

  private key(frame: Frame): void {
    const at = this.i;
    const raw = this.string();
    let key: string;
    try {
      key = raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
    } catch {
      this.i = at;
      this.fail('a valid property name');
    }
    if (frame.keys?.has(key) && !this.duplicate)
      this.duplicate = { path: [...this.path, key] as KeyPath, where: lineCol(this.text, at) };
    frame.keys?.add(key);
    this.path.push(key);
    if (this.skipWs() !== 0x3a) this.fail('":"');
    this.i++;
  }

  /** Scans the value; returns the offset just past it. */
  scan(): number {
    let state: 'value' | 'key-or-end' | 'key' | 'value-or-end' | 'after' = 'value';
    for (;;) {
      const c = this.skipWs();
      const top = this.stack[this.stack.length - 1];
      if (state === 'value' || state === 'value-or-end') {
        if (c === 0x5d && state === 'value-or-end') {
          // an empty array: close it and drop the index pushed when it opened
          this.i++;
          this.stack.pop();
          this.path.pop();
        } else if (c === 0x7b) {
          this.open(true);
          state = 'key-or-end';
          continue;
        } else if (c === 0x5b) {
          this.open(false);
          this.path.push(0);
          state = 'value-or-end';
          continue;
        } else if (c === 0x22) this.string();
        else if (c !== -1 && isLiteral(c)) {
          while (this.i < this.text.length && isLiteral(this.text.charCodeAt(this.i))) this.i++;
        } else this.fail('a value');
        state = 'after';
        continue;
      }
      if (state === 'key-or-end' || state === 'key') {
        if (c === 0x7d && state === 'key-or-end') {
          this.i++;
          this.stack.pop();
          state = 'after';
          continue;
        }
        if (c !== 0x22) this.fail('a property name in double quotes');
        this.key(top as Frame);
        state = 'value';
        continue;
      }
      // after a value: `path` holds one segment per open container with a current child (key or index)
      if (top === undefined) return this.i;
      if (top.object) this.path.pop();
      if (c === 0x2c) {
        this.i++;
        if (top.object) state = 'key';
        else {
          top.index++;
          this.path[this.path.length - 1] = top.index;
          state = 'value';
        }
      } else if ((c === 0x7d && top.object) || (c === 0x5d && !top.object)) {
        this.i++;
        this.stack.pop();
        if (!top.object) this.path.pop();
      } else this.fail(top.object ? '"," or "}"' : '"," or "]"');
    }
  }
}

function parseSlice(text: string, source: string, start: number, end: number): unknown {
  try {
    return JSON.parse(text.slice(start, end));
  } catch (e) {
    const at = /position (\d+)/.exec(e instanceof Error ? e.message : '');
    const where = at ? `:${lineCol(text, start + Number(at[1]))}` : '';
    const detail = e instanceof Error ? e.message.replace(/ in JSON at position \d+.*$/, '') : String(e);
    throw new InputError(`${source}${where}: JSON syntax error: ${detail}`, { cause: e });
  }
}

export interface JsonValue {
  readonly value: unknown;
  readonly duplicate: DuplicateKey | undefined;
}

/** Every JSON value in the text, in order (whitespace or `---` lines between them). */
export function parseJsonValues(text: string, source: string): JsonValue[] {
  const out: JsonValue[] = [];
  let i = 0;
  for (;;) {
    while (i < text.length && isWs(text.charCodeAt(i))) i++;
    // a `---` line between values (JSON documents written as a YAML stream) separates them like whitespace
    if (
      text.startsWith('---', i) &&
      (i === 0 || text[i - 1] === '\n') &&
      isWs(text.charCodeAt(i + 3) || 0x0a)
    ) {
      i += 3;
      continue;
    }
    if (i >= text.length) return out;
    const scanner = new Scanner(text, source, i);
    const end = scanner.scan();
    out.push({ value: parseSlice(text, source, i, end), duplicate: scanner.duplicate });
    i = end;
  }
}
