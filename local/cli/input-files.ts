// `-f DIR` as kubectl reads it: the directory's .json, .yaml and .yml files in name order (with -R, its
// subdirectories' too, depth first); any other path, and `-`, is read as given (docs/contract.md "Inputs").
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { InputError } from './errors.ts';

/** The extensions `kubectl apply -f DIR` reads; other files in a directory are skipped, as kubectl skips them. */
const EXTENSIONS = ['.json', '.yaml', '.yml'];
const readable = (name: string): boolean => EXTENSIONS.some((e) => name.toLowerCase().endsWith(e));

async function isDirectory(path: string): Promise<boolean> {
  // a path that cannot be stat'ed is left to the reader, whose error names it (ENOENT, EACCES, ...)
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

async function filesIn(dir: string, recursive: boolean): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((e: unknown) => {
    const code = e instanceof Error && 'code' in e ? ` (${String(e.code)})` : '';
    throw new InputError(`${dir}: cannot read directory${code}`, { cause: e });
  });
  const out: string[] = [];
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const path = join(dir, e.name);
    if (e.isDirectory() || (e.isSymbolicLink() && (await isDirectory(path)))) {
      if (recursive) out.push(...(await filesIn(path, recursive)));
    } else if (readable(e.name)) out.push(path);
  }
  return out;
}

/** Each input path with every directory replaced by the files it holds; a directory with none is an error. */
export async function expandInputs(files: readonly string[], recursive: boolean): Promise<string[]> {
  const out: string[] = [];
  for (const file of files) {
    if (file === '-' || !(await isDirectory(file))) {
      out.push(file);
      continue;
    }
    const found = await filesIn(file, recursive);
    if (found.length === 0)
      throw new InputError(
        `${file}: is a directory with no ${EXTENSIONS.join(', ')} files${recursive ? ' (searched recursively)' : ' (-R reads its subdirectories)'}`,
      );
    out.push(...found);
  }
  return out;
}
