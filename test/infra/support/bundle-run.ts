// Runs a packaged function the way Lambda does: its zip from `osls package` unpacked, the bundle imported in
// a fresh Node process with the template's environment (local endpoints swapped in), `handler(event,
// context)` called once. Returns the handler's result, or its error, and the JSON log lines it printed.
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const MARK = '@@kraftsman-bundle-result ';

/** Unpacks `<artifacts>/<fn>.zip` and returns the handler file it holds. */
export async function unpackBundle(artifacts: string, fn: string, into: string): Promise<string> {
  const dir = join(into, fn);
  mkdirSync(dir, { recursive: true });
  await run('unzip', ['-o', '-q', join(artifacts, `${fn}.zip`), '-d', dir]);
  return join(dir, 'functions', fn, 'handler.mjs');
}

export interface BundleRun {
  readonly result?: unknown;
  readonly error?: string;
  readonly logs: readonly Record<string, unknown>[];
}

const PROBE = `
const { handler } = await import(process.env.BUNDLE_FILE);
const event = JSON.parse(process.env.BUNDLE_EVENT);
let out;
try { out = { result: await handler(event, { awsRequestId: 'bundle-smoke', functionName: process.env.AWS_LAMBDA_FUNCTION_NAME }) }; }
catch (err) { out = { error: String(err?.stack ?? err) }; }
process.stdout.write('\\n${MARK}' + JSON.stringify(out) + '\\n');
process.exit(0);
`;

export async function runBundle(
  file: string,
  event: unknown,
  env: Record<string, string>,
): Promise<BundleRun> {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', PROBE], {
    env: { PATH: String(process.env.PATH), ...env, BUNDLE_FILE: file, BUNDLE_EVENT: JSON.stringify(event) },
    maxBuffer: 32 * 1024 * 1024,
    timeout: 120_000,
  });
  const lines = stdout.split('\n');
  const last = lines.find((l) => l.startsWith(MARK));
  if (!last) throw new Error(`the bundle printed no result:\n${stdout.slice(-4000)}`);
  const logs = lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
  return { ...(JSON.parse(last.slice(MARK.length)) as { result?: unknown; error?: string }), logs };
}
