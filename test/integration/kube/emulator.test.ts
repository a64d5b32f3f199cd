// The emulator speaks the API server's protocol to the real client: discovery, the three patch types,
// status subresources, selectors, pagination, watch with resourceVersion/bookmarks/410, and errors.
import {
  CoreV1Api,
  CustomObjectsApi,
  KubernetesObjectApi,
  PatchStrategy,
  Watch,
  setHeaderOptions,
  type KubernetesObject,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeConfigFor } from '../../../shared/adapters/kube/client.ts';
import { node, nodeClaim, pod, startHarness, type Harness } from '../../contracts/cluster/harness.ts';

let h: Harness;
let core: CoreV1Api;
let custom: CustomObjectsApi;
let watch: Watch;
const status = (e: unknown): number | undefined => (e as { code?: number }).code;

beforeAll(async () => {
  // Full pages: this file checks what a page holds; short and empty pages are strict-pages.test.ts's.
  h = await startHarness({ shortPages: undefined });
  const kc = kubeConfigFor(h.url, 't');
  core = kc.makeApiClient(CoreV1Api);
  custom = kc.makeApiClient(CustomObjectsApi);
  watch = new Watch(kc);
  h.emulator.seed([
    node('a', {
      metadata: { name: 'a', labels: { zone: 'z1', gpu: 'h100' } },
      spec: { taints: [{ key: 'team', value: 'x', effect: 'NoSchedule' }] },
    }),
    node('b', { metadata: { name: 'b', labels: { zone: 'z2' } } }),
    pod('default', 'on-a', { spec: { nodeName: 'a', containers: [{ name: 'c' }] } }),
    pod('default', 'pending', { status: { phase: 'Pending' } }),
    nodeClaim('claim'),
  ]);
});
afterAll(() => h.close());

describe('discovery', () => {
  it('lets KubernetesObjectApi resolve a custom kind to its path', async () => {
    const objects = KubernetesObjectApi.makeApiClient(kubeConfigFor(h.url, 't'));
    const read = await objects.read<KubernetesObject>({
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodeClaim',
      metadata: { name: 'claim' },
    });
    expect(read.metadata?.name).toBe('claim');
  });
});

describe('patches', () => {
  it('applies a JSON patch (the default content type)', async () => {
    const n = await core.patchNode({
      name: 'b',
      body: [{ op: 'add', path: '/metadata/labels/patched', value: 'json' }],
    });
    expect(n.metadata?.labels?.patched).toBe('json');
  });

  it('replaces spec.taints under a strategic merge patch (no patchMergeKey), merges containers by name', async () => {
    const smp = setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch);
    const replaced = await core.patchNode(
      { name: 'a', body: { spec: { taints: [{ key: 'karpenter.sh/disrupted', effect: 'NoSchedule' }] } } },
      smp,
    );
    expect(replaced.spec?.taints?.map((t) => t.key)).toEqual(['karpenter.sh/disrupted']);
    const restored = await core.patchNode(
      { name: 'a', body: { spec: { taints: [{ key: 'team', value: 'x', effect: 'NoSchedule' }] } } },
      smp,
    );
    expect(restored.spec?.taints?.map((t) => t.key)).toEqual(['team']);
    const merged = await core.patchNamespacedPod(
      {
        name: 'on-a',
        namespace: 'default',
        body: { spec: { containers: [{ name: 'sidecar', image: 's' }] } },
      },
      smp,
    );
    expect(merged.spec?.containers.map((c) => c.name)).toEqual(['c', 'sidecar']);
    const deleted = await core.patchNamespacedPod(
      {
        name: 'on-a',
        namespace: 'default',
        body: { spec: { containers: [{ name: 'sidecar', $patch: 'delete' }] } },
      },
      smp,
    );
    expect(deleted.spec?.containers.map((c) => c.name)).toEqual(['c']);
  });

  it('replaces lists and removes null keys under a merge patch', async () => {
    const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
    const n = await core.patchNode(
      {
        name: 'b',
        body: {
          metadata: { labels: { patched: null } },
          spec: { taints: [{ key: 'only', effect: 'NoExecute' }] },
        },
      },
      merge,
    );
    expect(n.metadata?.labels?.patched).toBeUndefined();
    expect(n.spec?.taints).toEqual([{ key: 'only', effect: 'NoExecute' }]);
  });

  it('refuses a strategic merge patch on a custom resource with 415, as the API server does', async () => {
    const smp = setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch);
    const err = await custom
      .patchClusterCustomObject(
        {
          group: 'karpenter.sh',
          version: 'v1',
          plural: 'nodeclaims',
          name: 'claim',
          body: { metadata: { labels: { a: 'b' } } },
        },
        smp,
      )
      .catch((e: unknown) => e);
    expect(status(err)).toBe(415);
  });

  it('answers a patch carrying a stale resourceVersion with 409', async () => {
    const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
    const err = await core
      .patchNode({ name: 'b', body: { metadata: { resourceVersion: '1' } } }, merge)
      .catch((e: unknown) => e);
    expect(status(err)).toBe(409);
  });
});

describe('custom resources are stored as the API server stores them', () => {
  it('prunes fields the CRD schema does not declare and fills its defaults (NodeClaim expireAfter 720h)', async () => {
    const claims = { group: 'karpenter.sh', version: 'v1', plural: 'nodeclaims' };
    const created = (await custom.createClusterCustomObject({
      ...claims,
      body: {
        ...nodeClaim('defaulted'),
        spec: { ...(nodeClaim('x').spec as object), notAField: 'dropped' },
        alsoUnknown: true,
      },
    })) as { spec: Record<string, unknown>; alsoUnknown?: unknown };
    expect(created.spec.expireAfter).toBe('720h');
    expect(created.spec).not.toHaveProperty('notAField');
    expect(created).not.toHaveProperty('alsoUnknown');
    const read = (await custom.getClusterCustomObject({ ...claims, name: 'defaulted' })) as typeof created;
    expect(read.spec.expireAfter).toBe('720h');
    const kept = (await custom.createClusterCustomObject({
      ...claims,
      body: { ...nodeClaim('never'), spec: { ...(nodeClaim('x').spec as object), expireAfter: 'Never' } },
    })) as typeof created;
    expect(kept.spec.expireAfter).toBe('Never');
  });
});

describe('eviction', () => {
  it('is graceful: the pod stays with deletionTimestamp = now + grace until its kubelet confirms', async () => {
    h.emulator.seed([
      pod('default', 'grace', {
        spec: { nodeName: 'a', terminationGracePeriodSeconds: 45, containers: [{ name: 'c' }] },
      }),
      pod('default', 'quick', { spec: { nodeName: 'a', containers: [{ name: 'c' }] } }),
    ]);
    await core.createNamespacedPodEviction({
      name: 'grace',
      namespace: 'default',
      body: { metadata: { name: 'grace', namespace: 'default' } },
    });
    const terminating = await core.readNamespacedPod({ name: 'grace', namespace: 'default' });
    expect(terminating.metadata?.deletionGracePeriodSeconds).toBe(45);
    expect(terminating.metadata?.deletionTimestamp?.toISOString()).toBe('2026-11-30T00:00:45.000Z');
    // deleteOptions.gracePeriodSeconds 0 ends it at once; a uid that is not the pod's is 409.
    const wrongUid = await core
      .createNamespacedPodEviction({
        name: 'quick',
        namespace: 'default',
        body: { metadata: { name: 'quick' }, deleteOptions: { preconditions: { uid: 'other' } } },
      })
      .catch((e: unknown) => e);
    expect(status(wrongUid)).toBe(409);
    await core.createNamespacedPodEviction({
      name: 'quick',
      namespace: 'default',
      body: { metadata: { name: 'quick' }, deleteOptions: { gracePeriodSeconds: 0 } },
    });
    expect(
      status(await core.readNamespacedPod({ name: 'quick', namespace: 'default' }).catch((e: unknown) => e)),
    ).toBe(404);
    h.emulator.terminatePods();
    expect(
      status(await core.readNamespacedPod({ name: 'grace', namespace: 'default' }).catch((e: unknown) => e)),
    ).toBe(404);
  });
});

describe('graceful deletion and updates', () => {
  const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
  // on a node of their own, so that a failure here leaves nothing for the selector tests below to find
  const read = (name: string) =>
    core.readNamespacedPod({ name, namespace: 'default' }).catch((e: unknown) => e);

  it('keeps a pod in its grace period through an update: only a grace period of 0 lets an update delete', async () => {
    h.emulator.seed([pod('default', 'updated', { spec: { nodeName: 'c', containers: [{ name: 'c' }] } })]);
    await core.deleteNamespacedPod({ name: 'updated', namespace: 'default' });
    await core.patchNamespacedPodStatus(
      { name: 'updated', namespace: 'default', body: { status: { phase: 'Running' } } },
      merge,
    );
    await core.patchNamespacedPod(
      { name: 'updated', namespace: 'default', body: { metadata: { labels: { seen: 'yes' } } } },
      merge,
    );
    const kept = (await read('updated')) as Awaited<ReturnType<CoreV1Api['readNamespacedPod']>>;
    expect(kept.metadata?.deletionGracePeriodSeconds).toBe(30);
    expect(kept.metadata?.labels?.seen).toBe('yes');
    h.emulator.terminatePods();
    expect(status(await read('updated'))).toBe(404);
  });

  it('holds a pod whose finalizer outlives its grace period at grace 0, and deletes it with the finalizer', async () => {
    h.emulator.seed([
      pod('default', 'finalized', {
        metadata: { name: 'finalized', namespace: 'default', finalizers: ['example.com/keep'] },
        spec: { nodeName: 'c', containers: [{ name: 'c' }] },
      }),
    ]);
    await core.deleteNamespacedPod({ name: 'finalized', namespace: 'default' });
    h.emulator.terminatePods();
    const held = (await read('finalized')) as Awaited<ReturnType<CoreV1Api['readNamespacedPod']>>;
    expect(held.metadata?.deletionGracePeriodSeconds).toBe(0);
    expect(held.metadata?.deletionTimestamp?.toISOString()).toBe('2026-11-30T00:00:00.000Z');
    await core.patchNamespacedPod(
      { name: 'finalized', namespace: 'default', body: { metadata: { finalizers: [] } } },
      merge,
    );
    expect(status(await read('finalized'))).toBe(404);
  });
});

describe('status subresource', () => {
  it('keeps status on a main-resource update and spec on a status update', async () => {
    const claims = { group: 'karpenter.sh', version: 'v1', plural: 'nodeclaims', name: 'claim' };
    const current = (await custom.getClusterCustomObject(claims)) as Record<string, unknown>;
    const withStatus = (await custom.replaceClusterCustomObjectStatus({
      ...claims,
      body: { ...current, spec: { bogus: true }, status: { nodeName: 'a' } },
    })) as { spec: Record<string, unknown>; status: { nodeName: string } };
    expect(withStatus.status.nodeName).toBe('a');
    expect(withStatus.spec.bogus).toBeUndefined();
    const viaMain = (await custom.replaceClusterCustomObject({
      ...claims,
      body: { ...withStatus, status: { nodeName: 'b' } },
    })) as { status: { nodeName: string } };
    expect(viaMain.status.nodeName).toBe('a');
  });

  it('validates custom resources against the CRD schema (422 names the field)', async () => {
    const err = await custom
      .createClusterCustomObject({
        group: 'karpenter.sh',
        version: 'v1',
        plural: 'nodepools',
        body: {
          apiVersion: 'karpenter.sh/v1',
          kind: 'NodePool',
          metadata: { name: 'bad' },
          spec: { template: { spec: { requirements: [] } } },
        },
      })
      .catch((e: unknown) => e);
    expect(status(err)).toBe(422);
    expect(String((err as { body: string }).body)).toContain('spec.template.spec.nodeClassRef');
  });
});

describe('selectors and pagination', () => {
  it('filters by set-based label selectors and by field selectors', async () => {
    expect(
      (await core.listNode({ labelSelector: 'zone in (z1,z3),gpu' })).items.map((n) => n.metadata?.name),
    ).toEqual(['a']);
    expect((await core.listNode({ labelSelector: '!gpu' })).items.map((n) => n.metadata?.name)).toEqual([
      'b',
    ]);
    expect(
      (await core.listPodForAllNamespaces({ fieldSelector: 'spec.nodeName=a' })).items.map(
        (p) => p.metadata?.name,
      ),
    ).toEqual(['on-a']);
    expect(
      (await core.listPodForAllNamespaces({ fieldSelector: 'status.phase!=Running' })).items.map(
        (p) => p.metadata?.name,
      ),
    ).toEqual(['pending']);
  });

  it('selects pods by spec.nodeName as they are bound, moved and deleted, in pages, namespaced or not', async () => {
    const t = h.emulator.typeOf('Pod');
    const names = ['n1', 'n2', 'n3', 'n4', 'n5', 'n6'];
    h.emulator.seed(
      names.map((n, i) =>
        pod(i % 2 ? 'ix-b' : 'ix-a', n, { spec: { nodeName: i < 4 ? 'ix-1' : 'ix-2', containers: [] } }),
      ),
    );
    const onNode = async (node: string, ns?: string, limit?: number): Promise<string[]> => {
      const out: string[] = [];
      let cont: string | undefined;
      do {
        const q = { fieldSelector: `spec.nodeName=${node},status.phase=Running`, limit, _continue: cont };
        const page = ns
          ? await core.listNamespacedPod({ namespace: ns, ...q })
          : await core.listPodForAllNamespaces(q);
        out.push(...page.items.map((p) => String(p.metadata?.name)));
        cont = page.metadata?._continue;
      } while (cont);
      return out;
    };
    expect(await onNode('ix-1', undefined, 1)).toEqual(['n1', 'n3', 'n2', 'n4']);
    expect(await onNode('ix-1', 'ix-b')).toEqual(['n2', 'n4']);
    // Moved (a replace with another nodeName), then deleted: the selection follows each write.
    const n1 = h.emulator.store.get(t, 'ix-a', 'n1');
    h.emulator.store.update(
      t,
      'ix-a',
      'n1',
      { ...n1, spec: { ...(n1.spec as object), nodeName: 'ix-2' } },
      undefined,
    );
    h.emulator.store.delete(t, 'ix-b', 'n6', { gracePeriodSeconds: 0 });
    expect(await onNode('ix-1')).toEqual(['n3', 'n2', 'n4']);
    expect(await onNode('ix-2', undefined, 2)).toEqual(['n1', 'n5']);
    expect(await onNode('ix-none')).toEqual([]);
  });

  it('pages with limit/continue and rejects a malformed continue token with 400', async () => {
    const first = await core.listNode({ limit: 1 });
    expect(first.items).toHaveLength(1);
    const second = await core.listNode({ limit: 1, _continue: first.metadata?._continue as string });
    expect(second.items.map((n) => n.metadata?.name)).toEqual(['b']);
    expect(second.metadata?._continue).toBeUndefined();
    expect(status(await core.listNode({ _continue: 'garbage' }).catch((e: unknown) => e))).toBe(400);
  });
});

describe('watch', () => {
  const collect = (
    path: string,
    params: Record<string, string | number | boolean>,
    until: (type: string) => boolean,
  ) =>
    new Promise<{ type: string; name?: string; code?: number }[]>((resolve, reject) => {
      const seen: { type: string; name?: string; code?: number }[] = [];
      let ctl: AbortController | undefined;
      let finished = false;
      const done = () => {
        finished = true;
        ctl?.abort();
        resolve(seen);
      };
      watch
        .watch(
          path,
          params,
          (type, obj: { metadata?: { name?: string }; code?: number }) => {
            seen.push({
              type,
              ...(obj.metadata?.name ? { name: obj.metadata.name } : {}),
              ...(obj.code ? { code: obj.code } : {}),
            });
            if (until(type)) done();
          },
          () => done(),
        )
        .then((c) => {
          ctl = c;
          if (finished) c.abort();
        }, reject);
    });

  it('replays changes after a resourceVersion, filtered by label, then bookmarks', async () => {
    const rv = (await core.listNode({})).metadata?.resourceVersion as string;
    h.emulator.seed([
      node('c', { metadata: { name: 'c', labels: { zone: 'z1' } } }),
      node('d', { metadata: { name: 'd', labels: { zone: 'z9' } } }),
    ]);
    const events = await collect(
      '/api/v1/nodes',
      // kube-apiserver bookmarks 2 s before the timeout: within a second of a 3 s watch.
      { resourceVersion: rv, allowWatchBookmarks: true, labelSelector: 'zone=z1', timeoutSeconds: 3 },
      (t) => t === 'BOOKMARK',
    );
    expect(events).toEqual([{ type: 'ADDED', name: 'c' }, { type: 'BOOKMARK' }]);
  });

  it('replays exactly the events after any resourceVersion in the log, each watcher the same lines', async () => {
    const rvs: string[] = [];
    for (const name of ['r0', 'r1', 'r2', 'r3', 'r4']) {
      rvs.push(h.emulator.store.resourceVersion);
      h.emulator.seed([node(name)]);
    }
    for (const [i, rv] of rvs.entries()) {
      const events = await collect(
        '/api/v1/nodes',
        { resourceVersion: rv, allowWatchBookmarks: true, timeoutSeconds: 3 },
        (t) => t === 'BOOKMARK',
      );
      const added = ['r0', 'r1', 'r2', 'r3', 'r4'].slice(i).map((name) => ({ type: 'ADDED', name }));
      expect(events).toEqual([...added, { type: 'BOOKMARK' }]);
    }
  });

  it('answers a watch from a compacted resourceVersion with an ERROR event carrying 410', async () => {
    const rv = (await core.listNode({})).metadata?.resourceVersion as string;
    h.emulator.seed([node('e')]);
    h.emulator.store.compact();
    const events = await collect('/api/v1/nodes', { resourceVersion: rv }, (t) => t === 'ERROR');
    expect(events).toEqual([{ type: 'ERROR', code: 410 }]);
  });
});
