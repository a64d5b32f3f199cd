// npm run mutate -- <source file>... [--tests <test file>...] [--skip <test file>...] [--concurrency N]
// Mutation testing with Stryker over the named source files, running only the tests that exercise them: the
// test files that import a named file (resolved import paths, so two gang.ts files are told apart), plus those
// named with --tests, less those named with --skip (a slow property suite, say: the score then counts only the
// others' kills). The mutation vitest config is standalone — its `include` is exactly that list — because
// Stryker's `related` mode and a merged config both pull in the whole suite. Prints the score per file; the
// full report is in .tmp/mutation/, the generated vitest config in test/mutation/vitest.generated.mjs (ignored). Not part of CI (too slow on two cores): the scores are recorded in
// docs/testing.md like benchmark figures.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { Stryker } from '@stryker-mutator/core';

const ROOT = resolve(import.meta.dirname, '../..');
const OUT = join(ROOT, '.tmp/mutation');
/** Where the tests that can kill a mutant quickly live (end-to-end suites only with --tests). */
const TEST_DIRS = ['test/unit', 'test/property', 'test/contracts', 'test/integration'];

interface Args {
  files: string[];
  tests: string[];
  skip: string[];
  concurrency: number;
}

function parseArgs(argv: string[]): Args {
  const files: string[] = [];
  const tests: string[] = [];
  const skip: string[] = [];
  let concurrency = 2;
  let target = files;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--tests') target = tests;
    else if (a === '--skip') target = skip;
    else if (a === '--concurrency') {
      concurrency = Number(argv[++i]);
      if (!Number.isInteger(concurrency) || concurrency < 1)
        throw new Error(`--concurrency must be a positive whole number, got "${argv[i]}"`);
    } else if (a.startsWith('--')) throw new Error(`unknown option ${a}`);
    else target.push(relative(ROOT, resolve(a)));
  }
  if (files.length === 0)
    throw new Error(
      'usage: npm run mutate -- <source file>... [--tests <test file>...] [--skip <test file>...]',
    );
  for (const f of [...files, ...tests, ...skip])
    if (!existsSync(join(ROOT, f))) throw new Error(`${f}: no such file`);
  return { files, tests, skip, concurrency };
}

function testFiles(dir: string): string[] {
  const abs = join(ROOT, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return testFiles(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Test files whose relative imports resolve to one of `sources`. */
function importers(sources: string[]): string[] {
  const wanted = new Set(sources.map((s) => join(ROOT, s)));
  const importRe = /(?:from|import)\s*\(?\s*'(\.[^']+)'/g;
  return TEST_DIRS.flatMap(testFiles).filter((test) => {
    const text = readFileSync(join(ROOT, test), 'utf8');
    for (const m of text.matchAll(importRe)) {
      const target = resolve(dirname(join(ROOT, test)), m[1]!).replace(/\.js$/, '.ts');
      if (wanted.has(target) || wanted.has(`${target}.ts`)) return true;
    }
    return false;
  });
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const tests = [...new Set([...importers(args.files), ...args.tests])]
    .filter((t) => !args.skip.includes(t))
    .sort();
  if (tests.length === 0) throw new Error(`no test imports ${args.files.join(', ')}: name them with --tests`);
  console.log(`mutating ${args.files.join(', ')}\nwith ${tests.length} test files:\n  ${tests.join('\n  ')}`);

  mkdirSync(OUT, { recursive: true });
  // Beside this script, not under .tmp/: Stryker's sandbox copies the project without .tmp.
  const configFile = join(ROOT, 'test/mutation/vitest.generated.mjs');
  writeFileSync(
    configFile,
    `// Written by test/mutation/run.ts for one run: only the tests of the mutated files.\n` +
      `export default { test: { include: ${JSON.stringify(tests)}, testTimeout: 180000, hookTimeout: 120000, pool: 'forks' } };\n`,
  );
  const results = await new Stryker({
    mutate: args.files,
    testRunner: 'vitest',
    plugins: ['@stryker-mutator/vitest-runner'],
    vitest: { configFile: relative(ROOT, configFile), related: false },
    coverageAnalysis: 'perTest',
    concurrency: args.concurrency,
    timeoutMS: 60_000,
    reporters: ['clear-text', 'json'],
    jsonReporter: { fileName: relative(ROOT, join(OUT, 'report.json')) },
    tempDirName: '.tmp/stryker',
    cleanTempDir: 'always',
    ignorePatterns: ['.tmp', 'bench-results', 'coverage', 'dist', '.serverless', '.esbuild'],
  }).runMutationTest();

  const byFile = new Map<string, Record<string, number>>();
  for (const r of results) {
    const counts = byFile.get(r.fileName) ?? {};
    counts[r.status] = (counts[r.status] ?? 0) + 1;
    byFile.set(r.fileName, counts);
  }
  console.log('\nfile | killed | timeout | survived | no coverage | score');
  for (const [file, c] of byFile) {
    const detected = (c.Killed ?? 0) + (c.Timeout ?? 0);
    const undetected = (c.Survived ?? 0) + (c.NoCoverage ?? 0);
    const score = detected + undetected === 0 ? 100 : (100 * detected) / (detected + undetected);
    console.log(
      `${relative(ROOT, resolve(ROOT, file))} | ${c.Killed ?? 0} | ${c.Timeout ?? 0} | ${c.Survived ?? 0} | ${c.NoCoverage ?? 0} | ${score.toFixed(1)}%`,
    );
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
