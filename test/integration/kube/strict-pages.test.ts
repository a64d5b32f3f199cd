// Pagination and watch bookmarks as kube-apiserver serves them: every page of a LIST reads the first page's
// snapshot, pages may come short or empty with a continue token, bookmarks come on the server's schedule and never
// older than the watch's own resourceVersion (local/kube-api/README.md cites each rule's source).
import { CoreV1Api, Watch } from '@kubernetes/client-node';
import { afterAll, describe, expect, it } from 'vitest';
import { kubeConfigFor } from '../../../shared/adapters/kube/client.ts';
import { node, startHarness, type Harness } from '../../contracts/cluster/harness.ts';
import type { EmulatorOptions } from '../../../local/kube-api/server.ts';

const opened: Harness[] = [];
async function start(options: EmulatorOptions = {}): Promise<{ h: Harness; core: CoreV1Api; watch: Watch }> {
  const h = await startHarness(options);
  opened.push(h);
  const kc = kubeConfigFor(h.url, 't');
  return { h, core: kc.makeApiClient(CoreV1Api), watch: new Watch(kc) };
}
afterAll(() => Promise.all(opened.map((h) => h.close())));
const names = (items: { metadata?: { name?: string } }[]) => items.map((i) => String(i.metadata?.name));

describe('a paginated LIST is one consistent snapshot', () => {
  it('leaves out an object created after page one and still shows one deleted after it', async () => {
    const { h, core } = await start();
    h.emulator.seed(['n1', 'n2', 'n3', 'n4', 'n5'].map((n) => node(n)));
    const first = await core.listNode({ limit: 2 });
    expect(names(first.items)).toEqual(['n1', 'n2']);
    h.emulator.seed([node('n6')]);
    h.emulator.store.delete(h.emulator.typeOf('Node'), undefined, 'n4');
    const seen = [...names(first.items)];
    let cont = first.metadata?._continue;
    while (cont) {
      const page = await core.listNode({ limit: 2, _continue: cont });
      expect(page.metadata?.resourceVersion).toBe(first.metadata?.resourceVersion);
      seen.push(...names(page.items));
      cont = page.metadata?._continue;
    }
    expect(seen).toEqual(['n1', 'n2', 'n3', 'n4', 'n5']);
    // A new LIST reads the present.
    expect(names((await core.listNode({})).items)).toEqual(['n1', 'n2', 'n3', 'n5', 'n6']);
  });
});

describe('short pages (option shortPages)', () => {
  it('serves pages with fewer items than the limit, some empty, each with a continue token until the end', async () => {
    const { h, core } = await start({ shortPages: { seed: 7 } });
    const all = Array.from({ length: 60 }, (_, i) => `n${String(i).padStart(2, '0')}`);
    h.emulator.seed(all.map((n) => node(n)));
    const sizes: number[] = [];
    const seen: string[] = [];
    let cont: string | undefined;
    do {
      const page = await core.listNode({ limit: 10, ...(cont ? { _continue: cont } : {}) });
      sizes.push(page.items.length);
      seen.push(...names(page.items));
      cont = page.metadata?._continue;
    } while (cont);
    expect(seen).toEqual(all);
    expect(sizes.slice(0, -1).some((n) => n > 0 && n < 10)).toBe(true);
    expect(sizes.slice(0, -1)).toContain(0);
  });
});

type Seen = { type: string; name?: string; rv?: string };
function collect(watch: Watch, params: Record<string, string | number | boolean>, onOpen = () => {}) {
  return new Promise<Seen[]>((resolve, reject) => {
    const seen: Seen[] = [];
    watch
      .watch(
        '/api/v1/nodes',
        params,
        (type, obj: { metadata?: { name?: string; resourceVersion?: string } }) =>
          seen.push({
            type,
            ...(type === 'BOOKMARK' ? { rv: obj.metadata?.resourceVersion } : { name: obj.metadata?.name }),
          }),
        () => resolve(seen),
      )
      .then(onOpen, reject);
  });
}

describe('watch bookmarks on the real server schedule', () => {
  it('sends no bookmark right after the replay: a change made while the watch is open comes before it', async () => {
    const { h, watch } = await start();
    const rv = h.emulator.store.resourceVersion;
    const seen = await collect(
      watch,
      { resourceVersion: rv, allowWatchBookmarks: true, timeoutSeconds: 3 },
      () => h.emulator.seed([node('late')]),
    );
    expect(seen.map((e) => e.type)).toEqual(['ADDED', 'BOOKMARK']);
    expect(seen[0]?.name).toBe('late');
  });

  it('sends one right after the replay in the explicit fast mode (bookmarks.afterReplay)', async () => {
    const { h, watch } = await start({ bookmarks: { afterReplay: true } });
    const rv = h.emulator.store.resourceVersion;
    const seen = await collect(
      watch,
      { resourceVersion: rv, allowWatchBookmarks: true, timeoutSeconds: 3 },
      () => setTimeout(() => h.emulator.seed([node('late')]), 200),
    );
    expect(seen.map((e) => e.type)).toEqual(['BOOKMARK', 'ADDED', 'BOOKMARK']);
  });

  it('sends no bookmark older than a watch from a resourceVersion the server has not reached', async () => {
    const { h, watch } = await start();
    const future = String(Number(h.emulator.store.resourceVersion) + 1000);
    const seen = await collect(watch, {
      resourceVersion: future,
      allowWatchBookmarks: true,
      timeoutSeconds: 3,
    });
    expect(seen).toEqual([]);
  });
});
