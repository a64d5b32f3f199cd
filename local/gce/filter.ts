// Compute Engine list filters, the subset kraftsman sends: `a.b = "v"` and `a.b != v` comparisons, each alone
// or in parentheses, joined by AND or by whitespace (Compute Engine's implicit AND). Anything else — OR, NOT,
// the `:` has-operator, `<`/`>`, the regex `eq`/`ne` syntax, an unbalanced parenthesis, a dangling AND — is
// refused with 400 naming the filter, as the real API refuses an expression it cannot parse, rather than dropped
// (a dropped term would list more than the caller asked for). Syntax:
// https://cloud.google.com/compute/docs/reference/rest/v1/instances/list (query parameter `filter`).
import { GceHttpError } from './resources.ts';

type Predicate = (resource: Record<string, unknown>) => boolean;

/** One lexical token: a parenthesis, an operator, a bare word or a quoted string (unquoted). */
interface Token {
  readonly kind: '(' | ')' | 'op' | 'word' | 'string';
  readonly text: string;
}

const TOKEN = /\s*(?:(\()|(\))|(!=|=|:|<=|>=|<|>|~|!~)|"((?:[^"\\]|\\.)*)"|([^\s()"=!:<>~]+))/y;
const PATH = /^[A-Za-z][\w-]*(?:\.[A-Za-z0-9][\w-]*)*$/;
const UNSUPPORTED_WORDS = new Set(['OR', 'NOT', 'eq', 'ne']);

export function compileFilter(filter: string | null | undefined): Predicate {
  const text = (filter ?? '').trim();
  if (!text) return () => true;
  const refuse = (why: string): never => {
    throw new GceHttpError(
      400,
      'invalid',
      `Invalid value for field 'filter': '${text}'. Invalid list filter expression: ${why}.`,
    );
  };
  const tokens = tokenize(text, refuse);
  let at = 0;
  const peek = (): Token | undefined => tokens[at];
  const next = (): Token => tokens[at++] ?? refuse('the expression ends early');

  const comparison = (): Predicate => {
    const path = next();
    if (path.kind !== 'word' || !PATH.test(path.text)) refuse(`expected a field name, found "${path.text}"`);
    const op = next();
    if (op.kind !== 'op' || (op.text !== '=' && op.text !== '!='))
      refuse(`unsupported operator "${op.text}"`);
    const value = next();
    if (value.kind !== 'word' && value.kind !== 'string')
      refuse(`expected a value after "${path.text} ${op.text}"`);
    const keys = path.text.split('.');
    const negate = op.text === '!=';
    return (resource) => {
      let v: unknown = resource;
      for (const k of keys) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
      const equal = v !== undefined && String(v) === value.text;
      return negate ? !equal : equal;
    };
  };
  const term = (): Predicate => {
    if (peek()?.kind !== '(') return comparison();
    next();
    const inner = conjunction();
    if (next().kind !== ')') refuse('a parenthesis is not closed');
    return inner;
  };
  const conjunction = (): Predicate => {
    const terms = [term()];
    for (let t = peek(); t && t.kind !== ')'; t = peek()) {
      if (t.kind === 'word' && t.text === 'AND') {
        next();
        if (!peek() || peek()?.kind === ')') refuse('AND without a right-hand side');
      }
      terms.push(term());
    }
    return (resource) => terms.every((p) => p(resource));
  };

  const predicate = conjunction();
  if (at < tokens.length) refuse(`unexpected "${tokens[at]?.text}"`);
  return predicate;
}

function tokenize(text: string, refuse: (why: string) => never): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    if (/^\s*$/.test(text.slice(TOKEN.lastIndex))) break;
    const from = TOKEN.lastIndex;
    const m = TOKEN.exec(text);
    if (!m) refuse(`cannot read "${text.slice(from)}"`);
    const [, open, close, op, quoted, word] = m as RegExpExecArray;
    if (open) tokens.push({ kind: '(', text: open });
    else if (close) tokens.push({ kind: ')', text: close });
    else if (op) tokens.push({ kind: 'op', text: op });
    else if (quoted !== undefined) tokens.push({ kind: 'string', text: quoted.replace(/\\(.)/g, '$1') });
    else if (word !== undefined) {
      if (UNSUPPORTED_WORDS.has(word)) refuse(`"${word}" is not supported by this emulator`);
      tokens.push({ kind: 'word', text: word });
    }
  }
  return tokens;
}
