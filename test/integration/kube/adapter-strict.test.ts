// The Kubernetes adapter never mistakes a failure for an answer, against the stricter emulator through
// the real @kubernetes/client-node: a 200 without items is an error, every request is bounded in time
// and size, an expired continue token re-lists, and a warm catch-up is right when bookmarks come late.
import { afterEach, describe, expect, it } from 'vitest';
import { KubeCluster, kubeConfigFor, makeClients } from '../../../shared/adapters/kube/index.ts';
import { RequestTimeoutError, ResponseTooLargeError } from '../../../shared/adapters/kube/http.ts';
import { MalformedResponseError } from '../../../shared/adapters/kube/raw-list.ts';
import { ApiError } from '../../../shared/ports/cluster/errors.ts';
import type { Route } from '../../../local/kube-api/routes.ts';
import type { EmulatorOptions } from '../../../local/kube-api/server.ts';
import { node, pod, startHarness, type Harness } from '../../contracts/cluster/harness.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});
const start = async (options: EmulatorOptions = {}): Promise<Harness> => {
  h = await startHarness(options);
  h.emulator.seed(Array.from({ length: 12 }, (_, i) => node(`n${i}`)));
  return h;
};
const onNodes = (verb: string) => (v: string, r: Route) => v === verb && r.type.kind === 'Node';

describe('answers that are not answers', () => {
  it('fails a LIST whose 200 has no items instead of reading an empty fleet', async () => {
    const w = await start();
    const isNodeList = onNodes('list');
    w.emulator.inject.push((v, r) =>
      isNodeList(v, r)
        ? { code: 200, body: JSON.stringify({ kind: 'NodeList', metadata: { resourceVersion: '7' } }) }
        : undefined,
    );
    const err = await w
      .cluster()
      .readSnapshot()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MalformedResponseError);
    expect((err as Error).message).toMatch(/GET \/api\/v1\/nodes: malformed list answer: items/);
  });

  it('fails a LIST page that is not JSON, and a pod list without items when draining', async () => {
    const w = await start();
    w.emulator.inject.push((v, r) =>
      v === 'list' && r.type.kind === 'Pod' ? { code: 200, body: '<html>proxy</html>' } : undefined,
    );
    const err = await w
      .cluster()
      .listPodsOnNode('n1')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MalformedResponseError);
    expect((err as Error).message).toContain('not JSON');
  });

  it('bounds every request in time: a server that never answers fails the call', async () => {
    const w = await start();
    const isGet = onNodes('get');
    w.emulator.inject.push((v, r) => (isGet(v, r) ? 'hang' : undefined));
    const clients = makeClients(kubeConfigFor(w.url, 't'), { timeoutMs: 300, maxResponseBytes: 1 << 20 });
    const cluster = new KubeCluster(clients);
    const err = await cluster.getNode('n1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestTimeoutError);
    expect((err as Error).message).toContain('/api/v1/nodes/n1');
  });

  it('bounds every request in size, typed calls and LIST pages alike', async () => {
    const w = await start();
    const huge = JSON.stringify({ kind: 'Node', metadata: { name: 'n1' }, pad: 'x'.repeat(2 << 20) });
    const isGet = onNodes('get');
    const isList = onNodes('list');
    w.emulator.inject.push((v, r) => (isGet(v, r) || isList(v, r) ? { code: 200, body: huge } : undefined));
    const clients = makeClients(kubeConfigFor(w.url, 't'), { timeoutMs: 10_000, maxResponseBytes: 1 << 20 });
    const cluster = new KubeCluster(clients);
    await expect(cluster.getNode('n1')).rejects.toBeInstanceOf(ResponseTooLargeError);
    await expect(cluster.readSnapshot()).rejects.toBeInstanceOf(ResponseTooLargeError);
  });
});

describe('expired continue tokens', () => {
  it('re-lists from the first page when a continue token has expired (410), as client-go does', async () => {
    const w = await start();
    let compactions = 0;
    w.emulator.beforeRequest.push((verb, r) => {
      // Between the first and second page a node is added and etcd compacts: page one's token is too old.
      if (verb === 'list' && r.type.kind === 'Node' && compactions === 0 && w.emulator.stats.requests > 1) {
        compactions++;
        w.emulator.seed([node('added-between-pages')]);
        w.emulator.store.compact();
      }
    });
    const before = w.emulator.audit.count('list', 'nodes');
    const read = await w.cluster({ pageSize: 5 }).readSnapshot();
    // One consistent snapshot, read again from its first page: the node added in between is in it.
    expect(read.objects.nodes).toHaveLength(13);
    expect(compactions).toBe(1);
    // 3 pages, then the refused second page, then 3 pages again — or the refused page came first.
    const lists = w.emulator.audit.count('list', 'nodes') - before;
    expect(lists).toBeGreaterThan(3);
  });

  it('gives up with the 410 when every attempt expires', async () => {
    const w = await start();
    let n = 0;
    w.emulator.beforeRequest.push((verb, r) => {
      if (verb !== 'list' || r.type.kind !== 'Node') return;
      w.emulator.seed([node(`churn-${n++}`)]);
      w.emulator.store.compact();
    });
    const err = await w
      .cluster({ pageSize: 5 })
      .readSnapshot()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 410, reason: 'Expired' });
  });
});

describe('warm catch-up when bookmarks come late, as a real API server sends them', () => {
  it('ends at the watch timeout without a bookmark and resumes from the last event', async () => {
    // kube-apiserver bookmarks about once a minute and 2 s before the timeout: none within a 1 s watch.
    const w = await start({ bookmarks: { afterReplay: false } });
    const cluster = w.cluster({ catchUpTimeoutSeconds: 1 });
    await cluster.readSnapshot();
    w.emulator.seed([
      node('late-1'),
      pod('ml', 'p-late', { spec: { nodeName: 'late-1', containers: [{ name: 'c' }] } }),
    ]);
    const warm = await cluster.readSnapshot();
    expect(warm.reads.Node).toMatchObject({ mode: 'catch-up', changes: 1, objects: 13 });
    expect(warm.reads.Pod).toMatchObject({ mode: 'catch-up', changes: 1, objects: 1 });
    w.emulator.seed([node('late-2')]);
    const again = await cluster.readSnapshot();
    // Nothing applied twice, nothing lost: exactly the one new change since the last event.
    expect(again.reads.Node).toMatchObject({ mode: 'catch-up', changes: 1, objects: 14 });
    expect(Number(again.reads.Node.resourceVersion)).toBeGreaterThan(Number(warm.reads.Node.resourceVersion));
  });

  it('finishes at a bookmark that comes before the timeout, holding changes made while it waited', async () => {
    const w = await start({ bookmarks: { afterReplay: false, delayMs: 0 } });
    // A 3 s watch gets its bookmark 2 s before its timeout, i.e. after about 1 s.
    const cluster = w.cluster({ catchUpTimeoutSeconds: 3 });
    await cluster.readSnapshot();
    const reading = cluster.readSnapshot();
    setTimeout(() => w.emulator.seed([node('during')]), 200);
    const warm = await reading;
    expect(warm.objects.nodes.map((n) => n.metadata.name)).toContain('during');
    expect(warm.reads.Node.resourceVersion).toBe(w.emulator.store.resourceVersion);
  });
});
