// Every citation resolves inside the repository (docs/README.md): code comments cite docs/<page>.md pages that
// exist and never the design files outside it, and every repository path a docs page names exists.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const SOURCE_DIRS = ['shared', 'functions', 'local', 'test', 'bin', 'infra', '.ci'];
const SOURCE_FILES = ['eslint.config.js', 'serverless.yml', 'vitest.config.ts'];
const SCRIPT = /\.(?:ts|mts|js|mjs)$/;
const HASH_COMMENTED = /(?:\.ya?ml|^run)$/;

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'data' ? [] : walk(path);
    return SCRIPT.test(e.name) || HASH_COMMENTED.test(e.name) ? [path] : [];
  });
}

/** Every comment of a script, found by the TypeScript parser (so `//` inside a string is not a comment). */
function scriptComments(path: string, text: string): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false);
  const seen = new Map<number, string>();
  const collect = (ranges: readonly ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) seen.set(r.pos, text.slice(r.pos, r.end));
  };
  const visit = (node: ts.Node) => {
    collect(ts.getLeadingCommentRanges(text, node.pos));
    collect(ts.getTrailingCommentRanges(text, node.end));
    node.forEachChild(visit);
  };
  collect(ts.getLeadingCommentRanges(text, 0));
  visit(file);
  return [...seen.values()];
}

/** `#` comments of YAML and shell files: a `#` at the start of a line or after whitespace. */
const hashComments = (text: string): string[] =>
  text.split('\n').flatMap((line) => /(?:^|\s)#(.*)$/.exec(line)?.[1] ?? []);

interface Comment {
  readonly file: string;
  readonly text: string;
}

function comments(): Comment[] {
  const files = [
    ...SOURCE_DIRS.flatMap((d) => walk(join(root, d))),
    ...SOURCE_FILES.map((f) => join(root, f)),
  ];
  return files.flatMap((path) => {
    const text = readFileSync(path, 'utf8');
    const found = SCRIPT.test(path) ? scriptComments(path, text) : hashComments(text);
    return found.map((c) => ({ file: relative(root, path), text: c }));
  });
}

const all = comments();
// A citation of this repository's docs: `docs/…md` not inside another path (`…/website/content/en/docs/…` is
// another project's file).
const DOC_CITATION = /(?<![\w./-])docs\/[\w./-]+?\.md\b/g;

describe('citations in code comments', () => {
  it('finds the comments of the source tree (the scanner works)', () => {
    expect(all.length).toBeGreaterThan(500);
    expect(all.some((c) => c.file === 'eslint.config.js' && /docs\/architecture\.md/.test(c.text))).toBe(
      true,
    );
  });

  it('cite only docs pages that exist', () => {
    const cited = all.flatMap((c) =>
      [...c.text.matchAll(DOC_CITATION)].map((m) => ({ file: c.file, page: m[0] })),
    );
    expect(cited.length).toBeGreaterThan(20);
    const missing = cited.filter((c) => !existsSync(join(root, c.page)));
    expect(missing.map((m) => `${m.file}: ${m.page}`)).toEqual([]);
  });

  it('never cite the design files that live outside the repository', () => {
    const outside = /\b(?:DESIGN|STYLE|CONTRACT|BENCHMARKS)\b|\(seed[,:;)]|\barticle\b/;
    const offending = all.filter((c) => outside.test(c.text));
    expect(offending.map((c) => `${c.file}: ${c.text.trim().slice(0, 120)}`)).toEqual([]);
  });
});

/** Backticked repository paths in a docs page (placeholders like `<name>` and globs are not paths). */
function namedPaths(markdown: string): string[] {
  const paths = [
    ...markdown.matchAll(/`((?:shared|test|local|infra|functions|bin|docs|examples)\/[^`\s]*)`/g),
  ];
  return paths.map((m) => m[1] ?? '').filter((p) => p && !/[<>*]/.test(p));
}

/** The Lambda handlers are described before they are written; once functions/ exists, its paths must too. */
const planned = (path: string): boolean =>
  path.startsWith('functions/') && !existsSync(join(root, 'functions'));

/** Relative markdown links, without their anchors. */
const links = (markdown: string): string[] =>
  [...markdown.matchAll(/\]\(([^)#:\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1] ?? '').filter(Boolean);

describe('the docs pages', () => {
  const pages = readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => join(root, 'docs', f));

  it('include the architecture, the contract and one page per mechanism', () => {
    const names = pages.map((p) => relative(root, p));
    for (const page of [
      'docs/README.md',
      'docs/architecture.md',
      'docs/contract.md',
      ...[
        'pass-reads',
        'simulation-copy',
        'verdict-exclusion',
        'coverage-cycle',
        'candidate-budget',
        'negative-cache',
        'batched-admission',
        'attribution',
        'gangs',
        'per-pool-domains',
        'census',
        'identity',
      ].map((m) => `docs/mechanisms/${m}.md`),
    ])
      expect(names).toContain(page);
  });

  it('name only repository paths that exist, and link only to files that exist', () => {
    const broken = pages.flatMap((page) => {
      const text = readFileSync(page, 'utf8');
      const dir = join(page, '..');
      return [
        ...namedPaths(text).filter((p) => !existsSync(join(root, p)) && !planned(p)),
        ...links(text).filter((l) => !existsSync(join(dir, l))),
      ].map((p) => `${relative(root, page)}: ${p}`);
    });
    expect(broken).toEqual([]);
  });
});
