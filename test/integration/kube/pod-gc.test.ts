// The emulator's PodGC (alive/pod-gc.ts), driven and read through the HTTP API with the real client: orphans
// go after the quarantine, marked Failed with PodGC's DisruptionTarget condition first; terminating pods no
// kubelet will confirm are force-deleted.
import { CoreV1Api, type V1Pod } from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectPodGarbage, POD_GC_QUARANTINE_MS } from '../../../local/kube-api/alive/pod-gc.ts';
import { enableOwnerRecreation } from '../../../local/kube-api/alive/owners.ts';
import { kubeConfigFor } from '../../../shared/adapters/kube/client.ts';
import { node, pod, startHarness, type Harness } from '../../contracts/cluster/harness.ts';

let h: Harness;
let core: CoreV1Api;
let at: number;
const START = Date.parse('2026-11-30T00:00:00Z');
const advance = (ms: number): void => {
  at += ms;
};

beforeEach(async () => {
  at = START;
  h = await startHarness({ now: () => new Date(at) });
  core = kubeConfigFor(h.url, 't').makeApiClient(CoreV1Api);
});
afterEach(() => h.close());

const create = (o: Record<string, unknown>) =>
  core.createNamespacedPod({ namespace: 'ns', body: o as unknown as V1Pod });
const podNames = async (): Promise<string[]> =>
  (await core.listNamespacedPod({ namespace: 'ns' })).items.map((p) => String(p.metadata?.name)).sort();

/** The events a watch replays after `rv`, read as NDJSON over HTTP. */
async function eventsAfter(rv: string): Promise<{ type: string; object: V1Pod }[]> {
  const res = await fetch(
    `${h.url}/api/v1/namespaces/ns/pods?watch=true&resourceVersion=${rv}&timeoutSeconds=1`,
  );
  const text = await res.text();
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { type: string; object: V1Pod })
    .filter((e) => e.type !== 'BOOKMARK');
}

describe('PodGC', () => {
  it('deletes a pod whose node is gone once the quarantine has passed, marking it Failed with DeletionByPodGC first', async () => {
    await core.createNode({ body: node('n1') as never });
    await create(pod('ns', 'orphan', { spec: { nodeName: 'n1', containers: [{ name: 'c' }] } }));
    await create(pod('ns', 'pending', { status: { phase: 'Pending' } }));
    await core.deleteNode({ name: 'n1' });

    expect(collectPodGarbage(h.emulator).orphaned).toEqual([]);
    advance(POD_GC_QUARANTINE_MS - 1000);
    expect(collectPodGarbage(h.emulator).orphaned).toEqual([]);
    expect(await podNames()).toEqual(['orphan', 'pending']);

    const rv = String((await core.listNamespacedPod({ namespace: 'ns' })).metadata?.resourceVersion);
    advance(1000);
    expect(collectPodGarbage(h.emulator)).toEqual({
      orphaned: ['ns/orphan'],
      terminatingOutOfService: [],
      terminatingUnscheduled: [],
    });
    expect(await podNames()).toEqual(['pending']);
    const events = await eventsAfter(rv);
    expect(events.map((e) => `${e.type} ${String(e.object.metadata?.name)}`)).toEqual([
      'MODIFIED orphan',
      'DELETED orphan',
    ]);
    expect(events[0]?.object.status?.phase).toBe('Failed');
    expect(events[0]?.object.status?.conditions).toEqual([
      {
        type: 'DisruptionTarget',
        status: 'True',
        reason: 'DeletionByPodGC',
        message: 'PodGC: node no longer exists',
        lastTransitionTime: '2026-11-30T00:00:40Z',
      },
    ]);
  });

  it('leaves the pods of a node that came back within the quarantine, and those of nodes that exist', async () => {
    await core.createNode({ body: node('n1') as never });
    await core.createNode({ body: node('n2') as never });
    await create(pod('ns', 'on-n1', { spec: { nodeName: 'n1', containers: [{ name: 'c' }] } }));
    await create(pod('ns', 'on-n2', { spec: { nodeName: 'n2', containers: [{ name: 'c' }] } }));
    await core.deleteNode({ name: 'n1' });
    collectPodGarbage(h.emulator);
    advance(20_000);
    await core.createNode({ body: node('n1') as never });
    advance(POD_GC_QUARANTINE_MS);
    expect(collectPodGarbage(h.emulator).orphaned).toEqual([]);
    expect(await podNames()).toEqual(['on-n1', 'on-n2']);
  });

  it('lets a ReplicaSet replace its orphaned pod with a pending one', async () => {
    enableOwnerRecreation(h.emulator);
    await core.createNode({ body: node('n1') as never });
    const owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'u', controller: true };
    await create(
      pod('ns', 'web-abcde', {
        metadata: { namespace: 'ns', name: 'web-abcde', ownerReferences: [owner] },
        spec: { nodeName: 'n1', containers: [{ name: 'c' }] },
      }),
    );
    await core.deleteNode({ name: 'n1' });
    collectPodGarbage(h.emulator);
    advance(60_000);
    expect(collectPodGarbage(h.emulator).orphaned).toEqual(['ns/web-abcde']);
    await new Promise((r) => setImmediate(r));
    const pods = (await core.listNamespacedPod({ namespace: 'ns' })).items;
    expect(pods.map((p) => p.metadata?.name)).toEqual([expect.stringMatching(/^web-(?!abcde)[0-9a-z]{5}$/)]);
    expect(pods[0]?.spec?.nodeName).toBeUndefined();
    expect(pods[0]?.status?.phase).toBe('Pending');
  });

  it('force-deletes a terminating pod on a not-ready out-of-service node, and fails an unscheduled one held by a finalizer', async () => {
    await core.createNode({
      body: node('down', {
        spec: {
          taints: [{ key: 'node.kubernetes.io/out-of-service', value: 'nodeshutdown', effect: 'NoExecute' }],
        },
        status: { conditions: [{ type: 'Ready', status: 'False' }] },
      }) as never,
    });
    await create(pod('ns', 'stuck', { spec: { nodeName: 'down', containers: [{ name: 'c' }] } }));
    await create(
      pod('ns', 'held', {
        metadata: { namespace: 'ns', name: 'held', finalizers: ['example.com/hold'] },
        status: { phase: 'Pending' },
      }),
    );
    await core.deleteNamespacedPod({ namespace: 'ns', name: 'stuck' });
    await core.deleteNamespacedPod({ namespace: 'ns', name: 'held' });
    // The kubelet of a node that is down never confirms the 30 s grace period.
    expect(
      (await core.readNamespacedPod({ namespace: 'ns', name: 'stuck' })).metadata?.deletionTimestamp,
    ).toBeDefined();

    expect(collectPodGarbage(h.emulator)).toEqual({
      orphaned: [],
      terminatingOutOfService: ['ns/stuck'],
      terminatingUnscheduled: ['ns/held'],
    });
    expect(await podNames()).toEqual(['held']);
    const held = await core.readNamespacedPod({ namespace: 'ns', name: 'held' });
    expect(held.status?.phase).toBe('Failed');
    expect(held.status?.conditions).toBeUndefined();
  });
});
