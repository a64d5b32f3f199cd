// The local fleet's census workers (docs/mechanisms/census.md#fan-out): each invocation of census-worker runs the
// same handler in a child process of its own, as Lambda runs it in a container of its own, against the fleet's
// DynamoDB and S3 emulator; a process that fails (or is killed) fails the invocation, retried once as deployed.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { InProcessInvoker } from '../../shared/adapters/memory/invoker.ts';
import { LOCAL_CREDENTIALS } from '../dynamodb/credentials.ts';

const MAIN = fileURLToPath(new URL('./census-worker-main.ts', import.meta.url));

/** Runs one invocation in a child process; resolves to its result, rejects with its stderr's tail. */
export function runWorkerProcess(payload: unknown, env: Readonly<Record<string, string>>): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
      env: {
        PATH: process.env.PATH ?? '',
        ...env,
        AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
        AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
        KRAFTSMAN_LOG_LEVEL: 'ERROR',
      },
      // fd 3 carries the result; stdout what the function logs (its EMF metrics among it), as Lambda's would
      stdio: ['pipe', 'ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr?.on('data', (d: Buffer) => (err += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) {
        try {
          resolve(JSON.parse(out) as unknown);
        } catch (e) {
          reject(
            new Error(`census-worker process answered no JSON result: ${out.slice(0, 200)}`, { cause: e }),
          );
        }
      } else reject(new Error(`census-worker process exited ${signal ?? code}: ${err.slice(-2000)}`));
    });
    child.stdin?.end(JSON.stringify(payload));
  });
}

/** An Invoker whose census-worker target is a child process per invocation (two attempts, as deployed). */
export function workerProcesses(env: Readonly<Record<string, string>>): InProcessInvoker {
  return new InProcessInvoker(2).register('census-worker', (payload) => runWorkerProcess(payload, env));
}
