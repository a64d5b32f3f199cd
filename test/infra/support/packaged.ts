// `osls package` once per content, shared by every test file that reads the packaged service (the template,
// the bundles, the interruption queue): a package takes minutes on a loaded machine. The result is cached
// under .tmp/packaged/<hash of what goes into it>; the first worker packages under a lock, the others wait.
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from './derive.ts';
import { CI_PARAMS, packageService, type Packaged } from './package.ts';

/** Everything the package is built from (and the parameters it is packaged with). */
const INPUTS = ['serverless.yml', 'package-lock.json', 'infra', 'functions', 'shared'];
const WAIT_MS = 600_000;

function filesUnder(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => filesUnder(join(path, name)));
}

function inputHash(): string {
  const h = createHash('sha256');
  h.update(JSON.stringify(CI_PARAMS));
  for (const file of INPUTS.flatMap((p) => filesUnder(join(ROOT, p)))) {
    h.update(relative(ROOT, file));
    h.update(readFileSync(file));
  }
  return h.digest('hex').slice(0, 16);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The packaged service for the current sources, packaging only when no worker has yet. */
export async function packagedService(): Promise<Packaged> {
  const dir = join(ROOT, '.tmp', 'packaged');
  mkdirSync(dir, { recursive: true });
  const hash = inputHash();
  const result = join(dir, `${hash}.json`);
  const lock = join(dir, `${hash}.lock`);
  const started = Date.now();
  while (!existsSync(result)) {
    try {
      mkdirSync(lock);
    } catch {
      // Another worker is packaging; a lock older than the wait is a crashed worker's.
      if (Date.now() - statSync(lock).mtimeMs > WAIT_MS) rmSync(lock, { recursive: true, force: true });
      if (Date.now() - started > WAIT_MS) throw new Error(`waited ${WAIT_MS} ms for ${lock} to package`);
      await sleep(500);
      continue;
    }
    try {
      const partial = `${result}.${process.pid}`;
      writeFileSync(partial, JSON.stringify(await packageService()));
      renameSync(partial, result);
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return JSON.parse(readFileSync(result, 'utf8')) as Packaged;
}
