// `kubectl delete nodeclaim` while the instance runs is a termination request (Karpenter's termination
// finalizer, which every claim kraftsman creates carries): the claim stays, marked for deletion, while its Node is
// tainted and drained through the Eviction API (PDBs honoured up to the drain timeout, or the claim's
// terminationGracePeriod when it has one); the instance is terminated only then, and the finalizer released last
// (docs/functions/lifecycle.md#a-nodeclaim-an-operator-deletes). On both clouds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshDisruptionBudgets } from '../../../local/kube-api/alive/disruption-budgets.ts';
import type { KubeObject } from '../../../local/kube-api/index.ts';
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
  provisionOnce,
  taintsOf,
} from '../../support/e2e/steps.ts';

const MIN = 60_000;
const KARPENTER = 'karpenter.sh/termination';
/** The emulator's default grace period is 30 s: past it, evicted pods are gone and the drain can finish. */
const PAST_GRACE_MS = 31_000;

describe('a NodeClaim an operator deletes while its instance runs', () => {
  let h: E2eHarness;
  beforeAll(async () => {
    h = await startOneTypeGpuHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  const find = (kind: string, name: string): KubeObject | undefined =>
    h.list(kind).find((o) => o.metadata.name === name);
  const evictions = () => h.kube.audit.count('create', 'pods/eviction');
  const hold = (kind: 'Node' | 'NodeClaim', o: KubeObject): void => {
    h.kube.store.patch(
      h.kube.typeOf(kind),
      undefined,
      String(o.metadata.name),
      'application/merge-patch+json',
      { metadata: { finalizers: [KARPENTER] } },
      undefined,
    );
  };
  /** Whether the claim's instance still runs, on either cloud. */
  const running = (id: string | undefined): boolean => {
    if (id?.startsWith('aws://')) return h.ec2.world.instances.get(instanceOf(id))?.state === 'running';
    const [, zone = '', name = ''] = /\/([^/]+)\/([^/]+)$/.exec(id ?? '') ?? [];
    return h.gce.world.instances.get(h.gce.world.key(zone, name))?.status === 'RUNNING';
  };
  const upOn = async (pool: string, app: string) => {
    const claim = (
      await bringUp(h, [
        pod(`${app}-p0`, { gpus: 1, replicaSet: app, nodeSelector: { 'karpenter.sh/nodepool': pool } }),
      ])
    ).find((c) => labelsOf(c)['karpenter.sh/nodepool'] === pool);
    const node = claim && nodeOf(h, claim);
    if (!claim || !node) throw new Error(`no registered NodeClaim for ${pool}`);
    expect(podsOn(h, String(node.metadata.name))).toHaveLength(1);
    return { claim, node, name: String(node.metadata.name), id: providerIdOf(claim) };
  };
  const deleteClaim = (claim: KubeObject): void => {
    h.kube.store.delete(h.kube.typeOf('NodeClaim'), undefined, String(claim.metadata.name));
  };
  const expectDraining = (name: string): void => {
    const node = find('Node', name);
    expect(node && annotationsOf(node)['kraftsman.dev/termination-cause']).toBe('nodeclaim_deleted');
    expect(node && taintsOf(node)).toContainEqual(
      expect.objectContaining({ key: 'karpenter.sh/disrupted', effect: 'NoSchedule' }),
    );
  };

  it('a kraftsman claim: held while its Node is drained, the instance terminated only once the pods are gone', async () => {
    const { claim, name, id } = await upOn('aws-gpu', 'own');
    const evictedBefore = evictions();
    deleteClaim(claim);
    expect(find('NodeClaim', String(claim.metadata.name))?.metadata.finalizers).toEqual([KARPENTER]);

    expect((await lifecycleOnce(h)).result).toMatchObject({ outcome: 'ran', failed: 0, drained: 0 });
    expectDraining(name);
    expect(evictions() - evictedBefore).toBe(1);
    // The evicted pod runs on for its grace period: garbage collection must not cut the drain short.
    expect(running(id)).toBe(true);
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
    expect(find('NodeClaim', String(claim.metadata.name))).toBeUndefined();
    // The ReplicaSet recreated the evicted pod: this test's demand ends here.
    deletePods(
      h,
      h
        .list('Pod')
        .filter((p) => labelsOf(p).app === 'own')
        .map((p) => String(p.metadata.name)),
    );
  });

  it('a claim whose pod a PDB protects: held until the drain timeout, then terminated and released', async () => {
    const { claim, node, name, id } = await upOn('gcp-gpu', 'held');
    expect(node.metadata.finalizers).toEqual([KARPENTER]);
    h.seed([pdb('held-guard', 'held', 1)]);
    refreshDisruptionBudgets(h.kube);
    deleteClaim(claim);
    const claimName = String(claim.metadata.name);
    expect(find('NodeClaim', claimName)?.metadata.deletionTimestamp).toBeTruthy();

    expect((await lifecycleOnce(h)).result).toMatchObject({ outcome: 'ran', failed: 0, drained: 0 });
    expectDraining(name);
    expect(podsOn(h, name).filter((p) => !p.metadata.deletionTimestamp)).toHaveLength(1); // the PDB said 429
    h.clock.advance(5 * MIN);
    expect((await lifecycleOnce(h)).result).toMatchObject({ failed: 0, drained: 0 });
    expect(running(id)).toBe(true);
    expect(find('NodeClaim', claimName)?.metadata.finalizers).toEqual([KARPENTER]);

    h.clock.advance(6 * MIN); // past KRAFTSMAN_DRAIN_TIMEOUT (10 min): Karpenter's terminationGracePeriod
    expect((await lifecycleOnce(h)).result).toMatchObject({ failed: 0, drained: 1 });
    expect(running(id)).toBe(false);
    expect(find('Node', name)).toBeUndefined();
    expect(find('NodeClaim', claimName)).toBeUndefined();
  });

  /** Sets (or, with null, removes) the terminationGracePeriod of a NodePool's claims to come. */
  const poolGrace = (pool: string, grace: string | null): void => {
    h.kube.store.patch(
      h.kube.typeOf('NodePool'),
      undefined,
      pool,
      'application/merge-patch+json',
      { spec: { template: { spec: { terminationGracePeriod: grace } } } },
      undefined,
    );
  };

  // Karpenter v1: the claim's terminationGracePeriod bounds the drain; once it has run out, nothing (a PDB, a
  // do-not-disrupt pod) holds it. KRAFTSMAN_DRAIN_TIMEOUT (10 min here) bounds only a claim without one.
  it.each([
    { pool: 'aws-gpu', grace: '3m', holdsAt: 2 * MIN, doneAt: 4 * MIN },
    { pool: 'gcp-gpu', grace: '30m', holdsAt: 12 * MIN, doneAt: 31 * MIN },
  ])(
    'a kraftsman claim with terminationGracePeriod $grace: a PDB holds its drain until the grace, not the drain timeout',
    async ({ pool, grace, holdsAt, doneAt }) => {
      poolGrace(pool, grace);
      try {
        const app = `grace-${pool}`;
        const { claim, node, name, id } = await upOn(pool, app);
        expect(annotationsOf(node)['kraftsman.dev/termination-grace-period']).toBe(grace);
        h.seed([pdb(`${app}-guard`, app, 1)]);
        refreshDisruptionBudgets(h.kube);
        deleteClaim(claim);
        const deleted = Date.parse(
          String(find('NodeClaim', String(claim.metadata.name))?.metadata.deletionTimestamp),
        );

        // No orphan grace to wait for: the claim's deletion starts the drain at once.
        expect((await lifecycleOnce(h)).result).toMatchObject({ outcome: 'ran', failed: 0, drained: 0 });
        expectDraining(name);
        // Karpenter's deadline: the claim's deletion plus its grace, however late the drain starts.
        const stamped = annotationsOf(find('Node', name) ?? node);
        expect(Date.parse(stamped['karpenter.sh/nodeclaim-termination-timestamp'] ?? '')).toBe(
          deleted + (grace === '3m' ? 3 : 30) * MIN,
        );
        h.clock.advance(holdsAt);
        expect((await lifecycleOnce(h)).result).toMatchObject({ failed: 0, drained: 0 });
        expect(running(id)).toBe(true);
        expect(podsOn(h, name).filter((p) => !p.metadata.deletionTimestamp)).toHaveLength(1); // the PDB said 429

        h.clock.advance(doneAt - holdsAt);
        expect((await lifecycleOnce(h)).result).toMatchObject({ failed: 0, drained: 1 });
        expect(running(id)).toBe(false);
        expect(find('Node', name)).toBeUndefined();
        deletePods(
          h,
          h
            .list('Pod')
            .filter((p) => labelsOf(p).app === app)
            .map((p) => String(p.metadata.name)),
        );
      } finally {
        poolGrace(pool, null);
      }
    },
  );

  it('a claim deleted before its Node joined: the instance is terminated, then the finalizer released', async () => {
    h.registerNodes = false;
    h.seed([pod('early-p0', { gpus: 1, nodeSelector: { 'karpenter.sh/nodepool': 'aws-gpu' } })]);
    await provisionOnce(h);
    h.registerNodes = true;
    const claim = h.list('NodeClaim').find((c) => !nodeOf(h, c) && providerIdOf(c));
    if (!claim) throw new Error('no launched NodeClaim without a Node');
    const claimName = String(claim.metadata.name);
    const id = providerIdOf(claim);
    expect(running(id)).toBe(true);
    hold('NodeClaim', claim);
    deleteClaim(claim);

    expect((await lifecycleOnce(h)).result).toMatchObject({ outcome: 'ran', failed: 0 });
    expect(running(id)).toBe(false);
    expect(find('NodeClaim', claimName)).toBeUndefined();
  });
});
