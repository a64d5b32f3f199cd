// Cross-cloud gang failover through the handlers (docs/mechanisms/gangs.md#cross-cloud-failover): a Volcano gang
// whose cheapest cloud refuses it for capacity (EC2 InsufficientInstanceCapacity, Compute Engine
// ZONE_RESOURCE_POOL_EXHAUSTED) lands whole on the other cloud on the next provisioning pass, the refused
// offerings in the ICE cache and no failure reported in between; a gang pinned to its cloud is reported failed,
// not moved; a gang both clouds refuse is reported failed naming both.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Cloud } from '../../../shared/model/labels.ts';
import type { KubeObject } from '../../../local/kube-api/index.ts';
import {
  pod,
  podGroup,
  provisionHandler,
  lambdaContext,
  scheduledEvent,
  startHarness,
  wireLaunchers,
  type E2eHarness,
} from '../../support/e2e/index.ts';
import {
  AWS_GPU_TYPES,
  exhaustCapacity,
  GCP_GPU_TYPES,
  weightedGpuPools,
} from '../../support/e2e/gpu-pools.ts';
import { labelsOf, provisionOnce, providerIdOf } from '../../support/e2e/steps.ts';
import { systemTimer } from '../../../shared/adapters/system-timer.ts';
import type { Timer } from '../../../shared/ports/timer.ts';

const other = (c: Cloud): Cloud => (c === 'aws' ? 'gcp' : 'aws');

const pools = weightedGpuPools;

/** A 2-member Volcano gang of 1-GPU pods; `pin` keeps it on one cloud by its pods' node selector. */
const gang = (pin?: Cloud): KubeObject[] => [
  podGroup('train', 2),
  ...[0, 1].map((i) =>
    pod(`train-${i}`, {
      gpus: 1,
      gang: 'train',
      ...(pin ? { nodeSelector: { 'kraftsman.dev/cloud': pin } } : {}),
    }),
  ),
];

const exhaust = exhaustCapacity;

interface EventView {
  reason: string;
  type: string;
  message: string;
  involvedObject: { kind: string; name: string };
}
const events = (h: E2eHarness, reason: string): EventView[] =>
  (h.list('Event') as unknown as EventView[]).filter((e) => e.reason === reason);
const poolsOfClaims = (h: E2eHarness): string[] =>
  h.list('NodeClaim').map((c) => labelsOf(c)['karpenter.sh/nodepool'] ?? '');
const failovers = (h: E2eHarness) => h.metrics.named('kraftsman_gang_failovers_total');

describe.each(['aws', 'gcp'] as const)('a gang refused for capacity on %s', (cheapest) => {
  const to = other(cheapest);
  let h: E2eHarness;
  beforeEach(async () => {
    h = await startHarness({ objects: pools(cheapest) });
    wireLaunchers(h);
  });
  afterEach(async () => {
    await h?.close();
  });

  it(`lands whole on ${to} on the next pass, the refused offerings cached and no failure reported meanwhile`, async () => {
    exhaust(h, cheapest, cheapest === 'aws' ? AWS_GPU_TYPES : GCP_GPU_TYPES);
    h.seed(gang());
    expect((await provisionOnce(h)).result).toMatchObject({ claimsCreated: 1, launchesInvoked: 1 });
    // The launcher refused the gang whole: its claim is gone, its offerings are in the ICE cache.
    expect(h.list('NodeClaim')).toEqual([]);
    const cached = (await h.store().loadPassState(h.clusterName)).unavailableOfferings;
    expect(cached.length).toBeGreaterThan(0);
    expect(new Set(cached.map((o) => o.cloud))).toEqual(new Set([cheapest]));
    expect(events(h, 'InsufficientCapacityError')).toHaveLength(1);
    expect(events(h, 'GangFailed')).toEqual([]);

    await provisionOnce(h);
    const claims = h.list('NodeClaim');
    expect(claims.length).toBeGreaterThan(0);
    expect(poolsOfClaims(h).every((p) => p === `${to}-gpu`)).toBe(true);
    for (const c of claims) expect(providerIdOf(c)).toMatch(to === 'aws' ? /^aws:\/\// : /^gce:\/\//);
    const moved = events(h, 'GangFailover');
    expect(moved.map((e) => e.involvedObject.name).sort()).toEqual(['train-0', 'train-1']);
    for (const e of moved) {
      expect(e.type).toBe('Normal');
      expect(e.message).toBe(
        `gang default/train refused for capacity on ${cheapest}: launching it whole on ${to}`,
      );
    }
    expect(failovers(h).map((r) => r.labels)).toEqual([{ from_cloud: cheapest, to_cloud: to }]);
    expect(events(h, 'GangFailed')).toEqual([]);
  });

  it(`moves to ${to} within the same provision invocation: the watch loop's next batch places it again`, async () => {
    exhaust(h, cheapest, cheapest === 'aws' ? AWS_GPU_TYPES : GCP_GPU_TYPES);
    h.seed(gang());
    // The watch's waits let the launch it invoked finish first, then move the clock on: the batches follow each
    // other as in a deployed run, without real waiting. The lease heartbeat (every 10 s of a 30 s lease) waits
    // for real and is cut short when the run releases the lease.
    const timer: Timer = {
      async sleep(ms, signal) {
        if (ms >= 10_000) return systemTimer.sleep(ms, signal);
        await h.invoker.settled();
        h.clock.advance(ms);
      },
    };
    const watch = { windowMs: 60_000, pollMs: 5_000, idleMs: 1_000, maxMs: 5_000 };
    const result = await provisionHandler({ ...h, timer }, watch)(
      scheduledEvent(h.clock),
      lambdaContext('provision'),
    );
    await h.invoker.settled();
    expect(result).toMatchObject({ outcome: 'ran', batches: 2, failedBatches: 0 });
    expect(h.list('NodeClaim').length).toBeGreaterThan(0);
    expect(poolsOfClaims(h).every((p) => p === `${to}-gpu`)).toBe(true);
    expect(events(h, 'GangFailover')).toHaveLength(2);
    expect(events(h, 'GangFailed')).toEqual([]);
  });

  it(`is reported failed, not moved, when its requirements pin it to ${cheapest}`, async () => {
    exhaust(h, cheapest, cheapest === 'aws' ? AWS_GPU_TYPES : GCP_GPU_TYPES);
    h.seed(gang(cheapest));
    await provisionOnce(h);
    expect(h.list('NodeClaim')).toEqual([]);
    await provisionOnce(h);
    expect(poolsOfClaims(h).filter((p) => p === `${to}-gpu`)).toEqual([]);
    const failed = events(h, 'GangFailed');
    expect(failed.map((e) => e.involvedObject.name).sort()).toEqual(['train-0', 'train-1']);
    for (const e of failed) {
      expect(e.type).toBe('Warning');
      expect(e.message).toContain(
        `refused for capacity on ${cheapest}; its requirements admit no NodePool on ${to}`,
      );
    }
    expect(events(h, 'GangFailover')).toEqual([]);
    expect(failovers(h)).toEqual([]);
  });
});

describe('a gang both clouds refuse', () => {
  let h: E2eHarness;
  beforeEach(async () => {
    h = await startHarness({ objects: pools('aws', { aws: ['g5.xlarge'], gcp: ['g2-standard-4'] }) });
    wireLaunchers(h);
  });
  afterEach(async () => {
    await h?.close();
  });

  it('moves once, then is reported failed naming both clouds, with every refused offering cached', async () => {
    exhaust(h, 'aws', ['g5.xlarge']);
    exhaust(h, 'gcp', ['g2-standard-4']);
    h.seed(gang());
    await provisionOnce(h); // aws refuses
    await provisionOnce(h); // moved whole to gcp, which refuses too
    expect(events(h, 'GangFailover')).toHaveLength(2);
    expect(events(h, 'GangFailed')).toEqual([]);
    await provisionOnce(h); // nothing left on either cloud
    expect(h.list('NodeClaim')).toEqual([]);
    const failed = events(h, 'GangFailed');
    expect(failed.map((e) => e.involvedObject.name).sort()).toEqual(['train-0', 'train-1']);
    for (const e of failed)
      expect(e.message).toMatch(/refused for capacity on gcp; aws cannot take it now either/);
    const cached = (await h.store().loadPassState(h.clusterName)).unavailableOfferings;
    expect(new Set(cached.map((o) => `${o.cloud}/${o.instanceType}`))).toEqual(
      new Set(['aws/g5.xlarge', 'gcp/g2-standard-4']),
    );
  });
});
