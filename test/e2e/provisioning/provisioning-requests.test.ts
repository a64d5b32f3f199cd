// ProvisioningRequests answered by the provision handler on both clouds (docs/mechanisms/provisioning-requests.md,
// "In the loop"): an atomic request launches all its claims as one gang and is Provisioned=True
// CapacityIsProvisioned; a second pass, or a pass after one that died before its status patch, launches nothing
// more; one that cannot fit opens nothing and is Provisioned=False CapacityIsNotFound (Cluster Autoscaler's
// best-effort-atomic-scale-up answer); a request of another class is left alone with one event.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../local/kube-api/index.ts';
import { startHarness, wireLaunchers, type E2eHarness } from '../../support/e2e/index.ts';
import { gpuPools } from '../../support/e2e/gpu-pools.ts';
import { provisionOnce } from '../../support/e2e/steps.ts';
import {
  conditionsOf,
  gpuTemplate,
  provisioningRequest,
  requestOf,
} from '../../support/e2e/provisioning-requests.ts';

const ATOMIC = 'best-effort-atomic-scale-up.autoscaling.x-k8s.io';
const REQUEST_ANNOTATION = 'kraftsman.dev/provisioning-request';

const annotationsOf = (o: KubeObject) => (o.metadata.annotations ?? {}) as Record<string, string>;

describe.each(['aws', 'gcp'] as const)(
  'an atomic ProvisioningRequest on %s through the provision handler',
  (cloud) => {
    let h: E2eHarness;
    beforeEach(async () => {
      h = await startHarness({ objects: gpuPools('unweighted') });
      wireLaunchers(h);
      h.seed([gpuTemplate('worker', cloud, 1), gpuTemplate('giant', cloud, 64)]);
    });
    afterEach(async () => {
      await h?.close();
    });

    const instances = () => (cloud === 'aws' ? h.ec2.world.live() : h.gce.world.live());

    it('launches claims for all its pods as one gang, then Provisioned=True CapacityIsProvisioned; a second pass launches nothing', async () => {
      h.seed([provisioningRequest('job', ATOMIC, 'worker', 3)]);
      const { result } = await provisionOnce(h);
      expect(result).toMatchObject({ outcome: 'ran', requestsAnswered: 1, launchesInvoked: 1 });
      const claims = h.list('NodeClaim');
      expect(claims.length).toBeGreaterThan(0);
      for (const c of claims) expect(annotationsOf(c)[REQUEST_ANNOTATION]).toBe('ml/job');
      // one gang launch id for every claim of the request
      expect(new Set(claims.map((c) => annotationsOf(c)['kraftsman.dev/gang'])).size).toBe(1);
      expect(h.invoker.records.map((r) => [r.target, r.outcome])).toEqual([[`launch-${cloud}`, 'succeeded']]);
      expect(instances().length).toBe(claims.length);
      const pr = requestOf(h, 'job');
      const c = conditionsOf(h, 'job');
      expect(c.Accepted).toMatchObject({ status: 'True', reason: 'Accepted' });
      expect(c.Provisioned).toMatchObject({ status: 'True', reason: 'CapacityIsProvisioned' });
      // written by the pass's clock (which runs on from the harness's start)
      expect(Date.parse(c.Provisioned?.lastTransitionTime ?? '')).toBeLessThanOrEqual(
        h.clock.now().getTime(),
      );
      if (pr.metadata.generation !== undefined)
        expect(c.Provisioned?.observedGeneration).toBe(pr.metadata.generation);

      const again = await provisionOnce(h);
      expect(again.result).toMatchObject({ outcome: 'ran', requestsAnswered: 0, claimsCreated: 0 });
      expect(h.list('NodeClaim')).toHaveLength(claims.length);
      expect(instances().length).toBe(claims.length);
    });

    it('a pass that died between the launch and the status patch: the next finds its claims and launches nothing', async () => {
      h.seed([provisioningRequest('job', ATOMIC, 'worker', 2)]);
      await provisionOnce(h);
      const claims = h.list('NodeClaim').length;
      // the status as if the patch had never been written
      h.kube.store.patch(
        h.kube.typeOf('ProvisioningRequest'),
        'ml',
        'job',
        'application/merge-patch+json',
        { status: { conditions: null } },
        'status',
      );
      expect(conditionsOf(h, 'job')).toEqual({});
      const { result } = await provisionOnce(h);
      expect(result).toMatchObject({ requestsAnswered: 1, claimsCreated: 0, launchesInvoked: 0 });
      expect(h.list('NodeClaim')).toHaveLength(claims);
      expect(conditionsOf(h, 'job').Provisioned).toMatchObject({
        status: 'True',
        reason: 'CapacityIsProvisioned',
      });
    });

    it('one that cannot fit opens nothing: Provisioned=False CapacityIsNotFound, as Cluster Autoscaler answers', async () => {
      h.seed([provisioningRequest('huge', ATOMIC, 'giant', 2)]);
      const { result } = await provisionOnce(h);
      expect(result).toMatchObject({
        outcome: 'ran',
        requestsAnswered: 1,
        claimsCreated: 0,
        launchesInvoked: 0,
      });
      expect(h.list('NodeClaim')).toEqual([]);
      expect(instances()).toEqual([]);
      expect(conditionsOf(h, 'huge').Provisioned).toMatchObject({
        status: 'False',
        reason: 'CapacityIsNotFound',
      });
      expect(conditionsOf(h, 'huge').Failed).toBeUndefined();
      const warned = h
        .list('Event')
        .filter((e) => (e as { reason?: string }).reason === 'CapacityIsNotFound');
      expect(warned.map((e) => (e as { type?: string }).type)).toEqual(['Warning']);
    });
  },
);

describe('a ProvisioningRequest of another class', () => {
  let h: E2eHarness;
  beforeEach(async () => {
    h = await startHarness({ objects: gpuPools('unweighted') });
    wireLaunchers(h);
  });
  afterEach(async () => {
    await h?.close();
  });

  it('is left alone: no claim, no condition, one event however many passes', async () => {
    h.seed([
      gpuTemplate('worker', 'aws', 1),
      provisioningRequest('gke', 'queued-provisioning.gke.io', 'worker', 1),
    ]);
    await provisionOnce(h);
    await provisionOnce(h);
    h.clock.advance(60_000);
    await provisionOnce(h);
    expect(h.list('NodeClaim')).toEqual([]);
    expect(conditionsOf(h, 'gke')).toEqual({});
    const events = h
      .list('Event')
      .filter((e) => (e as { reason?: string }).reason === 'ProvisioningClassNotSupported');
    expect(events).toHaveLength(1);
    expect((events[0] as { involvedObject?: { kind?: string; name?: string } }).involvedObject).toMatchObject(
      {
        kind: 'ProvisioningRequest',
        name: 'gke',
      },
    );
  });
});
