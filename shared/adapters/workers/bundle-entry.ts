// A Lambda bundle's discovery workers start on the bundle's entry module itself (docs/mechanisms/parallel-discovery.md,
// "In Lambda"): its top level calls this, which serves discovery in such a thread and does nothing elsewhere.
import { isMainThread, workerData, type MessagePort } from 'node:worker_threads';
import { DISCOVERY_WORKER, SIGNAL } from './protocol.ts';

/** True in a thread started as a discovery worker. */
export const isDiscoveryWorker = (): boolean =>
  !isMainThread &&
  typeof workerData === 'object' &&
  workerData !== null &&
  (workerData as Record<string, unknown>)[DISCOVERY_WORKER] === true;

/** Serves discovery when this thread is a discovery worker (the worker's code is loaded only then). */
export async function serveIfDiscoveryWorker(): Promise<void> {
  if (!isDiscoveryWorker()) return;
  try {
    const { serveDiscovery } = await import('./discovery-worker.ts');
    serveDiscovery();
  } catch (e) {
    // The consumer is blocked waiting for replies: tell it, as source-entry.mjs does.
    const data = workerData as { port: MessagePort; signal: SharedArrayBuffer };
    data.port.postMessage({
      error: `could not start: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
    });
    const signal = new Int32Array(data.signal);
    Atomics.add(signal, SIGNAL.replies, 1);
    Atomics.notify(signal, SIGNAL.replies);
  }
}
