// The bounded readers behind -f: JSON as JSON (concatenated values, duplicate keys with their path, no
// comments), YAML with its node budget counted after aliases, and both refusing deep nesting.
import { describe, expect, it } from 'vitest';
import { InputError } from '../../../local/cli/errors.ts';
import { parseJsonValues } from '../../../local/cli/json-values.ts';
import { parseText } from '../../../local/cli/read-input.ts';
import { parseYamlDocuments } from '../../../local/cli/yaml-documents.ts';

const refusal = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    if (e instanceof InputError) return e.message;
    throw e;
  }
  throw new Error('accepted');
};

describe('JSON', () => {
  it('reads concatenated values, with or without --- lines between them', () => {
    expect(parseJsonValues('{"a":1}{"b":2}\n[3]\n---\n"x"', 'f').map((v) => v.value)).toEqual([
      { a: 1 },
      { b: 2 },
      [3],
      'x',
    ]);
  });

  it('finds the first duplicate key with its path, through arrays and escapes', () => {
    const [v] = parseJsonValues('{"items":[{"a":1},{"b":{"c":1,"\\u0063":2}}]}', 'f');
    expect(v?.duplicate).toEqual({ path: ['items', 1, 'b', 'c'], where: '1:31' });
    expect(parseJsonValues('{"a":[],"b":{},"c":[{}]}', 'f')[0]?.duplicate).toBeUndefined();
  });

  it('names the object and field of a duplicate key in a List', () => {
    const text =
      '{"kind":"List","items":[{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"n"},"spec":{"x":1,"x":2}}]}';
    expect(refusal(() => parseText(text, 'f.json'))).toBe(
      'f.json:1:111: Pod n/p: spec.x: duplicate key "x" (a mapping may give each key once)',
    );
  });

  it.each([
    ['{"a":1,}', /1:8: JSON syntax error: unexpected "}", expected a property name/],
    ['[1,2,]', /1:6: JSON syntax error: unexpected "]", expected a value/],
    ['{"a":1 // no\n}', /JSON has no comments/],
    ['{"a": tru}', /JSON syntax error/],
    ['{"a": "b\n"}', /JSON syntax error/],
  ])('refuses %j', (text, message) => expect(refusal(() => parseJsonValues(text, 'f'))).toMatch(message));

  it('refuses nesting deeper than 64 levels and reads 64', () => {
    expect(refusal(() => parseJsonValues(`${'['.repeat(65)}${']'.repeat(65)}`, 'f'))).toMatch(
      /deeper than 64/,
    );
    expect(parseJsonValues(`${'['.repeat(64)}${']'.repeat(64)}`, 'f')).toHaveLength(1);
  });
});

describe('YAML', () => {
  it('counts nodes after aliases, across the whole file', () => {
    const anchor = `a: &a [${Array(1000).fill('x').join(',')}]\n`;
    const refs = (n: number) => Array.from({ length: n }, (_, i) => `r${i}: *a`).join('\n');
    expect(parseYamlDocuments(`${anchor}${refs(100)}\n`, 'f')).toHaveLength(1);
    expect(refusal(() => parseYamlDocuments(`${anchor}${refs(2100)}\n`, 'f'))).toMatch(
      /more than 2000000 nodes/,
    );
    const docs = Array.from({ length: 3 }, () => `${anchor}${refs(700)}`).join('\n---\n');
    expect(refusal(() => parseYamlDocuments(docs, 'f'))).toMatch(/more than 2000000 nodes/);
  });

  it('expands aliases to shared values and finds duplicate keys with their line', () => {
    const [doc] = parseYamlDocuments('a: &x {k: 1}\nb: *x\n', 'f');
    expect(doc?.value).toEqual({ a: { k: 1 }, b: { k: 1 } });
    expect(parseYamlDocuments('m:\n  k: 1\n  k: 2\n', 'f')[0]?.duplicate).toEqual({
      path: ['m', 'k'],
      where: '3:3',
    });
  });

  it('refuses a run of openings and depth reached through aliases', () => {
    expect(refusal(() => parseYamlDocuments(`x: ${'['.repeat(65)}`, 'f'))).toMatch(/deeper than 64/);
    const chain = Array.from({ length: 40 }, (_, i) => `${'  '.repeat(i)}k${i}:`).join('\n');
    const deep = `a: &a\n${chain.replace(/^/gm, '  ')} 1\nb: {c: {d: {e: {f: {g: {h: {i: {j: {k: {l: {m: {n: {o: {p: {q: {r: {s: {t: {u: {v: {w: {x: {y: {z: *a}}}}}}}}}}}}}}}}}}}}}}}}\n`;
    expect(refusal(() => parseYamlDocuments(deep, 'f'))).toMatch(
      /deeper than 64 levels once aliases are expanded/,
    );
  });
});
