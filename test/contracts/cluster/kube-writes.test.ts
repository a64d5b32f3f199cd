// KubeCluster specifics beyond the port contract: the wire shape of its writes (content types,
// resourceVersion preconditions) and how API rejections surface as ApiError.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/ports/cluster/errors.ts';
import type { NodeClaim } from '../../../shared/model/nodeclaim.ts';
import { node, startHarness, type Harness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('KubeCluster on the wire', () => {
  it('sends taints as a JSON merge patch whose resourceVersion makes a stale write fail with 409', async () => {
    h.emulator.seed([node('t1')]);
    const nodes = h.emulator.typeOf('Node');
    let raced = false;
    h.emulator.beforeRequest.push((verb) => {
      if (verb === 'patch' && !raced) {
        raced = true;
        h.emulator.store.patch(
          nodes,
          undefined,
          't1',
          'application/merge-patch+json',
          { metadata: { labels: { late: 'x' } } },
          undefined,
        );
      }
    });
    const from = h.emulator.audit.length;
    await h.cluster().addTaint('t1', { key: 'karpenter.sh/disrupted', effect: 'NoSchedule' });
    h.emulator.beforeRequest.length = 0;
    const verbs = h.emulator.audit
      .since(from)
      .map((a) => `${a.verb} ${a.resource}${a.contentType ? ` ${a.contentType}` : ''}`);
    // read, patch (409: the stale resourceVersion), re-read, patch.
    expect(verbs).toEqual([
      'get nodes',
      'patch nodes application/merge-patch+json',
      'get nodes',
      'patch nodes application/merge-patch+json',
    ]);
  });

  it('writes NodeClaim status with PUT on the status subresource and metadata with a merge patch', async () => {
    const cluster = h.cluster();
    const claim: NodeClaim = {
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodeClaim',
      metadata: { name: 'c1' },
      spec: {
        nodeClassRef: { group: 'karpenter.k8s.gcp', kind: 'GCENodeClass', name: 'default' },
        requirements: [],
      },
    };
    await cluster.createNodeClaim(claim);
    const from = h.emulator.audit.length;
    await cluster.updateNodeClaimStatus('c1', (s) => ({ ...s, nodeName: 'n1' }));
    await cluster.patchMetadata('NodeClaim', 'c1', {
      annotations: { 'kraftsman.dev/termination-cause': 'preempted' },
    });
    expect(
      h.emulator.audit
        .since(from)
        .map((a) => `${a.verb} ${a.resource}${a.contentType ? ` ${a.contentType}` : ''}`),
    ).toEqual([
      'get nodeclaims',
      'update nodeclaims/status',
      'patch nodeclaims application/merge-patch+json',
    ]);
  });

  it('removes a finalizer by JSON patch pinned to its resourceVersion, keeping one added concurrently', async () => {
    h.emulator.seed([node('w1', { metadata: { name: 'w1', finalizers: ['karpenter.sh/termination'] } })]);
    const nodes = h.emulator.typeOf('Node');
    let raced = false;
    h.emulator.beforeRequest.push((verb) => {
      if (verb !== 'patch' || raced) return;
      raced = true;
      // Another controller adds its finalizer between kraftsman's read and its patch.
      const late = ['karpenter.sh/termination', 'example.com/late'];
      h.emulator.store.patch(
        nodes,
        undefined,
        'w1',
        'application/merge-patch+json',
        { metadata: { finalizers: late } },
        undefined,
      );
    });
    const from = h.emulator.audit.length;
    await h.cluster().removeFinalizer('Node', 'w1', 'karpenter.sh/termination');
    h.emulator.beforeRequest.length = 0;
    expect(
      h.emulator.audit
        .since(from)
        .map((a) => `${a.verb} ${a.resource}${a.contentType ? ` ${a.contentType}` : ''}`),
    ).toEqual([
      'get nodes',
      'patch nodes application/json-patch+json',
      'get nodes',
      'patch nodes application/json-patch+json',
    ]);
    expect((await h.cluster().getNode('w1')).metadata.finalizers).toEqual(['example.com/late']);
  });

  it('surfaces a claim the CRD schema rejects as ApiError 422 with the object and the field', async () => {
    const bad: NodeClaim = {
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodeClaim',
      metadata: { name: 'c2' },
      spec: {
        nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
        requirements: [{ key: 'k', operator: 'Near' as 'In', values: ['x'] }],
      },
    };
    const err = await h
      .cluster()
      .createNodeClaim(bad)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 422, reason: 'Invalid', object: { kind: 'NodeClaim', name: 'c2' } });
    expect((err as ApiError).message).toContain('spec.requirements[0].operator');
  });
});
