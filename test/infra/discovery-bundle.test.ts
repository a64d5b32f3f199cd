// The consolidate bundle carries its discovery worker (docs/mechanisms/parallel-discovery.md, "In Lambda"): built as
// serverless.yml builds it, the worker's code is in a chunk of its own zip, and a thread started on the bundle's
// handler.mjs with a discovery worker's data serves tasks (it rebuilds the pass and answers), while the main thread
// that imports the same file only gets the handler.
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { DISCOVERY_WORKER, SIGNAL, type WorkerInit } from '../../shared/adapters/workers/protocol.ts';
import { passOptions } from '../../shared/disruption/types.ts';
import { emptyObjects } from '../../shared/state/objects.ts';
import { ROOT } from './support/derive.ts';
import { serverlessEsbuildOptions } from './support/esbuild-options.ts';

const OUT = join(ROOT, '.tmp', `discovery-bundle-${process.pid}`);

describe('the consolidate bundle’s discovery worker', () => {
  afterAll(() => rmSync(OUT, { recursive: true, force: true }));

  it('is carried in a chunk and serves a task in a thread started on handler.mjs', async () => {
    const result = await build({
      ...(await serverlessEsbuildOptions()),
      entryPoints: { handler: join(ROOT, 'functions/consolidate/handler.ts') },
      outdir: OUT,
    });
    const meta = result.metafile ?? { inputs: {}, outputs: {} };
    const carrying = Object.entries(meta.outputs)
      .filter(([, o]) =>
        Object.keys(o.inputs).some((i) => i.endsWith('shared/adapters/workers/discovery-worker.ts')),
      )
      .map(([name]) => name);
    expect(carrying).toHaveLength(1);
    // A chunk named handler.* travels in the function's own zip (serverless.yml's chunkNames).
    expect(carrying[0]).toMatch(/\/handler\.[^/]+\.mjs$/);
    expect(readdirSync(OUT)).toContain('handler.mjs');

    const init: WorkerInit = {
      command: 'plan',
      objects: emptyObjects(),
      instanceTypes: [],
      snapshotOptions: { poolReadiness: true },
      now: '2026-12-08T00:00:00Z',
      options: passOptions({}),
      claimedByCommands: [],
    };
    const signal = new Int32Array(new SharedArrayBuffer(8));
    const { port1, port2 } = new MessageChannel();
    const worker = new Worker(pathToFileURL(join(OUT, 'handler.mjs')), {
      workerData: { [DISCOVERY_WORKER]: true, port: port2, signal: signal.buffer, init },
      transferList: [port2],
    });
    try {
      port1.postMessage({ kind: 'claims', claims: new SharedArrayBuffer(4) });
      port1.postMessage({ kind: 'task', name: 'not-a-candidate', held: [], gen: 0, at: 0 });
      // The worker answers once it has rebuilt the (empty) pass: no such candidate, so no verdict.
      let reply: unknown;
      for (let i = 0; i < 600 && reply === undefined; i++) {
        Atomics.wait(signal, SIGNAL.replies, Atomics.load(signal, SIGNAL.replies), 100);
        reply = receiveMessageOnPort(port1)?.message;
      }
      expect(reply).toEqual({ name: 'not-a-candidate', gen: 0 });
    } finally {
      port1.close();
      await worker.terminate();
    }
  });
});
