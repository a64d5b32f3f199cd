// The emulator refuses what kube-apiserver refuses, in the real server's Status shape (reason, code,
// details.causes[].field), and pages and bookmarks as it does: local/kube-api/README.md cites each rule's source.
import { CoreV1Api, CustomObjectsApi, type V1Node, type V1Taint } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeConfigFor } from '../../../shared/adapters/kube/client.ts';
import { node, nodeClaim, startHarness, type Harness } from '../../contracts/cluster/harness.ts';

let h: Harness;
let core: CoreV1Api;
let custom: CustomObjectsApi;
const CLAIMS = { group: 'karpenter.sh', version: 'v1', plural: 'nodeclaims' };

interface Status {
  kind: string;
  code: number;
  reason: string;
  message: string;
  details?: { causes?: { reason?: string; field?: string; message?: string }[] };
}
/** The Status body the server answered (client-node keeps it as a string on the ApiException). */
async function refusal(call: Promise<unknown>): Promise<Status> {
  const err: unknown = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!err) throw new Error('the server accepted what it should refuse');
  return JSON.parse(String((err as { body: unknown }).body)) as Status;
}
const fields = (s: Status) => (s.details?.causes ?? []).map((c) => c.field);

beforeAll(async () => {
  h = await startHarness();
  const kc = kubeConfigFor(h.url, 't');
  core = kc.makeApiClient(CoreV1Api);
  custom = kc.makeApiClient(CustomObjectsApi);
  h.emulator.seed([node('a'), node('b'), nodeClaim('claim')]);
});
afterAll(() => h.close());

describe('an update of a custom resource must carry metadata.resourceVersion', () => {
  it('refuses a PUT of a NodeClaim, or of its status, without one: 422 naming metadata.resourceVersion', async () => {
    const current = (await custom.getClusterCustomObject({ ...CLAIMS, name: 'claim' })) as {
      metadata: Record<string, unknown>;
    };
    const { resourceVersion: _rv, ...metadata } = current.metadata;
    for (const put of [
      custom.replaceClusterCustomObject({ ...CLAIMS, name: 'claim', body: { ...current, metadata } }),
      custom.replaceClusterCustomObjectStatus({
        ...CLAIMS,
        name: 'claim',
        body: { ...current, metadata, status: { nodeName: 'x' } },
      }),
    ]) {
      const s = await refusal(put);
      expect(s).toMatchObject({ kind: 'Status', code: 422, reason: 'Invalid' });
      expect(s.message).toBe(
        'nodeclaims.karpenter.sh "claim" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
      );
      expect(fields(s)).toEqual(['metadata.resourceVersion']);
    }
    // With its version the same update is accepted.
    await custom.replaceClusterCustomObjectStatus({
      ...CLAIMS,
      name: 'claim',
      body: { ...current, status: { nodeName: 'x' } },
    });
  });

  it('still lets a built-in kind (a Node) be updated unconditionally, as the real server does', async () => {
    const n = await core.readNode({ name: 'b' });
    const { resourceVersion: _rv, ...metadata } = n.metadata ?? {};
    const updated = await core.replaceNode({
      name: 'b',
      body: { ...n, metadata: { ...metadata, labels: { ...metadata.labels, unconditional: 'yes' } } },
    });
    expect(updated.metadata?.labels?.unconditional).toBe('yes');
  });
});

describe('built-in objects are validated as the API server validates them', () => {
  // As a client sends them: the typed model lets any string through as a key or an effect.
  const withTaints = (name: string, taints: Partial<V1Taint>[]): V1Node =>
    ({ ...node(name), spec: { taints } }) as V1Node;

  it('refuses a taint effect outside NoSchedule, PreferNoSchedule, NoExecute', async () => {
    const s = await refusal(
      core.createNode({
        body: withTaints('bad-effect', [
          { key: 'a', effect: 'NoSchedule' },
          { key: 'b', effect: 'Sometimes' },
        ]),
      }),
    );
    expect(s).toMatchObject({ code: 422, reason: 'Invalid' });
    expect(s.message).toBe(
      'Node "bad-effect" is invalid: spec.taints[1].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
    );
    expect(s.details?.causes).toEqual([
      expect.objectContaining({ reason: 'FieldValueNotSupported', field: 'spec.taints[1].effect' }),
    ]);
  });

  it('refuses an empty or malformed taint key, a taint value with a space and a duplicate key+effect', async () => {
    const s = await refusal(
      core.createNode({
        body: withTaints('bad-taints', [
          { key: '', effect: 'NoSchedule' },
          { key: 'a b', effect: 'NoSchedule' },
          { key: 'team', value: 'a b', effect: 'NoExecute' },
          { key: 'gpu', effect: 'NoSchedule' },
          { key: 'gpu', value: 'other', effect: 'NoSchedule' },
        ]),
      }),
    );
    expect(s.code).toBe(422);
    expect(fields(s)).toEqual([
      'spec.taints[0].key',
      'spec.taints[1].key',
      'spec.taints[2].value',
      'spec.taints[4]',
    ]);
    // The same taint key with another effect is no duplicate.
    await core.createNode({
      body: withTaints('two-effects', [
        { key: 'gpu', effect: 'NoSchedule' },
        { key: 'gpu', effect: 'NoExecute' },
      ]),
    });
  });

  it('refuses a taint added by a patch too: every write is validated, not only creates', async () => {
    const s = await refusal(
      core.patchNode({ name: 'a', body: [{ op: 'add', path: '/spec/taints', value: [{ key: 'k' }] }] }),
    );
    expect(fields(s)).toEqual(['spec.taints[0].effect']);
    expect(s.details?.causes?.[0]?.reason).toBe('FieldValueRequired');
  });

  it('refuses label keys and values and annotation keys out of syntax, and annotations over 256 KiB', async () => {
    const labelled = await refusal(
      core.createNode({
        body: {
          ...node('bad-labels'),
          metadata: { name: 'bad-labels', labels: { 'a/b/c': 'x', team: 'a b' } },
        },
      }),
    );
    expect(fields(labelled)).toEqual(['metadata.labels', 'metadata.labels']);
    const annotated = await refusal(
      core.createNode({
        body: {
          ...node('bad-annotations'),
          metadata: { name: 'bad-annotations', annotations: { 'not ok': 'x', big: 'x'.repeat(256 * 1024) } },
        },
      }),
    );
    expect(annotated.details?.causes).toEqual([
      expect.objectContaining({ reason: 'FieldValueInvalid', field: 'metadata.annotations' }),
      expect.objectContaining({ reason: 'FieldValueTooLong', field: 'metadata.annotations' }),
    ]);
    // Custom resources' metadata is validated the same way.
    const claim = await refusal(
      custom.createClusterCustomObject({
        ...CLAIMS,
        body: nodeClaim('bad-claim', { metadata: { name: 'bad-claim', labels: { team: 'a b' } } }),
      }),
    );
    expect(fields(claim)).toEqual(['metadata.labels']);
  });
});

describe('selectors: only the fields a resource supports, only well-formed label selectors', () => {
  it('answers a field selector on an unsupported field with 400 "field label not supported"', async () => {
    const pods = await refusal(core.listPodForAllNamespaces({ fieldSelector: 'spec.priority=1' }));
    expect(pods).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: 'field label not supported: spec.priority',
    });
    const nodes = await refusal(core.listNode({ fieldSelector: 'spec.providerID=x' }));
    expect(nodes.message).toBe('field label not supported: spec.providerID');
    const claims = await refusal(
      custom.listClusterCustomObject({ ...CLAIMS, fieldSelector: 'status.nodeName=x' }),
    );
    expect(claims).toMatchObject({ code: 400, message: 'field label not supported: status.nodeName' });
  });

  it('serves the supported ones, an absent spec.unschedulable reading "false" as on the real server', async () => {
    const schedulable = await core.listNode({ fieldSelector: 'spec.unschedulable=false,metadata.name=a' });
    expect(schedulable.items.map((n) => n.metadata?.name)).toEqual(['a']);
    const byName = (await custom.listClusterCustomObject({
      ...CLAIMS,
      fieldSelector: 'metadata.name=claim',
    })) as {
      items: unknown[];
    };
    expect(byName.items).toHaveLength(1);
  });

  it('answers a malformed label selector with 400', async () => {
    for (const labelSelector of ['zone in (z1', 'zone in ()', 'team=a b', 'a/b/c=x', 'zone=z1,,gpu'])
      expect(await refusal(core.listNode({ labelSelector }))).toMatchObject({
        code: 400,
        reason: 'BadRequest',
      });
  });
});

describe('resourceVersions the server has not reached', () => {
  it('answers a LIST or GET at a future resourceVersion with 504 Timeout, cause ResourceVersionTooLarge', async () => {
    const future = String(Number(h.emulator.store.resourceVersion) + 1000);
    // client-node's readNode takes no resourceVersion: the GET goes as plain HTTP.
    const get = fetch(`${h.url}/api/v1/nodes/a?resourceVersion=${future}`).then(async (r) =>
      Promise.reject({ body: await r.text() }),
    );
    for (const call of [core.listNode({ resourceVersion: future }), get]) {
      const s = await refusal(call);
      expect(s).toMatchObject({ code: 504, reason: 'Timeout' });
      expect(s.message).toMatch(/^Too large resource version: \d+, current: \d+$/);
      expect(s.details?.causes).toEqual([expect.objectContaining({ reason: 'ResourceVersionTooLarge' })]);
    }
  });
});
