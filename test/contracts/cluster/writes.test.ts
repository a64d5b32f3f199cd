// Contract: the Cluster port's writes through the real client against the emulator — taints with
// optimistic locking and bounded conflict retries, metadata, NodeClaim lifecycle, Node delete, eviction.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AlreadyExistsError, ApiError, ConflictError, NotFoundError } from '../../../shared/ports/cluster.ts';
import type { NodeClaim } from '../../../shared/model/nodeclaim.ts';
import { node, nodeClaim, pdb, pod, startHarness, type Harness } from './harness.ts';

const DISRUPTED = { key: 'karpenter.sh/disrupted', effect: 'NoSchedule' } as const;
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => {
  h.emulator.beforeRequest.length = 0;
});

const nodes = () => h.emulator.typeOf('Node');
const touchNode = (name: string, label: string) =>
  h.emulator.store.patch(nodes(), undefined, name, 'application/merge-patch+json', { metadata: { labels: { [label]: 'x' } } }, undefined);

describe('node taints', () => {
  it('adds the disrupted taint once and removes it again', async () => {
    h.emulator.seed([node('t1', { spec: { taints: [{ key: 'team', value: 'a', effect: 'NoSchedule' }] } })]);
    const cluster = h.cluster();
    const tainted = await cluster.addTaint('t1', DISRUPTED);
    expect(tainted.spec?.taints).toEqual([{ key: 'team', value: 'a', effect: 'NoSchedule' }, DISRUPTED]);
    const again = await cluster.addTaint('t1', DISRUPTED);
    expect(again.spec?.taints).toHaveLength(2);
    const untainted = await cluster.removeTaint('t1', DISRUPTED.key, DISRUPTED.effect);
    expect(untainted.spec?.taints).toEqual([{ key: 'team', value: 'a', effect: 'NoSchedule' }]);
  });

  it('sends the taint patch as a JSON merge patch carrying the resourceVersion it read', async () => {
    h.emulator.seed([node('t2')]);
    const rv = h.emulator.store.get(nodes(), undefined, 't2').metadata.resourceVersion;
    let raced = false;
    h.emulator.beforeRequest.push((verb) => {
      if (verb === 'patch' && !raced) touchNode('t2', String((raced = true)));
    });
    const auditFrom = h.emulator.audit.length;
    // The first patch carries the stale resourceVersion (409), the retry the fresh one.
    await h.cluster().addTaint('t2', DISRUPTED);
    h.emulator.beforeRequest.length = 0;
    const patches = h.emulator.audit.slice(auditFrom).filter((a) => a.verb === 'patch');
    expect(patches).toHaveLength(2);
    expect(patches.map((p) => p.contentType)).toEqual(Array(patches.length).fill('application/merge-patch+json'));
    expect(h.emulator.store.get(nodes(), undefined, 't2').metadata.resourceVersion).not.toBe(rv);
  });

  it('re-reads and retries when another writer changed the node in between', async () => {
    h.emulator.seed([node('t3')]);
    let raced = false;
    h.emulator.beforeRequest.push((verb, r) => {
      if (verb === 'patch' && r.name === 't3' && !raced) {
        raced = true;
        touchNode('t3', 'raced');
      }
    });
    const result = await h.cluster().addTaint('t3', DISRUPTED);
    expect(raced).toBe(true);
    expect(result.spec?.taints).toEqual([DISRUPTED]);
    expect(result.metadata.labels?.raced).toBe('x');
  });

  it('gives up with ConflictError after the bounded number of attempts', async () => {
    h.emulator.seed([node('t4')]);
    let patches = 0;
    h.emulator.beforeRequest.push((verb, r) => {
      if (verb === 'patch' && r.name === 't4') touchNode('t4', `race${++patches}`);
    });
    const err = await h.cluster({ conflictAttempts: 3 }).addTaint('t4', DISRUPTED).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect(patches).toBe(3);
    expect((err as ConflictError).object).toEqual({ kind: 'Node', name: 't4' });
    expect((err as ConflictError).status).toBe(409);
  });

  it('names the missing node in NotFoundError', async () => {
    const err = await h.cluster().addTaint('ghost', DISRUPTED).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as NotFoundError).message).toBe('Node ghost not found');
  });
});

describe('labels and annotations', () => {
  it('sets and removes keys on a node and on a NodeClaim', async () => {
    h.emulator.seed([node('m1', { metadata: { name: 'm1', labels: { keep: 'me', drop: 'me' } } }), nodeClaim('mc1')]);
    const cluster = h.cluster();
    const n = await cluster.patchMetadata('Node', 'm1', { labels: { 'karpenter.sh/registered': 'true', drop: null }, annotations: { 'kraftsman.dev/termination-cause': 'spot-interruption' } });
    expect(n.metadata.labels).toEqual({ keep: 'me', 'karpenter.sh/registered': 'true' });
    expect(n.metadata.annotations).toEqual({ 'kraftsman.dev/termination-cause': 'spot-interruption' });
    const c = await cluster.patchMetadata('NodeClaim', 'mc1', { labels: { 'karpenter.sh/initialized': 'true' } });
    expect(c.metadata.labels?.['karpenter.sh/initialized']).toBe('true');
  });
});

describe('NodeClaims', () => {
  const claim = (name: string): NodeClaim => ({
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodeClaim',
    metadata: { name, labels: { 'karpenter.sh/nodepool': 'gpu' } },
    spec: { nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' }, requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['p5.48xlarge'] }] },
    status: { nodeName: 'ignored-on-create' },
  });

  it('creates a claim (status is not sent) and refuses a duplicate with AlreadyExistsError', async () => {
    const cluster = h.cluster();
    const created = await cluster.createNodeClaim(claim('c1'));
    expect(created.metadata.uid).toBeTruthy();
    expect(created.status).toBeUndefined();
    await expect(cluster.createNodeClaim(claim('c1'))).rejects.toBeInstanceOf(AlreadyExistsError);
  });

  it('updates status through the status subresource, retrying a conflict', async () => {
    const cluster = h.cluster();
    await cluster.createNodeClaim(claim('c2'));
    let raced = false;
    h.emulator.beforeRequest.push((verb, r) => {
      if (verb === 'update' && r.name === 'c2' && !raced) {
        raced = true;
        h.emulator.store.patch(h.emulator.typeOf('NodeClaim'), undefined, 'c2', 'application/merge-patch+json', { metadata: { annotations: { a: 'b' } } }, undefined);
      }
    });
    const updated = await cluster.updateNodeClaimStatus('c2', (s) => ({ ...s, providerID: 'aws:///us-east-1a/i-1', conditions: [{ type: 'Launched', status: 'True' }] }));
    expect(raced).toBe(true);
    expect(updated.status?.providerID).toBe('aws:///us-east-1a/i-1');
    expect(updated.metadata.annotations?.a).toBe('b');
    expect(updated.spec.requirements[0]?.values).toEqual(['p5.48xlarge']);
  });

  it('surfaces a rejected claim as ApiError with the status and the object', async () => {
    const bad = claim('c3');
    const err = await h.cluster().createNodeClaim({ ...bad, spec: { ...bad.spec, requirements: [{ key: 'k', operator: 'Near' as 'In', values: ['x'] }] } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(422);
    expect((err as ApiError).object).toEqual({ kind: 'NodeClaim', name: 'c3' });
    expect((err as ApiError).message).toContain('spec.requirements[0].operator');
  });

  it('deletes a claim: with a finalizer it is only marked, without one it is gone', async () => {
    const cluster = h.cluster();
    h.emulator.seed([nodeClaim('c4', { metadata: { name: 'c4', finalizers: ['karpenter.sh/termination'] } }), nodeClaim('c5')]);
    await cluster.deleteNodeClaim('c4');
    expect((await cluster.getNodeClaim('c4')).metadata.deletionTimestamp).toBeTruthy();
    await cluster.deleteNodeClaim('c5');
    await expect(cluster.getNodeClaim('c5')).rejects.toBeInstanceOf(NotFoundError);
    await expect(cluster.deleteNodeClaim('c5')).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('Node delete', () => {
  it('deletes a node, honouring a uid precondition', async () => {
    h.emulator.seed([node('d1')]);
    const cluster = h.cluster();
    const err = await cluster.deleteNode('d1', { uid: 'not-the-uid' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(409);
    const uid = (await cluster.getNode('d1')).metadata.uid;
    await cluster.deleteNode('d1', uid ? { uid } : {});
    await expect(cluster.getNode('d1')).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('eviction', () => {
  it('evicts when the PDB allows it and decrements disruptionsAllowed', async () => {
    h.emulator.seed([pdb('e1', 'web', 1), pod('e1', 'a'), pod('e1', 'b')]);
    const cluster = h.cluster();
    expect(await cluster.evictPod({ namespace: 'e1', name: 'a' })).toEqual({ outcome: 'evicted' });
    const status = h.emulator.store.get(h.emulator.typeOf('PodDisruptionBudget'), 'e1', 'web').status as { disruptionsAllowed: number };
    expect(status.disruptionsAllowed).toBe(0);
    const blocked = await cluster.evictPod({ namespace: 'e1', name: 'b' });
    expect(blocked).toMatchObject({ outcome: 'blocked' });
    expect(blocked.outcome === 'blocked' && blocked.message).toContain('disruption budget');
    expect(h.emulator.store.get(h.emulator.typeOf('Pod'), 'e1', 'b')).toBeTruthy();
  });

  it('evicts a pending pod regardless of its PDB, and reports a missing pod as gone', async () => {
    h.emulator.seed([pdb('e2', 'web', 0), pod('e2', 'pending', { status: { phase: 'Pending' } })]);
    const cluster = h.cluster();
    expect(await cluster.evictPod({ namespace: 'e2', name: 'pending' })).toEqual({ outcome: 'evicted' });
    expect(await cluster.evictPod({ namespace: 'e2', name: 'pending' })).toEqual({ outcome: 'gone' });
  });

  it('fails with ApiError 500 when a pod has two PDBs, as the API server does', async () => {
    h.emulator.seed([pdb('e3', 'one', 1), pdb('e3', 'two', 1), pod('e3', 'p')]);
    const err = await h.cluster().evictPod({ namespace: 'e3', name: 'p' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(500);
    expect((err as ApiError).object).toEqual({ kind: 'Pod', name: 'p', namespace: 'e3' });
  });
});
