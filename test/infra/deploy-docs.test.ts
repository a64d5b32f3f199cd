// The deploy docs (docs/deploy.md and the walkthroughs under docs/deploy/) name only what the deployment has: every
// `--param NAME=` is a parameter serverless.yml or infra/ reads, every KRAFTSMAN_* variable one the template or a
// function's config sets, every `--function` a function, every infra/ path a file, every `kraftsman-*-token` Secret
// one infra/rbac creates — so a copied command never fails on a misspelt name.
import { readFileSync, readdirSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/derive.ts';
import { serviceFunctions } from './support/package.ts';

const DOCS = [
  'docs/deploy.md',
  ...readdirSync(join(ROOT, 'docs/deploy'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/deploy/${f}`),
];
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');
const filesUnder = (dir: string): string[] =>
  readdirSync(join(ROOT, dir)).flatMap((f) =>
    statSync(join(ROOT, dir, f)).isDirectory() ? filesUnder(`${dir}/${f}`) : [`${dir}/${f}`],
  );
const all = (text: string, re: RegExp): string[] => [...text.matchAll(re)].map((m) => m[1] as string);

const TEMPLATE = ['serverless.yml', ...filesUnder('infra').filter((f) => f.endsWith('.yml'))]
  .map(read)
  .join('\n');
const PARAMS = new Set(all(TEMPLATE, /\$\{param:([A-Za-z0-9]+)/g));
const CONFIG = filesUnder('shared/config').map(read).join('\n');
const ENV = new Set([
  ...all(TEMPLATE, /\b(KRAFTSMAN_[A-Z0-9_]+)\b/g),
  ...all(CONFIG, /\b(KRAFTSMAN_[A-Z0-9_]+)\b/g),
]);
const FUNCTIONS = new Set(serviceFunctions().map((f) => f.name));
const RBAC = filesUnder('infra/rbac').map(read).join('\n');

describe.each(DOCS)('%s', (doc) => {
  const text = read(doc);

  it('passes only parameters the template reads', () => {
    const used = all(text, /--param[ =]([A-Za-z0-9]+)=/g);
    expect(doc === 'docs/deploy.md' || used.includes('cluster')).toBe(true);
    for (const name of used) expect(PARAMS, `--param ${name}`).toContain(name);
  });

  it('names only KRAFTSMAN_* variables the template or a function config sets', () => {
    for (const name of all(text, /\b(KRAFTSMAN_[A-Z0-9_]+)\b/g)) expect(ENV, name).toContain(name);
  });

  it('invokes only functions serverless.yml declares', () => {
    for (const name of all(text, /--function ([a-z-]+)/g)) expect(FUNCTIONS, name).toContain(name);
  });

  it('applies and reads only files that exist, and token Secrets infra/rbac creates', () => {
    // infra/… as a command names it, or ../../infra/… as a walkthrough links it (not test/infra/…).
    for (const path of all(text, /(?:(?<=\.\.\/)|(?<![\w/]))(infra\/[A-Za-z0-9_./-]*[A-Za-z0-9_/])/g))
      expect(existsSync(join(ROOT, path)), path).toBe(true);
    for (const name of all(text, /kraftsman-([a-z$%{}:*#]+)-token/g)) {
      const names = name.includes('$') ? ['reconciler', 'reader', 'launcher'] : [name];
      for (const n of names) expect(RBAC, `kraftsman-${n}-token`).toContain(`name: kraftsman-${n}-token`);
    }
  });

  it('edits an example with sed only where the example holds the text it replaces', () => {
    // `sed -e "s#FROM#TO#" … infra/examples/F.yaml > out.yaml`, continued over lines with `\`.
    for (const m of text.matchAll(/sed ((?:[^\n]|\\\n)*?)infra\/examples\/([\w.-]+)/g)) {
      const example = read(`infra/examples/${m[2]}`);
      const subs = [...(m[1] as string).matchAll(/"s([#/])(.+?)\1/g)].map((x) => x[2] as string);
      expect(subs.length, m[0]).toBeGreaterThan(0);
      for (const from of subs) expect(example, `${m[2]}: ${from}`).toContain(from);
    }
  });
});
