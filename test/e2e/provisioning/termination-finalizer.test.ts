// Karpenter's `karpenter.sh/termination` finalizer on what kraftsman launches (docs/functions/lifecycle.md#karpenters-finalizer):
// a claim carries it from its create body and its Node from registration, so a kubectl-style DELETE of either,
// sent over HTTP to the emulator, leaves the object marked for deletion while lifecycle drains the Node; the
// instance is terminated only once the pods are evicted, and the finalizers are released only once it is gone.
// The order is read from the clouds' emulators at the moment of each eviction and of each object's removal.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { refreshDisruptionBudgets } from '../../../local/kube-api/alive/disruption-budgets.ts';
import type { KubeObject } from '../../../local/kube-api/index.ts';
import { PROVISIONING_METRICS as M } from '../../../shared/provisioning/metric-names.ts';
import { pdb, pod, type E2eHarness } from '../../support/e2e/index.ts';
import { startOneTypeGpuHarness } from '../../support/e2e/gpu-pools.ts';
import {
  annotationsOf,
  bringUp,
  deletePods,
  instanceOf,
  labelsOf,
  lifecycleOnce,
  nodeOf,
  podsOn,
  providerIdOf,
  taintsOf,
} from '../../support/e2e/steps.ts';

const MIN = 60_000;
const KARPENTER = 'karpenter.sh/termination';
/** The emulator's default grace period is 30 s: past it, evicted pods are gone and the drain can finish. */
const PAST_GRACE_MS = 31_000;
/** The bearer token the harness's Kubernetes API accepts (test/support/e2e/harness.ts). */
const KUBE_TOKEN = 'e2e-token';

describe('the termination finalizer on the Nodes and NodeClaims kraftsman launches', () => {
  let h: E2eHarness;
  /** What the cloud said about the instance under test at each eviction and at each removal of its objects. */
  let seen: { what: string; running: boolean }[] = [];
  let watched: { id: string | undefined; names: string[] } = { id: undefined, names: [] };
  beforeAll(async () => {
    h = await startOneTypeGpuHarness();
    h.kube.beforeRequest.push((verb, route) => {
      if (verb === 'create' && route.subresource === 'eviction')
        seen.push({ what: `evict ${route.name ?? ''}`, running: running(watched.id) });
    });
    h.kube.store.onDelete((t, obj) => {
      const name = String(obj.metadata.name);
      if ((t.kind === 'Node' || t.kind === 'NodeClaim') && watched.names.includes(name))
        seen.push({ what: `remove ${t.kind}`, running: running(watched.id) });
    });
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(() => {
    seen = [];
  });

  const find = (kind: string, name: string): KubeObject | undefined =>
    h.list(kind).find((o) => o.metadata.name === name);
  /** Whether the instance still runs, on either cloud (EC2's state, Compute Engine's status). */
  const running = (id: string | undefined): boolean => {
    if (id?.startsWith('aws://')) return h.ec2.world.instances.get(instanceOf(id))?.state === 'running';
    const [, zone = '', name = ''] = /\/([^/]+)\/([^/]+)$/.exec(id ?? '') ?? [];
    return h.gce.world.instances.get(h.gce.world.key(zone, name))?.status === 'RUNNING';
  };
  /** `kubectl delete`: an HTTP DELETE to the API server, answered 200 with the object marked for deletion. */
  const kubectlDelete = async (kind: 'Node' | 'NodeClaim', name: string): Promise<KubeObject> => {
    const path = kind === 'Node' ? `/api/v1/nodes/${name}` : `/apis/karpenter.sh/v1/nodeclaims/${name}`;
    const res = await fetch(`${h.settings.cluster.server}${path}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${KUBE_TOKEN}` },
    });
    expect(res.status).toBe(200);
    return (await res.json()) as KubeObject;
  };
  const upOn = async (pool: string, app: string, replicas = 2) => {
    const pods = Array.from({ length: replicas }, (_, i) =>
      pod(`${app}-p${i}`, {
        gpus: 0,
        cpu: '100m',
        nodeSelector: { 'karpenter.sh/nodepool': pool },
      }),
    );
    const claim = (await bringUp(h, pods)).find((c) => labelsOf(c)['karpenter.sh/nodepool'] === pool);
    const node = claim && nodeOf(h, claim);
    if (!claim || !node) throw new Error(`no registered NodeClaim for ${pool}`);
    const name = String(node.metadata.name);
    expect(podsOn(h, name)).toHaveLength(replicas);
    const id = providerIdOf(claim);
    watched = { id, names: [name, String(claim.metadata.name)] };
    return { claim, node, name, claimName: String(claim.metadata.name), id };
  };
  const cleanUp = (app: string): void =>
    deletePods(
      h,
      h
        .list('Pod')
        .filter((p) => labelsOf(p).app === app)
        .map((p) => String(p.metadata.name)),
    );
  const expectDraining = (name: string, cause: string): void => {
    const node = find('Node', name);
    expect(node && annotationsOf(node)['kraftsman.dev/termination-cause']).toBe(cause);
    expect(node && taintsOf(node)).toContainEqual(
      expect.objectContaining({ key: 'karpenter.sh/disrupted', effect: 'NoSchedule' }),
    );
  };
  /** Every eviction while the instance ran, every removal after it stopped, and at least one of each. */
  const expectDrainedBeforeTerminated = (): void => {
    const evictions = seen.filter((s) => s.what.startsWith('evict'));
    const removals = seen.filter((s) => s.what.startsWith('remove'));
    expect(evictions.length).toBeGreaterThan(0);
    expect(evictions.every((s) => s.running)).toBe(true);
    expect(removals.map((s) => s.what).sort()).toEqual(['remove Node', 'remove NodeClaim']);
    expect(removals.every((s) => !s.running)).toBe(true);
    expect(seen.findIndex((s) => !s.running)).toBeGreaterThan(
      seen.findLastIndex((s) => s.what.startsWith('evict')),
    );
  };

  it.each(['aws-gpu', 'gcp-gpu'])(
    '%s: kubectl delete node drains the Node, then terminates the instance, then releases Node and claim',
    async (pool) => {
      const app = `dn-${pool}`;
      const { claim, node, name, claimName, id } = await upOn(pool, app);
      // Carried from creation (the claim) and from registration (its Node), before anything deletes them.
      expect(claim.metadata.finalizers).toEqual([KARPENTER]);
      expect(node.metadata.finalizers).toEqual([KARPENTER]);
      const terminated = () =>
        h.metrics.total(M.nodeClaimsTerminatedTotal, { cause: 'node_deleted', nodepool: pool });
      const before = terminated();

      const answered = await kubectlDelete('Node', name);
      expect(answered.metadata.deletionTimestamp).toBeTruthy();
      expect(find('Node', name)?.metadata.deletionTimestamp).toBeTruthy();

      expect((await lifecycleOnce(h)).result).toMatchObject({ outcome: 'ran', failed: 0, drained: 0 });
      expectDraining(name, 'node_deleted');
      // Karpenter's Node termination deletes the claim first: marked, held by its finalizer.
      expect(find('NodeClaim', claimName)?.metadata.deletionTimestamp).toBeTruthy();
      expect(find('NodeClaim', claimName)?.metadata.finalizers).toEqual([KARPENTER]);
      expect(running(id)).toBe(true);
      expect(seen.filter((s) => s.what.startsWith('evict'))).toHaveLength(2);

      h.clock.advance(PAST_GRACE_MS);
      expect((await lifecycleOnce(h)).result).toMatchObject({ failed: 0, drained: 1 });
      expect(running(id)).toBe(false);
      expect(find('Node', name)).toBeUndefined();
      expect(find('NodeClaim', claimName)).toBeUndefined();
      expectDrainedBeforeTerminated();
      expect(terminated() - before).toBe(1);
      cleanUp(app);
    },
  );

  it.each(['aws-gpu', 'gcp-gpu'])(
    '%s: kubectl delete nodeclaim keeps the claim until its Node is drained and its instance terminated',
    async (pool) => {
      const app = `dc-${pool}`;
      const { name, claimName, id } = await upOn(pool, app);

      const answered = await kubectlDelete('NodeClaim', claimName);
      expect(answered.metadata.deletionTimestamp).toBeTruthy();
      expect(answered.metadata.finalizers).toEqual([KARPENTER]);

      // No orphan grace to wait for: the claim's deletion asks for the drain at once.
      expect((await lifecycleOnce(h)).result).toMatchObject({ outcome: 'ran', failed: 0, drained: 0 });
      expectDraining(name, 'nodeclaim_deleted');
      expect(running(id)).toBe(true);
      expect(find('NodeClaim', claimName)?.metadata.finalizers).toEqual([KARPENTER]);
      // The evicted pods run on for their grace period: neither the drain nor garbage collection cuts it short.
      expect((await lifecycleOnce(h)).result).toMatchObject({
        failed: 0,
        drained: 0,
        garbage: { instances: 0 },
      });
      expect(running(id)).toBe(true);

      h.clock.advance(PAST_GRACE_MS);
      expect((await lifecycleOnce(h)).result).toMatchObject({ failed: 0, drained: 1 });
      expect(running(id)).toBe(false);
      expect(find('Node', name)).toBeUndefined();
      expect(find('NodeClaim', claimName)).toBeUndefined();
      expectDrainedBeforeTerminated();
      cleanUp(app);
    },
  );

  it('a PDB that blocks the drain holds the termination: instance running, objects held, until the drain timeout', async () => {
    const app = 'pdb-held';
    const { name, claimName, id } = await upOn('aws-gpu', app, 1);
    h.seed([pdb(`${app}-guard`, app, 1)]);
    refreshDisruptionBudgets(h.kube);
    await kubectlDelete('Node', name);

    expect((await lifecycleOnce(h)).result).toMatchObject({ outcome: 'ran', failed: 0, drained: 0 });
    for (const step of [2 * MIN, 5 * MIN]) {
      h.clock.advance(step);
      expect((await lifecycleOnce(h)).result).toMatchObject({ failed: 0, drained: 0 });
      expect(podsOn(h, name).filter((p) => !p.metadata.deletionTimestamp)).toHaveLength(1); // 429
      expect(running(id)).toBe(true);
      expect(find('Node', name)?.metadata.finalizers).toEqual([KARPENTER]);
      expect(find('NodeClaim', claimName)?.metadata.finalizers).toEqual([KARPENTER]);
    }
    expect(seen.some((s) => s.what.startsWith('remove'))).toBe(false);

    h.clock.advance(4 * MIN); // past KRAFTSMAN_DRAIN_TIMEOUT (10 min): nothing holds the drain any more
    expect((await lifecycleOnce(h)).result).toMatchObject({ failed: 0, drained: 1 });
    expect(running(id)).toBe(false);
    expect(find('Node', name)).toBeUndefined();
    expect(find('NodeClaim', claimName)).toBeUndefined();
    cleanUp(app);
  });

  it('a crash between the terminate and the release is finished by the next run, counted once', async () => {
    const app = 'crash';
    const { name, claimName, id } = await upOn('gcp-gpu', app, 1);
    await kubectlDelete('Node', name);
    expect((await lifecycleOnce(h)).result).toMatchObject({ failed: 0, drained: 0 });
    const terminated = () =>
      h.metrics.total(M.nodeClaimsTerminatedTotal, { cause: 'node_deleted', nodepool: 'gcp-gpu' });
    const before = terminated();

    // The finalizer's removal from this Node fails as if the function died right after the instance went.
    const crash = (verb: string, route: { type: { kind: string }; name?: string }) =>
      verb === 'patch' && route.type.kind === 'Node' && route.name === name
        ? {
            code: 500,
            body: JSON.stringify({ kind: 'Status', status: 'Failure', code: 500, message: 'crash' }),
          }
        : undefined;
    h.kube.inject.push(crash);
    h.clock.advance(PAST_GRACE_MS);
    const crashed = (await lifecycleOnce(h)).result;
    h.kube.inject.splice(h.kube.inject.indexOf(crash), 1);
    // Both the drain's finish and the sweep of held finalizers stop there.
    expect(crashed).toMatchObject({ outcome: 'ran', failed: 2 });
    expect(running(id)).toBe(false);
    expect(find('Node', name)?.metadata.finalizers).toEqual([KARPENTER]);

    expect((await lifecycleOnce(h)).result).toMatchObject({ failed: 0 });
    expect(find('Node', name)).toBeUndefined();
    expect(find('NodeClaim', claimName)).toBeUndefined();
    expect(terminated() - before).toBe(1);
    // Nothing is left: a further run finds nothing to do.
    expect((await lifecycleOnce(h)).result).toMatchObject({ failed: 0, drained: 0, terminated: 0 });
    cleanUp(app);
  });
  it('a claim deleted before its launch wrote a providerID is released once the deletion is older than the GC grace', async () => {
    const pool = h.list('NodePool').find((p) => p.metadata.name === 'aws-gpu');
    const template = (pool?.spec as { template: { spec: { nodeClassRef: unknown } } }).template.spec;
    const name = 'aws-gpu-inflight';
    // As the provisioner creates it; the launcher has not written its status yet.
    h.seed([
      {
        apiVersion: 'karpenter.sh/v1',
        kind: 'NodeClaim',
        metadata: { name, labels: { 'karpenter.sh/nodepool': 'aws-gpu' }, finalizers: [KARPENTER] },
        spec: { nodeClassRef: template.nodeClassRef, requirements: [] },
      } as KubeObject,
    ]);
    await kubectlDelete('NodeClaim', name);
    expect((await lifecycleOnce(h)).result).toMatchObject({ failed: 0 });
    // A launch may still be in flight: held for now.
    expect(find('NodeClaim', name)?.metadata.finalizers).toEqual([KARPENTER]);
    h.clock.advance(MIN); // KRAFTSMAN_GC_GRACE in these tests
    expect((await lifecycleOnce(h)).result).toMatchObject({ failed: 0 });
    expect(find('NodeClaim', name)).toBeUndefined();
  });
});
