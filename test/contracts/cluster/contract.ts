// The Cluster port's contract, as one suite run against every implementation (the in-memory fake and
// KubeCluster against the emulator): snapshot contents, taints, conflicts, metadata, NodeClaims, eviction.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NodeClaim } from '../../../shared/model/nodeclaim.ts';
import {
  AlreadyExistsError,
  ApiError,
  ConflictError,
  ObjectNotFoundError,
} from '../../../shared/ports/cluster/errors.ts';
import { type Cluster, type ClusterEvent } from '../../../shared/ports/cluster/index.ts';
import { node, nodeClaim, nodePool, pdb, pod } from './harness.ts';

export interface World {
  cluster(options?: { conflictAttempts?: number }): Cluster;
  seed(objects: readonly Record<string, unknown>[]): void;
  /** Another writer changes the object right before each of the next `times` write attempts on it. */
  race(kind: 'Node' | 'NodeClaim', name: string, times: number): void;
  /** The events recorded so far, as the server (or the fake) holds them. */
  events(): Promise<readonly ClusterEvent[]>;
  close(): Promise<void>;
}

const DISRUPTED = { key: 'karpenter.sh/disrupted', effect: 'NoSchedule' } as const;
const claim = (name: string): NodeClaim => ({
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodeClaim',
  metadata: { name, labels: { 'karpenter.sh/nodepool': 'gpu' } },
  spec: {
    nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
    requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['p5.48xlarge'] }],
  },
  status: { nodeName: 'ignored-on-create' },
});

export function clusterContract(name: string, start: () => Promise<World>): void {
  describe(`Cluster contract: ${name}`, () => {
    let w: World;
    beforeEach(async () => {
      w = await start();
    });
    afterEach(() => w.close());

    it('reads seeded objects into the snapshot, and sees later changes on the next read', async () => {
      w.seed([
        nodePool('gpu'),
        node('n1'),
        pod('ml', 'p1', { spec: { nodeName: 'n1', containers: [{ name: 'c' }] } }),
      ]);
      const cluster = w.cluster();
      const first = await cluster.readSnapshot();
      expect(first.objects.nodes.map((n) => n.metadata.name)).toEqual(['n1']);
      expect(first.objects.pods[0]).toMatchObject({ kind: 'Pod', spec: { nodeName: 'n1' } });
      expect(first.objects.nodePools[0]?.spec.template.spec.expireAfter).toBe('720h');
      w.seed([node('n2')]);
      await cluster.deleteNode('n1');
      const second = await cluster.readSnapshot();
      expect(second.objects.nodes.map((n) => n.metadata.name)).toEqual(['n2']);
    });

    it('lists the pods bound to one node', async () => {
      w.seed([
        node('n1'),
        node('n2'),
        ...['a', 'b'].map((p) => pod('ml', p, { spec: { nodeName: 'n1', containers: [{ name: 'c' }] } })),
        pod('ml', 'c', { spec: { nodeName: 'n2', containers: [{ name: 'c' }] } }),
        pod('ml', 'pending', { status: { phase: 'Pending' } }),
      ]);
      const pods = await w.cluster().listPodsOnNode('n1');
      expect(pods.map((p) => p.metadata.name).sort()).toEqual(['a', 'b']);
      expect(pods[0]).toMatchObject({ apiVersion: 'v1', kind: 'Pod' });
      expect(await w.cluster().listPodsOnNode('ghost')).toEqual([]);
    });

    it('adds the disrupted taint once, keeps other taints, and removes it again', async () => {
      w.seed([node('t1', { spec: { taints: [{ key: 'team', value: 'a', effect: 'NoSchedule' }] } })]);
      const cluster = w.cluster();
      expect((await cluster.addTaint('t1', DISRUPTED)).spec?.taints).toEqual([
        { key: 'team', value: 'a', effect: 'NoSchedule' },
        DISRUPTED,
      ]);
      expect((await cluster.addTaint('t1', DISRUPTED)).spec?.taints).toHaveLength(2);
      expect((await cluster.removeTaint('t1', DISRUPTED.key, DISRUPTED.effect)).spec?.taints).toEqual([
        { key: 'team', value: 'a', effect: 'NoSchedule' },
      ]);
    });

    it('re-reads and retries a taint when another writer got in between, losing neither change', async () => {
      w.seed([node('t2')]);
      w.race('Node', 't2', 2);
      const result = await w.cluster().addTaint('t2', DISRUPTED);
      expect(result.spec?.taints).toEqual([DISRUPTED]);
      expect(result.metadata.labels?.raced).toBe('2');
    });

    it('gives up with ConflictError (409, naming the node) after the bounded attempts', async () => {
      w.seed([node('t3')]);
      w.race('Node', 't3', 100);
      const err = await w
        .cluster({ conflictAttempts: 3 })
        .addTaint('t3', DISRUPTED)
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConflictError);
      expect(err).toMatchObject({ status: 409, object: { kind: 'Node', name: 't3' } });
    });

    it('names a missing node in ObjectNotFoundError', async () => {
      const err = await w
        .cluster()
        .addTaint('ghost', DISRUPTED)
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ObjectNotFoundError);
      expect((err as Error).message).toBe('Node ghost not found');
    });

    it('sets and removes labels and annotations on nodes and NodeClaims', async () => {
      w.seed([
        node('m1', { metadata: { name: 'm1', labels: { keep: 'me', drop: 'me' } } }),
        nodeClaim('mc1'),
      ]);
      const cluster = w.cluster();
      const n = await cluster.patchMetadata('Node', 'm1', {
        labels: { 'karpenter.sh/registered': 'true', drop: null },
        annotations: { 'kraftsman.dev/termination-cause': 'spot-interruption' },
      });
      expect(n.metadata.labels).toEqual({ keep: 'me', 'karpenter.sh/registered': 'true' });
      expect(n.metadata.annotations).toEqual({ 'kraftsman.dev/termination-cause': 'spot-interruption' });
      const c = await cluster.patchMetadata('NodeClaim', 'mc1', {
        labels: { 'karpenter.sh/initialized': 'true' },
      });
      expect(c.metadata.labels).toEqual({
        'karpenter.sh/nodepool': 'gpu',
        'karpenter.sh/initialized': 'true',
      });
    });

    it('creates a NodeClaim without its status and refuses a duplicate with AlreadyExistsError', async () => {
      const cluster = w.cluster();
      const created = await cluster.createNodeClaim(claim('c1'));
      expect(created.metadata.uid).toBeTruthy();
      expect(created.status).toBeUndefined();
      await expect(cluster.createNodeClaim(claim('c1'))).rejects.toBeInstanceOf(AlreadyExistsError);
    });

    it('updates NodeClaim status read-modify-write, retrying a conflict', async () => {
      const cluster = w.cluster();
      await cluster.createNodeClaim(claim('c2'));
      w.race('NodeClaim', 'c2', 1);
      const updated = await cluster.updateNodeClaimStatus('c2', (s) => ({
        ...s,
        providerID: 'aws:///us-east-1a/i-1',
        conditions: [{ type: 'Launched', status: 'True' }],
      }));
      expect(updated.status?.providerID).toBe('aws:///us-east-1a/i-1');
      expect(updated.metadata.labels?.raced).toBe('1');
      expect((await cluster.getNodeClaim('c2')).status?.conditions).toEqual([
        { type: 'Launched', status: 'True' },
      ]);
    });

    it('deletes a NodeClaim: with a finalizer it is only marked, without one it is gone', async () => {
      w.seed([
        nodeClaim('c3', { metadata: { name: 'c3', finalizers: ['karpenter.sh/termination'] } }),
        nodeClaim('c4'),
      ]);
      const cluster = w.cluster();
      await cluster.deleteNodeClaim('c3');
      expect((await cluster.getNodeClaim('c3')).metadata.deletionTimestamp).toBeTruthy();
      await cluster.deleteNodeClaim('c4');
      await expect(cluster.getNodeClaim('c4')).rejects.toBeInstanceOf(ObjectNotFoundError);
      await expect(cluster.deleteNodeClaim('c4')).rejects.toBeInstanceOf(ObjectNotFoundError);
    });

    it('removes only the finalizer named, and a deleted object goes with its last one', async () => {
      const both = ['karpenter.sh/termination', 'example.com/keep'];
      w.seed([
        node('f1', { metadata: { name: 'f1', finalizers: both } }),
        nodeClaim('f2', { metadata: { name: 'f2', finalizers: ['karpenter.sh/termination'] } }),
        node('f3'),
      ]);
      const cluster = w.cluster();
      await cluster.deleteNode('f1');
      await cluster.removeFinalizer('Node', 'f1', 'karpenter.sh/termination');
      const kept = await cluster.getNode('f1');
      expect(kept.metadata.finalizers).toEqual(['example.com/keep']);
      expect(kept.metadata.deletionTimestamp).toBeTruthy();
      await cluster.deleteNodeClaim('f2');
      await cluster.removeFinalizer('NodeClaim', 'f2', 'karpenter.sh/termination');
      await expect(cluster.getNodeClaim('f2')).rejects.toBeInstanceOf(ObjectNotFoundError);
      // Absent finalizer: nothing to do; absent object: ObjectNotFoundError naming it.
      await cluster.removeFinalizer('Node', 'f3', 'karpenter.sh/termination');
      expect((await cluster.getNode('f3')).metadata.finalizers ?? []).toEqual([]);
      await expect(cluster.removeFinalizer('Node', 'gone', 'x')).rejects.toMatchObject({
        name: 'ObjectNotFoundError',
        object: { kind: 'Node', name: 'gone' },
      });
    });

    it('adds a finalizer once, keeping the others, and never to an object being deleted', async () => {
      w.seed([
        node('a1', { metadata: { name: 'a1', finalizers: ['example.com/keep'] } }),
        nodeClaim('a2'),
        node('a3', { metadata: { name: 'a3', finalizers: ['example.com/keep'] } }),
      ]);
      const cluster = w.cluster();
      expect(await cluster.addFinalizer('Node', 'a1', 'karpenter.sh/termination')).toBe(true);
      expect(await cluster.addFinalizer('Node', 'a1', 'karpenter.sh/termination')).toBe(true);
      expect((await cluster.getNode('a1')).metadata.finalizers).toEqual([
        'example.com/keep',
        'karpenter.sh/termination',
      ]);
      expect(await cluster.addFinalizer('NodeClaim', 'a2', 'karpenter.sh/termination')).toBe(true);
      expect((await cluster.getNodeClaim('a2')).metadata.finalizers).toEqual(['karpenter.sh/termination']);
      // Being deleted (another controller's finalizer holds it): the API server would refuse a new one.
      await cluster.deleteNode('a3');
      expect(await cluster.addFinalizer('Node', 'a3', 'karpenter.sh/termination')).toBe(false);
      expect((await cluster.getNode('a3')).metadata.finalizers).toEqual(['example.com/keep']);
      await expect(cluster.addFinalizer('Node', 'gone', 'x')).rejects.toMatchObject({
        name: 'ObjectNotFoundError',
        object: { kind: 'Node', name: 'gone' },
      });
    });

    it('re-reads and retries a finalizer addition another writer got in between, losing neither change', async () => {
      w.seed([node('a4')]);
      w.race('Node', 'a4', 2);
      expect(await w.cluster().addFinalizer('Node', 'a4', 'karpenter.sh/termination')).toBe(true);
      const n = await w.cluster().getNode('a4');
      expect(n.metadata.finalizers).toEqual(['karpenter.sh/termination']);
      expect(n.metadata.labels?.raced).toBe('2');
    });

    it('re-reads and retries a finalizer removal another writer got in between, losing neither change', async () => {
      w.seed([node('f4', { metadata: { name: 'f4', finalizers: ['karpenter.sh/termination'] } })]);
      w.race('Node', 'f4', 2);
      await w.cluster().removeFinalizer('Node', 'f4', 'karpenter.sh/termination');
      const n = await w.cluster().getNode('f4');
      expect(n.metadata.finalizers ?? []).toEqual([]);
      expect(n.metadata.labels?.raced).toBe('2');
    });

    it('lists every NodeClaim with its status, without a snapshot', async () => {
      const cluster = w.cluster();
      expect(await cluster.listNodeClaims()).toEqual([]);
      w.seed([nodeClaim('l1'), nodeClaim('l2')]);
      await cluster.updateNodeClaimStatus('l2', (s) => ({ ...s, providerID: 'aws:///us-east-1a/i-2' }));
      const listed = await cluster.listNodeClaims();
      expect(listed.map((c) => c.metadata.name).sort()).toEqual(['l1', 'l2']);
      expect(listed.find((c) => c.metadata.name === 'l2')?.status?.providerID).toBe('aws:///us-east-1a/i-2');
    });

    it('lists the Nodes the API server holds now, not those of a snapshot read before', async () => {
      const cluster = w.cluster();
      await cluster.readSnapshot();
      w.seed([node('ln1', { spec: { providerID: 'aws:///us-east-1a/i-ln1' } })]);
      const listed = await cluster.listNodes();
      expect(listed.find((n) => n.metadata.name === 'ln1')?.spec?.providerID).toBe('aws:///us-east-1a/i-ln1');
    });

    it('deletes a Node only when a uid precondition matches', async () => {
      w.seed([node('d1')]);
      const cluster = w.cluster();
      const err = await cluster.deleteNode('d1', { uid: 'not-the-uid' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect(err).toMatchObject({ status: 409 });
      const uid = (await cluster.getNode('d1')).metadata.uid as string;
      await cluster.deleteNode('d1', { uid });
      await expect(cluster.getNode('d1')).rejects.toBeInstanceOf(ObjectNotFoundError);
    });

    it('evicts while the PDB allows it, then reports "blocked" (retry later), not an error', async () => {
      const bound = { spec: { nodeName: 'n-e1', containers: [{ name: 'c' }] } };
      w.seed([pdb('e1', 'web', 1), pod('e1', 'a', bound), pod('e1', 'b', bound)]);
      const cluster = w.cluster();
      expect(await cluster.evictPod({ namespace: 'e1', name: 'a' })).toEqual({ outcome: 'evicted' });
      const blocked = await cluster.evictPod({ namespace: 'e1', name: 'b' });
      expect(blocked.outcome).toBe('blocked');
      expect(blocked.outcome === 'blocked' && blocked.message).toContain('disruption budget');
      // An eviction is a graceful deletion: the pod may stay, terminating, for its grace period.
      const pods = (await cluster.readSnapshot()).objects.pods;
      const a = pods.find((p) => p.metadata.name === 'a');
      expect(a === undefined || a.metadata.deletionTimestamp !== undefined).toBe(true);
      expect(pods.find((p) => p.metadata.name === 'b')?.metadata.deletionTimestamp).toBeUndefined();
      // Evicting a pod that is already terminating is not blocked by its budget (nothing more is lost).
      expect((await cluster.evictPod({ namespace: 'e1', name: 'a' })).outcome).not.toBe('blocked');
    });

    it('evicts only the pod whose uid the eviction names (a recreated pod of that name is "gone")', async () => {
      w.seed([pod('e4', 'p')]);
      const cluster = w.cluster();
      expect(await cluster.evictPod({ namespace: 'e4', name: 'p', uid: 'an-older-pod' })).toEqual({
        outcome: 'gone',
      });
      const uid = (await cluster.readSnapshot()).objects.pods[0]?.metadata.uid as string;
      expect(await cluster.evictPod({ namespace: 'e4', name: 'p', uid })).toEqual({ outcome: 'evicted' });
    });

    it('evicts a pending pod regardless of its PDB and reports a missing pod as gone', async () => {
      w.seed([pdb('e2', 'web', 0), pod('e2', 'pending', { status: { phase: 'Pending' } })]);
      const cluster = w.cluster();
      expect(await cluster.evictPod({ namespace: 'e2', name: 'pending' })).toEqual({ outcome: 'evicted' });
      expect(await cluster.evictPod({ namespace: 'e2', name: 'pending' })).toEqual({ outcome: 'gone' });
    });

    it('evicts with the pod uid as a precondition: a pod recreated under the same name is not evicted', async () => {
      const bound = { spec: { nodeName: 'n-e4', containers: [{ name: 'c' }] } };
      w.seed([pod('e4', 'db-0', bound)]);
      const cluster = w.cluster();
      const seen = (await cluster.listPodsOnNode('n-e4'))[0];
      expect(seen?.metadata.uid).toBeTruthy();
      expect(await cluster.evictPod({ namespace: 'e4', name: 'db-0', uid: 'uid-of-an-older-db-0' })).toEqual({
        outcome: 'gone',
      });
      expect((await cluster.listPodsOnNode('n-e4'))[0]?.metadata.deletionTimestamp).toBeUndefined();
      expect(
        await cluster.evictPod({ namespace: 'e4', name: 'db-0', uid: seen?.metadata.uid as string }),
      ).toEqual({ outcome: 'evicted' });
    });

    it('patches a NodePool status pinned to the version read; a stale version is ConflictError', async () => {
      w.seed([nodePool('st1')]);
      const cluster = w.cluster();
      const read = async () =>
        (await cluster.readSnapshot()).objects.nodePools.find((p) => p.metadata.name === 'st1');
      const before = await read();
      const rv = String(before?.metadata.resourceVersion);
      await cluster.patchStatus('NodePool', 'st1', rv, { nodes: 2, resources: { cpu: '8', nodes: '2' } });
      const after = await read();
      expect((after as unknown as { status: unknown }).status).toEqual({
        nodes: 2,
        resources: { cpu: '8', nodes: '2' },
      });
      expect(after?.spec).toEqual(before?.spec);
      await expect(cluster.patchStatus('NodePool', 'st1', rv, { nodes: 3 })).rejects.toBeInstanceOf(
        ConflictError,
      );
    });

    it('records an event on a cluster-scoped and on a namespaced object, each naming its object and reason', async () => {
      const cluster = w.cluster();
      await cluster.recordEvent({
        involved: { kind: 'Node', name: 'n1', uid: 'u-1' },
        type: 'Warning',
        reason: 'DestructiveActionRefused',
        message: 'terminate refused: the instance is not tagged with this deployment',
      });
      await cluster.recordEvent({
        involved: { kind: 'Pod', name: 'p1', namespace: 'ml' },
        type: 'Normal',
        reason: 'Nominated',
        message: 'Pod should schedule on: nodeclaim/gpu-abc',
      });
      const events = await w.events();
      expect(events).toHaveLength(2);
      expect(events).toContainEqual({
        involved: { kind: 'Node', name: 'n1', uid: 'u-1' },
        type: 'Warning',
        reason: 'DestructiveActionRefused',
        message: 'terminate refused: the instance is not tagged with this deployment',
      });
      expect(events).toContainEqual(
        expect.objectContaining({
          involved: { kind: 'Pod', name: 'p1', namespace: 'ml' },
          reason: 'Nominated',
        }),
      );
    });

    it('fails with ApiError 500 naming the pod when two PDBs cover it', async () => {
      w.seed([pdb('e3', 'one', 1), pdb('e3', 'two', 1), pod('e3', 'p')]);
      const err = await w
        .cluster()
        .evictPod({ namespace: 'e3', name: 'p' })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect(err).toMatchObject({ status: 500, object: { kind: 'Pod', name: 'p', namespace: 'e3' } });
    });

    it('issues one bootstrap token per launch key, the same one again for a retry, readable by its Secret name', async () => {
      const cluster = w.cluster();
      const expiresAt = new Date('2026-12-01T00:00:00Z');
      const a = await cluster.issueJoinToken({ key: 'claim-a/uid/1', expiresAt, description: 'a' });
      expect(`${a.id}.${a.secret}`).toMatch(/^[a-z0-9]{6}\.[a-z0-9]{16}$/);
      expect(await cluster.issueJoinToken({ key: 'claim-a/uid/1', expiresAt, description: 'a' })).toEqual(a);
      const b = await cluster.issueJoinToken({ key: 'claim-a/uid/2', expiresAt, description: 'b' });
      expect(b.id).not.toBe(a.id);
      expect(await cluster.readJoinToken(`bootstrap-token-${a.id}`)).toEqual(a);
      const err = await cluster.readJoinToken('bootstrap-token-absent').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ObjectNotFoundError);
      expect(err).toMatchObject({
        object: { kind: 'Secret', namespace: 'kube-system', name: 'bootstrap-token-absent' },
      });
    });
  });
}
