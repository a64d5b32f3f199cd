// Runs the CLI's main() in-process with captured output, on files written to a temp folder.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { stringify } from 'yaml';
import { main } from '../../../local/cli/main.ts';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  json<T = Record<string, unknown>>(): T;
}

const sink = (chunks: string[]) =>
  new Writable({
    write(c, _e, cb) {
      chunks.push(String(c));
      cb();
    },
  });

export function tempFile(name: string, content: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'kraftsman-cli-'));
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : stringify(content));
  return path;
}

export async function runCli(argv: string[], stdin = ''): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, {
    stdout: sink(out),
    stderr: sink(err),
    stdin: Readable.from([stdin]),
    now: () => new Date('2026-09-01T12:00:00Z'),
  });
  const stdout = out.join('');
  return { code, stdout, stderr: err.join(''), json: () => JSON.parse(stdout) };
}
