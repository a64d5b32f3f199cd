// A warm catch-up watch never buffers without bound and never drops a line: against the emulator through
// the adapter, an event line over the cap or a line that is not JSON is a typed error naming the resource
// (and the limit), and the snapshot re-lists that kind instead; a raw 127.0.0.1 server streams one endless line.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { catchUp } from '../../../shared/adapters/kube/catchup.ts';
import { KubeCluster, kubeConfigFor, makeClients } from '../../../shared/adapters/kube/index.ts';
import { KIND_SPECS } from '../../../shared/adapters/kube/kinds.ts';
import {
  MalformedWatchEventError,
  WatchEventTooLargeError,
} from '../../../shared/adapters/kube/watch-stream.ts';
import type { Logger } from '../../../shared/ports/logger.ts';
import { node, startHarness, type Harness } from '../../contracts/cluster/harness.ts';

const MiB = 1024 * 1024;
let h: Harness | undefined;
let raw: Server | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  raw?.closeAllConnections();
  await new Promise<void>((resolve) => (raw ? raw.close(() => resolve()) : resolve()));
  raw = undefined;
});

const logged: { message: string; fields?: Record<string, unknown> }[] = [];
const logger: Logger = {
  debug: () => {},
  info: (message, fields) => void logged.push({ message, fields }),
  warn: () => {},
  error: () => {},
};

async function warmCluster(maxWatchEventBytes: number) {
  h = await startHarness();
  h.emulator.seed([node('n1'), node('n2')]);
  const clients = makeClients(kubeConfigFor(h.url, 't'), {
    timeoutMs: 30_000,
    maxResponseBytes: 64 * MiB,
    maxWatchEventBytes,
  });
  const cluster = new KubeCluster(clients, { catchUpTimeoutSeconds: 1, logger });
  await cluster.readSnapshot();
  return { harness: h, cluster, clients };
}

describe('the watch event-line cap', () => {
  it('re-lists a kind whose watch streams an event larger than the cap, and the big object is read by the LIST', async () => {
    const { harness, cluster } = await warmCluster(1 * MiB);
    logged.length = 0;
    // A node's status.images list is the realistic big object: thousands of cached images, about 2 MiB here.
    const plain = node('big');
    const big = node('big', {
      status: {
        ...(plain.status as object),
        images: Array.from({ length: 20_000 }, (_, i) => ({
          names: [`registry.example.com/ml/train-image-${i}@sha256:${'0'.repeat(64)}`],
          sizeBytes: 9_876_543_210,
        })),
      },
    });
    harness.emulator.seed([big]);
    const warm = await cluster.readSnapshot();
    expect(warm.reads.Node).toMatchObject({ mode: 'relist', objects: 3 });
    expect(warm.objects.nodes.map((n) => n.metadata.name).sort()).toEqual(['big', 'n1', 'n2']);
    expect(logged).toContainEqual({
      message: 'watch ended unusable, re-listing',
      fields: expect.objectContaining({
        kind: 'Node',
        error: 'watch /api/v1/nodes (Node): an event line exceeds 1048576 bytes',
      }),
    });
    // Other kinds were not touched by it.
    expect(warm.reads.Pod.mode).toBe('catch-up');
  });

  it('fails the catch-up itself with WatchEventTooLargeError naming the resource and the limit', async () => {
    const { harness, clients } = await warmCluster(64 * 1024);
    const rv = harness.emulator.store.resourceVersion;
    harness.emulator.seed([
      node('big', { metadata: { name: 'big', annotations: { blob: 'y'.repeat(100_000) } } }),
    ]);
    const err = await catchUp(clients, KIND_SPECS.Node, rv, 1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WatchEventTooLargeError);
    expect((err as Error).message).toBe('watch /api/v1/nodes (Node): an event line exceeds 65536 bytes');
  });

  it('re-lists instead of dropping a watch line that is not JSON (client-node would skip it silently)', async () => {
    const { harness, cluster } = await warmCluster(1 * MiB);
    harness.emulator.inject.push((verb, route) =>
      verb === 'watch' && route.type.kind === 'Node'
        ? { code: 200, body: '{"type":"DELETED",\n' }
        : undefined,
    );
    harness.emulator.seed([node('n3')]);
    const warm = await cluster.readSnapshot();
    expect(warm.reads.Node).toMatchObject({ mode: 'relist', objects: 3 });
  });

  it('cuts off one endless line from a raw server without reading it into memory', async () => {
    let sent = 0;
    raw = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 'z');
      // Streams until the client hangs up: 64 MiB at most, far past the 256 KiB cap.
      const pump = (): void => {
        while (sent < 64 * MiB && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    await new Promise<void>((resolve) => raw?.listen(0, '127.0.0.1', resolve));
    const port = (raw.address() as AddressInfo).port;
    const clients = makeClients(kubeConfigFor(`http://127.0.0.1:${port}`, 't'), {
      timeoutMs: 10_000,
      maxResponseBytes: MiB,
      maxWatchEventBytes: 256 * 1024,
    });
    const err = await catchUp(clients, KIND_SPECS.Pod, '5', 30).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WatchEventTooLargeError);
    expect((err as Error).message).toContain('watch /api/v1/pods (Pod)');
    expect(sent).toBeLessThan(64 * MiB);
  });
});

describe('malformed watch events', () => {
  it('names the resource of a line that is JSON but not an event', async () => {
    const { harness, clients } = await warmCluster(1 * MiB);
    harness.emulator.inject.push((verb, route) =>
      verb === 'watch' && route.type.kind === 'Node' ? { code: 200, body: '[1,2]\n' } : undefined,
    );
    const err = await catchUp(clients, KIND_SPECS.Node, harness.emulator.store.resourceVersion, 1).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(MalformedWatchEventError);
    expect((err as Error).message).toBe('watch /api/v1/nodes (Node): malformed watch event: no event type');
  });
});
