// An atomic ProvisioningRequest whose launch a cloud refuses for capacity after it was answered
// (docs/mechanisms/provisioning-requests.md, "Refused capacity"): its claims are gone, so on the next pass it is
// answered again, whole on the other cloud first; when every cloud refuses, it is Provisioned=False
// CapacityIsNotFound with no claim left, so Kueue does not admit a job onto capacity that does not exist.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../local/kube-api/index.ts';
import type { Cloud } from '../../../shared/model/labels.ts';
import { pod, startHarness, wireLaunchers, type E2eHarness } from '../../support/e2e/index.ts';
import {
  AWS_GPU_TYPES,
  exhaustCapacity,
  GCP_GPU_TYPES,
  weightedGpuPools,
} from '../../support/e2e/gpu-pools.ts';
import { conditionsOf, provisioningRequest, requestOf } from '../../support/e2e/provisioning-requests.ts';
import { labelsOf, provisionOnce } from '../../support/e2e/steps.ts';

const ATOMIC = 'best-effort-atomic-scale-up.autoscaling.x-k8s.io';
const REQUEST_ANNOTATION = 'kraftsman.dev/provisioning-request';
const TYPES = { aws: AWS_GPU_TYPES, gcp: GCP_GPU_TYPES };
const other = (c: Cloud): Cloud => (c === 'aws' ? 'gcp' : 'aws');

/** A PodTemplate whose pod asks one GPU on either cloud. */
function anyCloudTemplate(name: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'PodTemplate',
    metadata: { name, namespace: 'ml' },
    template: { metadata: { labels: { app: name } }, spec: pod(name, { gpus: 1, cpu: '1' }).spec },
  };
}
const requestClaims = (h: E2eHarness) =>
  h
    .list('NodeClaim')
    .filter(
      (c) =>
        (c.metadata.annotations as Record<string, string> | undefined)?.[REQUEST_ANNOTATION] === 'ml/job',
    );
const detailOf = (h: E2eHarness) =>
  (requestOf(h, 'job').status as { provisioningClassDetails?: Record<string, string> } | undefined)
    ?.provisioningClassDetails?.['kraftsman.dev/nodeclaims'];
const refusedEvents = (h: E2eHarness) =>
  (h.list('Event') as unknown as { reason: string; message: string }[]).filter(
    (e) => e.reason === 'CapacityRefused',
  );

describe.each(['aws', 'gcp'] as const)(
  'an atomic ProvisioningRequest refused for capacity on %s',
  (first) => {
    const to = other(first);
    let h: E2eHarness;
    beforeEach(async () => {
      h = await startHarness({ objects: weightedGpuPools(first) });
      wireLaunchers(h);
      h.seed([anyCloudTemplate('worker')]);
    });
    afterEach(async () => {
      await h?.close();
    });

    it(`is answered again on the next pass, whole on ${to}, and Provisioned=True with its new claims`, async () => {
      exhaustCapacity(h, first, TYPES[first]);
      h.seed([provisioningRequest('job', ATOMIC, 'worker', 2)]);
      await provisionOnce(h);
      // answered on the weighted cloud, whose launcher refused the claims and deleted them
      expect(conditionsOf(h, 'job').Provisioned).toMatchObject({ status: 'True' });
      const refusedNames = (detailOf(h) ?? '').split(',').filter(Boolean);
      expect(refusedNames.length).toBeGreaterThan(0);
      expect(requestClaims(h)).toEqual([]);

      const { result } = await provisionOnce(h);
      expect(result).toMatchObject({ requestsAnswered: 1, launchesInvoked: 1 });
      const claims = requestClaims(h);
      expect(claims.length).toBeGreaterThan(0);
      for (const c of claims) expect(labelsOf(c)['karpenter.sh/nodepool']).toBe(`${to}-gpu`);
      const live = to === 'aws' ? h.ec2.world.live() : h.gce.world.live();
      expect(live).toHaveLength(claims.length);
      expect(conditionsOf(h, 'job').Provisioned).toMatchObject({
        status: 'True',
        reason: 'CapacityIsProvisioned',
      });
      expect(detailOf(h)?.split(',').sort()).toEqual(claims.map((c) => c.metadata.name).sort());
      const [refused, ...more] = refusedEvents(h);
      expect(more).toEqual([]);
      expect(refused?.message).toMatch(
        new RegExp(`InsufficientCapacityError.*answered again, off ${first} first`),
      );

      // a third pass finds its claims: nothing more
      const again = await provisionOnce(h);
      expect(again.result).toMatchObject({ requestsAnswered: 0, claimsCreated: 0 });
    });

    it('every cloud refusing: Provisioned=False CapacityIsNotFound and no claim left', async () => {
      exhaustCapacity(h, 'aws', AWS_GPU_TYPES);
      exhaustCapacity(h, 'gcp', GCP_GPU_TYPES);
      h.seed([provisioningRequest('job', ATOMIC, 'worker', 2)]);
      // each launch tries one offering (CreateFleet instant / bulkInsert: one type, one zone), refused and cached;
      // the request is answered again after each refusal until no offering of either cloud is left
      let passes = 0;
      while (passes < 20 && conditionsOf(h, 'job').Provisioned?.status !== 'False') {
        await provisionOnce(h);
        passes += 1;
      }
      const offerings = 2 * (AWS_GPU_TYPES.length + GCP_GPU_TYPES.length);
      expect(passes).toBeLessThanOrEqual(offerings + 1);
      expect(requestClaims(h)).toEqual([]);
      expect(h.ec2.world.live()).toEqual([]);
      expect(h.gce.world.live()).toEqual([]);
      expect(conditionsOf(h, 'job').Provisioned).toMatchObject({
        status: 'False',
        reason: 'CapacityIsNotFound',
      });
      expect(detailOf(h)).toBeUndefined();
      // one refusal per launch after the first answer, every one of them answered again
      expect(refusedEvents(h).length).toBe(passes - 1);
      expect(refusedEvents(h).length).toBeGreaterThanOrEqual(2);
    });
  },
);
