// A discovery worker thread's entry when kraftsman runs from source (the CLI, tests): registers the TypeScript
// loader (as bin/kraftsman.mjs does), then serves; a failure to start is sent to the consumer, which is blocked
// waiting for replies. A Lambda bundle starts its workers on the handler itself (bundle-entry.ts).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

try {
  register();
  const { serveDiscovery } = await import('./discovery-worker.ts');
  serveDiscovery();
} catch (e) {
  workerData.port.postMessage({
    error: `could not start: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
  });
  const signal = new Int32Array(workerData.signal);
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
}
