// A discovery worker thread's entry: registers the TypeScript loader (as bin/kraftsman.mjs does), then runs
// discovery-worker.ts; a failure to start is sent to the consumer, which is blocked waiting for replies.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

try {
  register();
  await import('./discovery-worker.ts');
} catch (e) {
  workerData.port.postMessage({
    error: `could not start: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
  });
  const signal = new Int32Array(workerData.signal);
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
}
