// Hostile files: devices, FIFOs, huge and binary files, alias bombs, deep nesting, long JSON lines, JSON that
// is not JSON, duplicate keys. Each must fail fast with exit 2 (or succeed) within the bounds.
import { mkfifoSync } from './fifo.ts';
import { closeSync, openSync, ftruncateSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { inProcessWhere, type HostileCase } from './cases.ts';
import { list, pod, write, type Obj } from './objects.ts';

const args = (file: string): string[] => ['simulate', '-f', file, '-o', 'json'];
const file = (name: string, ext: string, content: string | Buffer) => (dir: string) => ({
  args: args(write(dir, name, ext, content)),
});
const fails = (name: string, ext: string, content: string | Buffer, ...stderr: RegExp[]): HostileCase => ({
  name,
  setup: file(name, ext, content),
  code: 2,
  stderr,
});

function billionLaughs(): string {
  const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  const names = 'abcdefghi';
  for (let i = 1; i < names.length; i++)
    lines.push(
      `${names[i]}: &${names[i]} [${Array(9)
        .fill(`*${names[i - 1]}`)
        .join(',')}]`,
    );
  return `${lines.join('\n')}\n`;
}

/** 999 aliases of one anchor of ~4,000 nodes: a ~150 KB file that would expand to ~4 million nodes. */
function aliasesOfBigAnchor(): string {
  const labels = Array.from({ length: 2000 }, (_, i) => `    k${i}: v${i}`).join('\n');
  const refs = Array.from({ length: 999 }, (_, i) => `  r${i}: *big`).join('\n');
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bomb\nbig: &big\n${labels}\ncopies:\n${refs}\n`;
}

/** A valid snapshot written as one JSON line longer than 1 MiB (what `kubectl get -o json | jq -c` prints). */
function longJsonLine(): string {
  const items: Obj[] = [];
  for (let i = 0; i < 6; i++)
    items.push({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: `team-${i}`, annotations: { 'example.com/notes': 'x'.repeat(200_000) } },
    });
  return JSON.stringify(list(...items));
}

const cases: HostileCase[] = [
  {
    name: 'reads /dev/zero',
    setup: () => ({ args: args('/dev/zero') }),
    code: 2,
    stderr: [/\/dev\/zero: binary data/],
  },
  {
    name: 'reads a FIFO fed without end',
    setup: (dir) => {
      const path = join(dir, 'endless.fifo');
      mkfifoSync(path);
      return { args: args(path), endlessFifo: path };
    },
    code: 2,
    stderr: [/endless\.fifo: larger than 256 MiB \(the input size limit\)/],
  },
  {
    name: 'a 10 GiB file is refused before a byte is read',
    setup: (dir) => {
      const path = join(dir, 'huge.yaml');
      const fd = openSync(path, 'w');
      ftruncateSync(fd, 10 * 1024 ** 3); // sparse: costs no disk
      closeSync(fd);
      return { args: args(path) };
    },
    code: 2,
    stderr: [/huge\.yaml: 10737418240 bytes is larger than 256 MiB/],
  },
  {
    name: 'a directory',
    setup: (dir) => {
      mkdirSync(join(dir, 'adir'), { recursive: true });
      return { args: args(join(dir, 'adir')) };
    },
    code: 2,
    stderr: [/adir: is a directory/],
  },
  {
    name: 'a file that does not exist',
    setup: (dir) => ({ args: args(join(dir, 'nope.yaml')) }),
    code: 2,
    stderr: [/nope\.yaml: cannot read file \(ENOENT\)/],
  },
  fails('an empty file', 'yaml', '', /empty input/),
  fails('a file of blank lines', 'yaml', '\n\n   \n', /empty input/),
  fails('YAML with only document markers', 'yaml', '---\n---\n...\n', /empty input/),
  fails(
    'binary garbage with a NUL',
    'yaml',
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]),
    /binary data \(a NUL byte at offset 4\)/,
  ),
  fails('a top-level scalar', 'yaml', 'hello\n', /a document is not an object/),
  fails(
    'the billion laughs',
    'yaml',
    billionLaughs(),
    /expands to more than 2000000 nodes once aliases are followed/,
  ),
  fails(
    '999 aliases of one large anchor',
    'yaml',
    aliasesOfBigAnchor(),
    /expands to more than 2000000 nodes/,
  ),
  fails(
    'an alias inside its own anchor',
    'yaml',
    'a: &a [1, *a]\n',
    /alias \*a refers to a node that contains it/,
  ),
  fails('an alias with no anchor', 'yaml', 'a: *nothing\n', /YAML syntax error|no anchor/),
  fails(
    '100,000 nested JSON arrays',
    'json',
    `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
    /nesting deeper than 64 levels/,
  ),
  fails(
    '100,000 nested JSON objects',
    'json',
    '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000),
    /nesting deeper than 64 levels/,
  ),
  fails(
    '100,000 nested YAML flow sequences',
    'yaml',
    `x: ${'['.repeat(100_000)}`,
    /nesting deeper than 64 levels/,
  ),
  fails(
    '3,000 nested YAML block sequences',
    'yaml',
    `a:\n${Array.from({ length: 3000 }, (_, i) => `${' '.repeat(i + 1)}- `).join('\n')}\n`,
    /nesting deeper than 64 levels/,
  ),
  fails(
    '65 nested YAML mappings',
    'yaml',
    Array.from({ length: 70 }, (_, i) => `${'  '.repeat(i)}k${i}:`).join('\n') + ' 1\n',
    /nesting deeper than 64 levels/,
  ),
  {
    name: 'one JSON line longer than 1 MiB',
    setup: file('long-line', 'json', longJsonLine()),
    code: 0,
    stderr: [],
    stdout: /"pods": \[\]/,
  },
  {
    name: 'concatenated JSON values (jq -c .items[])',
    setup: file(
      'ndjson',
      'json',
      [pod('a'), pod('b')]
        .map((p) => JSON.stringify({ ...p, spec: { ...(p.spec as Obj), nodeName: 'gone' } }))
        .join('\n'),
    ),
    code: 0,
    stderr: [/Pod default\/a is bound to node gone, which is not in the input/],
    stdout: /"pods": \[\]/,
  },
  {
    name: 'JSON with a byte-order mark',
    setup: file(
      'bom',
      'json',
      `\ufeff${JSON.stringify(list({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' } }))}`,
    ),
    code: 0,
    stderr: [],
    stdout: /"pods": \[\]/,
  },
  fails(
    'JSON with a line comment',
    'json',
    '{\n  // kubectl never prints this\n  "kind": "List"\n}',
    /:2:3: JSON syntax error: unexpected "\/" \(JSON has no comments\)/,
  ),
  fails('JSON with a block comment', 'json', '{"kind": /* no */ "List"}', /JSON has no comments/),
  fails(
    'JSON with a trailing comma in an object',
    'json',
    '{"apiVersion": "v1", "kind": "List",}',
    /:1:37: JSON syntax error: unexpected "}", expected a property name/,
  ),
  fails(
    'JSON with a trailing comma in an array',
    'json',
    '{"apiVersion": "v1", "kind": "List", "items": [1,]}',
    /JSON syntax error: unexpected "]", expected a value/,
  ),
  fails('JSON with single quotes', 'json', "{'kind': 'List'}", /JSON syntax error: unexpected "'"/),
  fails('JSON with NaN', 'json', '{"kind": NaN}', /JSON syntax error/),
  fails(
    'JSON with an unterminated string',
    'json',
    '{"kind": "List',
    /JSON syntax error: unexpected end of input, expected a closing quote/,
  ),
  fails(
    'truncated JSON',
    'json',
    '{"apiVersion": "v1", "items": [',
    /JSON syntax error: unexpected end of input/,
  ),
  fails(
    'JSON with a raw control character in a string',
    'json',
    '{"kind": "Li\u0001st"}',
    /JSON syntax error/,
  ),
  fails('YAML with a tab indentation', 'yaml', 'a:\n\t- b\n', /YAML syntax error/),
  fails('YAML with an unclosed flow mapping', 'yaml', 'a: {b: 1\n', /YAML syntax error/),
  fails(
    'a duplicate spec in JSON erases nodeName',
    'json',
    '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a"},"spec":{"nodeName":"n","containers":[{"name":"c"}]},"spec":{"containers":[{"name":"c"}]}}',
    /:1:\d+: Pod a: spec: duplicate key "spec"/,
  ),
  fails(
    'a duplicate key written with an escape in JSON',
    'json',
    '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a","n\\u0061me":"b"},"spec":{"containers":[{"name":"c"}]}}',
    /Pod b: metadata\.name: duplicate key "name"/,
  ),
  fails(
    'a duplicate key inside a List item in JSON',
    'json',
    JSON.stringify(list(pod('ok'))).replace('"cpu":"100m"', '"cpu":"100m","cpu":"-1"'),
    /Pod default\/ok: spec\.containers\[0\]\.resources\.requests\.cpu: duplicate key "cpu"/,
  ),
  fails(
    'a duplicate spec in YAML',
    'yaml',
    'apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\nspec:\n  nodeName: n\n  containers: [{name: c}]\nspec:\n  containers: [{name: c, resources: {requests: {cpu: "-1"}}}]\n',
    /:8:1: Pod a: spec: duplicate key "spec"/,
  ),
  fails(
    'a duplicate label in YAML',
    'yaml',
    'apiVersion: v1\nkind: Node\nmetadata:\n  name: n\n  labels:\n    a: "1"\n    a: "2"\n',
    /:7:5: Node n: metadata\.labels\.a: duplicate key "a"/,
  ),
];

/** Variants of a rule that another case already runs as a child process: these run in-process (cheaper). */
const VARIANTS = new Set([
  'a file of blank lines',
  'JSON with NaN',
  'JSON with a raw control character in a string',
  'YAML with an unclosed flow mapping',
]);
export const parsingCases: HostileCase[] = inProcessWhere(cases, VARIANTS);
