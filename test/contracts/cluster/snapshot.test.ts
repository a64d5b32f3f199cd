// Contract: the pass snapshot through the real client against the emulator — paginated cold LIST,
// warm WATCH catch-up, 410 Gone fallback to LIST, and invalid objects named by object and field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusError } from '../../../local/kube-api/status.ts';
import { ApiError, InvalidObjectError } from '../../../shared/ports/cluster/errors.ts';
import { SNAPSHOT_KINDS } from '../../../shared/ports/cluster/index.ts';
import { node, nodeClaim, nodePool, pdb, pod, startHarness, type Harness } from './harness.ts';
import type { KubeObject } from '../../../local/kube-api/store.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  h.emulator.seed([
    nodePool('gpu'),
    {
      apiVersion: 'karpenter.k8s.aws/v1',
      kind: 'EC2NodeClass',
      metadata: { name: 'default' },
      spec: { amiSelectorTerms: [{ alias: 'al2023@latest' }] },
    },
    {
      apiVersion: 'karpenter.k8s.gcp/v1alpha1',
      kind: 'GCENodeClass',
      metadata: { name: 'default' },
      spec: { project: 'p' },
    },
    {
      apiVersion: 'scheduling.volcano.sh/v1beta1',
      kind: 'PodGroup',
      metadata: { namespace: 'ml', name: 'gang' },
      spec: { minMember: 2 },
    },
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ml' } },
    {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'gp3' },
      provisioner: 'ebs.csi.aws.com',
    },
    {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { namespace: 'kube-system', name: 'dcgm' },
      spec: { template: { spec: { containers: [{ name: 'd' }] } } },
    },
    pdb('ml', 'web', 1),
    nodeClaim('claim-a'),
    ...Array.from({ length: 12 }, (_, i) => node(`n${i}`)),
    ...Array.from({ length: 23 }, (_, i) =>
      pod('ml', `p${i}`, { spec: { nodeName: `n${i % 12}`, containers: [{ name: 'c' }] } }),
    ),
  ]);
});
afterAll(() => h.close());

describe('the pass snapshot', () => {
  it('lists every kind cold, page by page, into validated model objects', async () => {
    const requestsBefore = h.emulator.stats.requests;
    const read = await h.cluster({ pageSize: 5 }).readSnapshot();
    expect(Object.keys(read.reads).sort()).toEqual([...SNAPSHOT_KINDS].sort());
    expect(read.reads.Pod).toMatchObject({ mode: 'list', objects: 23 });
    expect(read.objects.pods).toHaveLength(23);
    expect(read.objects.nodes).toHaveLength(12);
    expect(read.objects.pods[0]).toMatchObject({ apiVersion: 'v1', kind: 'Pod' });
    expect(read.objects.nodePools[0]?.spec.disruption.budgets).toEqual([{ nodes: '10%' }]);
    expect(read.objects.podGroups[0]?.spec.minMember).toBe(2);
    expect(read.objects.nodeClasses.map((c) => c.kind).sort()).toEqual(['EC2NodeClass', 'GCENodeClass']);
    expect(typeof read.objects.nodes[0]?.metadata.creationTimestamp).toBe('string');
    // 23 pods in pages of 5 take 5 requests at least, 12 nodes 3, every other kind one: the server serves pages
    // short or empty at random (shortPages), as a real one may, so it takes more requests, never fewer items.
    expect(h.emulator.stats.requests - requestsBefore).toBeGreaterThan(5 + 3 + (SNAPSHOT_KINDS.length - 2));
  });

  it('catches a warm reader up by watch, applying adds, changes and deletes', async () => {
    const cluster = h.cluster({ pageSize: 50 });
    await cluster.readSnapshot();
    const pods = h.emulator.typeOf('Pod');
    h.emulator.store.delete(pods, 'ml', 'p0', { gracePeriodSeconds: 0 });
    h.emulator.seed([pod('ml', 'fresh')]);
    h.emulator.store.patch(
      h.emulator.typeOf('Node'),
      undefined,
      'n1',
      'application/merge-patch+json',
      { metadata: { labels: { changed: 'yes' } } },
      undefined,
    );
    const warm = await cluster.readSnapshot();
    expect(warm.reads.Pod).toMatchObject({ mode: 'catch-up', changes: 2, objects: 23 });
    expect(warm.reads.Node).toMatchObject({ mode: 'catch-up', changes: 1 });
    expect(warm.reads.NodePool).toMatchObject({ mode: 'catch-up', changes: 0 });
    expect(warm.objects.pods.map((p) => p.metadata.name)).toContain('fresh');
    expect(warm.objects.pods.map((p) => p.metadata.name)).not.toContain('p0');
    expect(warm.objects.nodes.find((n) => n.metadata.name === 'n1')?.metadata.labels?.changed).toBe('yes');
  });

  it('re-lists a kind whose watch answers 410 Gone', async () => {
    const cluster = h.cluster();
    await cluster.readSnapshot();
    h.emulator.seed([node('late')]);
    h.emulator.store.compact();
    const read = await cluster.readSnapshot();
    expect(read.reads.Node.mode).toBe('relist');
    expect(read.objects.nodes.map((n) => n.metadata.name)).toContain('late');
  });

  it('fails on an invalid object, naming the object and the field', async () => {
    h.emulator.seed([
      pod('ml', 'broken', {
        spec: { containers: [{ name: 'c', resources: { requests: { cpu: 'lots' } } }] },
      }),
    ]);
    const err = await h
      .cluster()
      .readSnapshot()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidObjectError);
    expect((err as InvalidObjectError).message).toContain('Pod ml/broken');
    expect((err as InvalidObjectError).field).toBe('spec.containers[0].resources.requests.cpu');
  });

  it('skips an invalid object with a warning when told to', async () => {
    const read = await h.cluster({ invalid: 'skip' }).readSnapshot();
    expect(read.objects.pods.map((p) => p.metadata.name)).not.toContain('broken');
    expect(read.warnings.join('\n')).toMatch(
      /Pod ml\/broken: invalid field spec\.containers\[0\]\.resources\.requests\.cpu/,
    );
    h.emulator.store.delete(h.emulator.typeOf('Pod'), 'ml', 'broken');
  });

  it('reports each invalid object with the node it concerns, on every warm read, until it parses again', async () => {
    const t = h.emulator.typeOf('Pod');
    const bound = pod('ml', 'unreadable', {
      spec: {
        nodeName: 'n-unreadable',
        containers: [{ name: 'c', resources: { requests: { cpu: 'lots' } } }],
      },
    });
    h.emulator.seed([bound]);
    try {
      const cluster = h.cluster({ invalid: 'skip' });
      const expected = expect.objectContaining({
        kind: 'Pod',
        name: 'unreadable',
        namespace: 'ml',
        nodes: ['n-unreadable'],
        providerIds: [],
      });
      expect((await cluster.readSnapshot()).invalid).toContainEqual(expected);
      // A catch-up with no event about it still reports it: the first read's warning is not enough.
      const warm = await cluster.readSnapshot();
      expect(warm.reads.Pod.mode).toBe('catch-up');
      expect(warm.invalid).toContainEqual(expected);
      const current = h.emulator.store.get(t, 'ml', 'unreadable');
      h.emulator.store.update(
        t,
        'ml',
        'unreadable',
        { ...current, spec: { nodeName: 'n-unreadable', containers: [{ name: 'c' }] } },
        undefined,
      );
      const fixed = await cluster.readSnapshot();
      expect(fixed.invalid.filter((o) => o.name === 'unreadable')).toEqual([]);
      expect(fixed.objects.pods.map((p) => p.metadata.name)).toContain('unreadable');
    } finally {
      h.emulator.store.delete(t, 'ml', 'unreadable', { gracePeriodSeconds: 0 });
    }
  });

  it('surfaces a failed LIST as ApiError with the status and the server reason', async () => {
    h.emulator.beforeRequest.push((verb, r) => {
      if (verb === 'list' && r.type.plural === 'csinodes')
        throw statusError(
          403,
          'Forbidden',
          'csinodes is forbidden: User "kraftsman" cannot list resource "csinodes"',
        );
    });
    const err = await h
      .cluster()
      .readSnapshot()
      .catch((e: unknown) => e);
    h.emulator.beforeRequest.length = 0;
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(403);
    expect((err as ApiError).reason).toBe('Forbidden');
  });

  it('keeps the previous state when a catch-up meets an invalid object, and names it', async () => {
    const cluster = h.cluster();
    const before = await cluster.readSnapshot();
    h.emulator.seed([pod('ml', 'bad-later', { spec: { containers: [] } })]);
    const err = await cluster.readSnapshot().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidObjectError);
    expect((err as InvalidObjectError).message).toBe(
      'Pod ml/bad-later: invalid field spec.containers: a pod needs at least one container',
    );
    h.emulator.store.delete(h.emulator.typeOf('Pod'), 'ml', 'bad-later');
    const after = await cluster.readSnapshot();
    expect(after.reads.Pod.mode).toBe('catch-up');
    expect(after.reads.Pod.changes).toBe(2);
    expect(after.objects.pods.map((p) => p.metadata.name).sort()).toEqual(
      before.objects.pods.map((p) => p.metadata.name).sort(),
    );
  });
});

describe('410 Gone as an HTTP status', () => {
  it('re-lists as well when the server refuses the watch with a plain 410', async () => {
    const plain = await startHarness({ expiredWatch: 'status' });
    try {
      plain.emulator.seed([node('x1')] as KubeObject[]);
      const cluster = plain.cluster();
      await cluster.readSnapshot();
      plain.emulator.seed([node('x2')]);
      plain.emulator.store.compact();
      const read = await cluster.readSnapshot();
      expect(read.reads.Node.mode).toBe('relist');
      expect(read.objects.nodes.map((n) => n.metadata.name)).toEqual(['x1', 'x2']);
    } finally {
      await plain.close();
    }
  });
});
