// Pending pods become running pods on both clouds, through the handlers: provision creates NodeClaims and
// invokes the launchers, the instances boot and register Nodes, lifecycle registers and initializes them,
// and the pods bind. A Volcano gang on each cloud launches as one unit (CreateFleet / bulkInsert).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  lambdaContext,
  lifecycleHandler,
  pod,
  podGroup,
  scheduledEvent,
  startHarness,
  wireLaunchers,
  type E2eHarness,
} from '../../support/e2e/index.ts';
import { gpuPools } from '../../support/e2e/gpu-pools.ts';
import { provisionOnce } from '../../support/e2e/steps.ts';

const claimsOf = (h: E2eHarness) => h.list('NodeClaim');
const poolOf = (o: { metadata: { labels?: unknown } }) =>
  (o.metadata.labels as Record<string, string> | undefined)?.['karpenter.sh/nodepool'];
const conditionOf = (claim: Record<string, unknown>, type: string) =>
  ((claim.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? []).find(
    (c) => c.type === type,
  )?.status;

describe('provisioning on both clouds through the handlers', () => {
  let h: E2eHarness;
  beforeAll(async () => {
    h = await startHarness({ objects: gpuPools('unweighted') });
    wireLaunchers(h);
  });
  afterAll(async () => {
    await h?.close();
  });

  const provision = async () => (await provisionOnce(h)).result;
  const lifecycle = () => lifecycleHandler(h)(scheduledEvent(h.clock), lambdaContext('lifecycle'));

  it('pending pods → claims → instances → registered, initialized Nodes → bound pods, on each cloud', async () => {
    h.seed([
      pod('train-aws', { gpus: 1, nodeSelector: { 'kraftsman.dev/cloud': 'aws' } }),
      pod('train-gcp', { gpus: 1, nodeSelector: { 'kraftsman.dev/cloud': 'gcp' } }),
    ]);
    const result = await provision();
    expect(result).toMatchObject({ outcome: 'ran', claimsCreated: 2, launchesInvoked: 2 });
    const claims = claimsOf(h);
    expect(claims.map(poolOf).sort()).toEqual(['aws-gpu', 'gcp-gpu']);
    for (const c of claims) {
      expect(conditionOf(c, 'Launched')).toBe('True');
      expect((c.status as { providerID?: string }).providerID).toMatch(/^(aws|gce):\/\//);
    }
    expect(h.invoker.records.every((r) => r.outcome === 'succeeded')).toBe(true);
    await expect.poll(() => h.list('Node').length).toBe(2);
    expect(await lifecycle()).toMatchObject({ outcome: 'ran', registered: 2, failed: 0 });
    expect(await lifecycle()).toMatchObject({ outcome: 'ran', initialized: 2, failed: 0 });
    for (const n of h.list('Node')) {
      expect(n.metadata.labels).toMatchObject({
        'karpenter.sh/registered': 'true',
        'karpenter.sh/initialized': 'true',
      });
      expect((n.spec as { taints?: { key: string }[] }).taints ?? []).not.toContainEqual(
        expect.objectContaining({ key: 'karpenter.sh/unregistered' }),
      );
    }
    expect([...h.bind().bound].sort()).toEqual(['default/train-aws', 'default/train-gcp']);
  });

  it.each([
    ['aws', 'EC2 CreateFleet with MinTargetCapacity'],
    ['gcp', 'Compute Engine bulkInsert with minCount'],
  ] as const)('a Volcano gang on %s launches whole, as one unit (%s)', async (cloud, _how) => {
    const before = new Set(claimsOf(h).map((c) => c.metadata.name));
    const group = `gang-${cloud}`;
    h.seed([
      podGroup(group, 3),
      // Volcano's nominatedNodeName on a stuck gang member does not hide its demand (the IsPreempting fix).
      ...[0, 1, 2].map((i) =>
        // Each member needs a whole node's GPUs (g5.12xlarge: 4, g2-standard-24: 2), so the gang spans 3 nodes.
        pod(`${group}-${i}`, {
          gpus: cloud === 'aws' ? 4 : 2,
          cpu: '3',
          gang: group,
          nodeSelector: { 'kraftsman.dev/cloud': cloud },
          ...(i === 0 ? { nominatedNodeName: 'somewhere' } : {}),
        }),
      ),
    ]);
    const result = await provision();
    expect(result).toMatchObject({ outcome: 'ran', launchesInvoked: 1 });
    const gangClaims = claimsOf(h).filter((c) => !before.has(c.metadata.name));
    expect(gangClaims).toHaveLength(3);
    const launchIds = new Set(
      gangClaims.map((c) => (c.metadata.annotations as Record<string, string>)['kraftsman.dev/gang']),
    );
    expect(launchIds.size).toBe(1);
    for (const c of gangClaims) expect(conditionOf(c, 'Launched')).toBe('True');
    const launches = h.invoker.records.filter((r) => r.target === `launch-${cloud}`);
    expect(launches.at(-1)?.payload).toMatchObject({
      claims: expect.arrayContaining(gangClaims.map((c) => c.metadata.name)),
    });
    await expect.poll(() => h.list('Node').length).toBeGreaterThanOrEqual(before.size + 3);
    await lifecycle();
    await lifecycle();
    expect([...h.bind().bound].sort()).toEqual([0, 1, 2].map((i) => `default/${group}-${i}`));
  });
});
