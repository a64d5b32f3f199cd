// The emulator honours finalizers as the API server does: a DELETE only marks the object (200 with it,
// deletionTimestamp and deletionGracePeriodSeconds 0), the last finalizer's removal completes the deletion,
// and an object being deleted accepts no new finalizer; LIST and WATCH show it marked until then.
import { CoreV1Api, CustomObjectsApi, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeConfigFor } from '../../../shared/adapters/kube/client.ts';
import { node, nodeClaim, startHarness, type Harness } from '../../contracts/cluster/harness.ts';

let h: Harness;
let core: CoreV1Api;
let custom: CustomObjectsApi;
const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const CLAIMS = { group: 'karpenter.sh', version: 'v1', plural: 'nodeclaims' };
const failure = (e: unknown): { code?: number; body?: string } => e as { code?: number; body?: string };

beforeAll(async () => {
  h = await startHarness();
  const kc = kubeConfigFor(h.url, 't');
  core = kc.makeApiClient(CoreV1Api);
  custom = kc.makeApiClient(CustomObjectsApi);
});
afterAll(() => h.close());

describe('finalizers', () => {
  it('marks a Node with finalizers on DELETE and answers 200 with the object', async () => {
    h.emulator.seed([
      node('held', { metadata: { name: 'held', finalizers: ['a.example/x', 'b.example/y'] } }),
    ]);
    // Raw HTTP: the typed client would read the answer as a Status and drop the object's fields.
    const res = await fetch(`${h.url}/api/v1/nodes/held`, {
      method: 'DELETE',
      headers: { authorization: 'Bearer t' },
    });
    expect(res.status).toBe(200);
    const marked = (await res.json()) as { kind: string; metadata: Record<string, unknown> };
    expect(marked.kind).toBe('Node');
    expect(marked.metadata.deletionTimestamp).toBe('2026-11-30T00:00:00Z');
    expect(marked.metadata.deletionGracePeriodSeconds).toBe(0);
    const read = await core.readNode({ name: 'held' });
    expect(read.metadata?.finalizers).toEqual(['a.example/x', 'b.example/y']);
  });

  it('refuses a new finalizer on an object being deleted, and accepts losing one', async () => {
    const err = await core
      .patchNode(
        { name: 'held', body: { metadata: { finalizers: ['a.example/x', 'b.example/y', 'c.example/z'] } } },
        merge,
      )
      .then(() => failure({}), failure);
    expect(err.code).toBe(422);
    expect(err.body).toContain(
      'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted',
    );
    expect(err.body).toContain('c.example/z');
    await core.patchNode({ name: 'held', body: { metadata: { finalizers: ['b.example/y'] } } }, merge);
    expect((await core.readNode({ name: 'held' })).metadata?.finalizers).toEqual(['b.example/y']);
  });

  it('completes the deletion when the last finalizer goes (a JSON patch removal included)', async () => {
    await core.patchNode(
      { name: 'held', body: [{ op: 'remove', path: '/metadata/finalizers/0' }] },
      setHeaderOptions('Content-Type', PatchStrategy.JsonPatch),
    );
    expect(failure(await core.readNode({ name: 'held' }).catch((e: unknown) => e)).code).toBe(404);
  });

  it('holds a NodeClaim the same way, and lets finalizers be added before its deletion', async () => {
    h.emulator.seed([nodeClaim('claim-held')]);
    const name = 'claim-held';
    await custom.patchClusterCustomObject(
      { ...CLAIMS, name, body: { metadata: { finalizers: ['karpenter.sh/termination'] } } },
      merge,
    );
    await custom.deleteClusterCustomObject({ ...CLAIMS, name });
    const held = (await custom.getClusterCustomObject({ ...CLAIMS, name })) as {
      metadata: Record<string, unknown>;
    };
    expect(held.metadata.deletionTimestamp).toBeTruthy();
    await custom.patchClusterCustomObject({ ...CLAIMS, name, body: { metadata: { finalizers: [] } } }, merge);
    const gone = await custom.getClusterCustomObject({ ...CLAIMS, name }).catch((e: unknown) => e);
    expect(failure(gone).code).toBe(404);
  });
  it('shows an object held by a finalizer to LIST and WATCH: MODIFIED with its deletionTimestamp, DELETED once released', async () => {
    h.emulator.seed([
      node('watched', { metadata: { name: 'watched', finalizers: ['karpenter.sh/termination'] } }),
    ]);
    const rv = (await core.listNode()).metadata?.resourceVersion ?? '';
    const abort = new AbortController();
    const stream = await fetch(`${h.url}/api/v1/nodes?watch=true&resourceVersion=${rv}`, {
      headers: { authorization: 'Bearer t' },
      signal: abort.signal,
    });
    await core.deleteNode({ name: 'watched' });
    const listed = (await core.listNode()).items.find((n) => n.metadata?.name === 'watched');
    expect(listed?.metadata?.deletionTimestamp).toBeTruthy();
    await core.patchNode({ name: 'watched', body: { metadata: { finalizers: [] } } }, merge);
    const events: { type: string; deleting: boolean }[] = [];
    const reader = stream.body?.getReader();
    let buffered = '';
    while (reader && !events.some((e) => e.type === 'DELETED')) {
      const { value, done } = await reader.read();
      if (done) break;
      buffered += new TextDecoder().decode(value);
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines.filter(Boolean)) {
        const e = JSON.parse(line) as { type: string; object: { metadata: Record<string, unknown> } };
        if (e.object.metadata.name === 'watched')
          events.push({ type: e.type, deleting: e.object.metadata.deletionTimestamp !== undefined });
      }
    }
    abort.abort();
    // The update that removes the last finalizer is the deletion itself: one DELETED event, no MODIFIED first.
    expect(events).toEqual([
      { type: 'MODIFIED', deleting: true },
      { type: 'DELETED', deleting: true },
    ]);
  });
});
