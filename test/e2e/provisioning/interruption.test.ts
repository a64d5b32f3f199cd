// Interruptions through the lifecycle handler: an EC2 Spot interruption warning arriving in an SQS batch (the
// EventBridge → SQS queue) and a Compute Engine preemption read by the scheduled run each stamp the cause,
// evict the pods through the Eviction API (they come back pending and provision replaces the node) and
// terminate the instance once the pods are gone. Rebalance recommendations only inform; state changes and
// scheduled changes drain; a malformed record comes back as a batch item failure, the rest are handled.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebalanceRecommendation, spotInterruptionWarning, stateChange } from '../../../local/ec2/events.ts';
import type { EmuInstance } from '../../../local/ec2/world.ts';
import { nodePool, pod, startHarness, wireLaunchers, type E2eHarness } from '../../support/e2e/index.ts';
import {
  annotationsOf,
  bringUp,
  claimOfPool,
  instanceOf,
  interruptionBatch,
  lifecycleOnce,
  nodeOf,
  podsOn,
  providerIdOf,
  provisionOnce,
  taintsOf,
} from '../../support/e2e/steps.ts';

const CAUSE = 'kraftsman.dev/termination-cause';
const M = {
  disrupted: 'karpenter_nodeclaims_disrupted_total',
  terminated: 'karpenter_nodeclaims_terminated_total',
  lifetime: 'kraftsman_nodeclaim_lifetime_seconds',
  termination: 'kraftsman_nodeclaim_termination_duration_seconds',
};
/**
 * Claims not being deleted: an interrupted claim is deleted when its termination starts, and its finalizer holds
 * it, marked, until its Node is drained and its instance gone (docs/mechanisms/termination-finalizer.md).
 */
const liveClaims = (h: E2eHarness): Set<string> =>
  new Set(
    h
      .list('NodeClaim')
      .filter((c) => !c.metadata.deletionTimestamp)
      .map((c) => String(c.metadata.name)),
  );
/** The emulator's default grace period is 30 s: past it, evicted pods are gone and the drain can finish. */
const PAST_GRACE_MS = 31_000;

describe('interruptions through the lifecycle handler', () => {
  let h: E2eHarness;
  beforeAll(async () => {
    h = await startHarness({
      objects: [
        nodePool('aws-spot', 'aws', { capacityTypes: ['spot'], instanceTypes: ['g5.xlarge'] }),
        nodePool('gcp-spot', 'gcp', { capacityTypes: ['spot'], instanceTypes: ['g2-standard-4'] }),
      ],
    });
    wireLaunchers(h);
  });
  afterAll(async () => {
    await h?.close();
  });

  const workload = (rs: string, pool: string, n = 1) =>
    Array.from({ length: n }, (_, i) =>
      pod(`${rs}-p${i}`, { gpus: 1, replicaSet: rs, nodeSelector: { 'karpenter.sh/nodepool': pool } }),
    );
  const ec2Instance = (claim: Parameters<typeof providerIdOf>[0]): EmuInstance => {
    const i = h.ec2.world.instances.get(instanceOf(providerIdOf(claim)));
    if (!i) throw new Error(`no EC2 instance for ${String(claim?.metadata.name)}`);
    return i;
  };
  const pending = (rs: string) =>
    h
      .list('Pod')
      .filter((p) => String(p.metadata.name).startsWith(`${rs}-`))
      .filter((p) => !(p.spec as { nodeName?: string }).nodeName && !p.metadata.deletionTimestamp);
  const evictions = () => h.kube.audit.count('create', 'pods/eviction');

  it('EC2 spot interruption (SQS): cause stamped, pods evicted, a replacement provisioned, the old node terminated', async () => {
    const [claim] = await bringUp(h, workload('spot-aws', 'aws-spot'));
    const node = claim && nodeOf(h, claim);
    expect(node && podsOn(h, String(node.metadata.name))).toHaveLength(1);
    const instance = ec2Instance(claim);
    const evictedBefore = evictions();

    const { response, requestId } = await interruptionBatch(h, [
      spotInterruptionWarning(h.ec2.world, instance),
    ]);
    expect(response).toEqual({ batchItemFailures: [] });
    expect(liveClaims(h).has(String(claim?.metadata.name))).toBe(false);
    const draining = h.list('Node').find((n) => n.metadata.name === node?.metadata.name);
    expect(draining && annotationsOf(draining)[CAUSE]).toBe('spot-interruption');
    expect(draining && taintsOf(draining)).toContainEqual(
      expect.objectContaining({ key: 'karpenter.sh/disrupted', effect: 'NoSchedule' }),
    );
    // Evicted through the Eviction API, gracefully: the pod runs on while its ReplicaSet's replacement waits.
    expect(evictions() - evictedBefore).toBe(1);
    expect(podsOn(h, String(node?.metadata.name))[0]?.metadata.deletionTimestamp).toBeDefined();
    expect(pending('spot-aws')).toHaveLength(1);
    expect(instance.state).toBe('running');

    const { result } = await provisionOnce(h);
    expect(result).toMatchObject({ outcome: 'ran', claimsCreated: 1 });
    expect(liveClaims(h)).not.toContain(claim?.metadata.name);
    expect(claimOfPool(h, 'aws-spot').filter((c) => !c.metadata.deletionTimestamp)).toHaveLength(1);

    h.clock.advance(PAST_GRACE_MS);
    expect((await lifecycleOnce(h)).result).toMatchObject({ outcome: 'ran', drained: 1 });
    expect(h.list('Node').map((n) => n.metadata.name)).not.toContain(node?.metadata.name);
    expect(['shutting-down', 'terminated']).toContain(instance.state);
    // With the instance gone, the claim's finalizer is released and the claim goes too.
    expect(h.list('NodeClaim').map((c) => c.metadata.name)).not.toContain(claim?.metadata.name);

    // Every interruption kind is one cause on the histograms; the kind is the disrupted count's reason.
    const labels = { cause: 'interruption', capacity_type: 'spot', instance_type: 'g5.xlarge' };
    expect(
      h.metrics.total(M.disrupted, { ...labels, nodepool: 'aws-spot', reason: 'spot-interruption' }),
    ).toBe(1);
    expect(h.metrics.total(M.terminated, labels)).toBe(1);
    expect(h.metrics.named(M.lifetime, { ...labels, origin: 'provisioning' })).toHaveLength(1);
    const [took] = h.metrics.named(M.termination, labels);
    expect(took?.value).toBeGreaterThanOrEqual(PAST_GRACE_MS / 1000);
    expect(h.logger.entries).toContainEqual(
      expect.objectContaining({
        message: 'terminating NodeClaim',
        fields: expect.objectContaining({
          requestId,
          claim: claim?.metadata.name,
          cause: 'spot-interruption',
        }),
      }),
    );
  });

  it('Compute Engine preemption (scheduled run): cause stamped, pods evicted, replaced, node removed', async () => {
    const [claim] = await bringUp(h, workload('spot-gcp', 'gcp-spot'));
    const node = claim && nodeOf(h, claim);
    const [, zone = '', name = ''] = /\/([^/]+)\/([^/]+)$/.exec(providerIdOf(claim) ?? '') ?? [];
    h.gce.preempt(zone, name);

    const { result, passId, requestId } = await lifecycleOnce(h);
    expect(result).toMatchObject({ outcome: 'ran', interruptions: 1, failed: 0 });
    expect(liveClaims(h).has(String(claim?.metadata.name))).toBe(false);
    const draining = h.list('Node').find((n) => n.metadata.name === node?.metadata.name);
    expect(draining && annotationsOf(draining)[CAUSE]).toBe('preempted');
    expect(pending('spot-gcp')).toHaveLength(1);
    expect(h.logger.entries).toContainEqual(
      expect.objectContaining({
        message: 'terminating NodeClaim',
        fields: expect.objectContaining({ requestId, passId, claim: claim?.metadata.name }),
      }),
    );

    expect((await provisionOnce(h)).result).toMatchObject({ claimsCreated: 1 });
    expect(claimOfPool(h, 'gcp-spot').filter((c) => !c.metadata.deletionTimestamp)).toHaveLength(1);
    h.clock.advance(PAST_GRACE_MS);
    expect((await lifecycleOnce(h)).result).toMatchObject({ drained: 1, failed: 0 });
    expect(h.list('Node').map((n) => n.metadata.name)).not.toContain(node?.metadata.name);
    const labels = { cause: 'interruption', capacity_type: 'spot', instance_type: 'g2-standard-4' };
    expect(h.metrics.total(M.disrupted, { ...labels, reason: 'preempted' })).toBe(1);
    expect(h.metrics.total(M.terminated, labels)).toBe(1);
  });

  it('one SQS batch: rebalance informs, state and scheduled changes drain, malformed records fail alone', async () => {
    const claims = await bringUp(h, workload('mixed', 'aws-spot', 3));
    expect(claims).toHaveLength(3);
    const [a, b, c] = claims.map(ec2Instance) as [EmuInstance, EmuInstance, EmuInstance];
    const stopping = {
      ...stateChange(h.ec2.world, b),
      detail: { 'instance-id': b.instanceId, state: 'stopping' },
    };
    const health = {
      version: '0',
      id: 'health-1',
      'detail-type': 'AWS Health Event',
      source: 'aws.health',
      account: '123456789012',
      time: new Date().toISOString(),
      region: 'us-east-1',
      resources: [],
      detail: {
        service: 'EC2',
        eventTypeCategory: 'scheduledChange',
        eventTypeCode: 'AWS_EC2_PERSISTENT_INSTANCE_RETIREMENT_SCHEDULED',
        affectedEntities: [{ entityValue: c.instanceId }],
      },
    };
    const notJson = '{"detail-type": "EC2 Spot Instance Interruption Warning"';
    const noInstance = {
      ...spotInterruptionWarning(h.ec2.world, a),
      detail: { 'instance-action': 'terminate' },
    };
    // Another cluster's instance (or one already gone): not ours, not a failure.
    const foreign = {
      ...spotInterruptionWarning(h.ec2.world, a),
      detail: { 'instance-id': 'i-0abc', 'instance-action': 'terminate' },
    };
    const { response, ids } = await interruptionBatch(h, [
      rebalanceRecommendation(h.ec2.world, a),
      notJson,
      stopping,
      noInstance,
      health,
      foreign,
    ]);
    expect(response.batchItemFailures.map((f) => f.itemIdentifier)).toEqual([ids[1], ids[3]]);

    const byInstance = (i: EmuInstance) => claims.find((x) => instanceOf(providerIdOf(x)) === i.instanceId);
    expect(liveClaims(h).has(String(byInstance(a)?.metadata.name))).toBe(true);
    expect(liveClaims(h).has(String(byInstance(b)?.metadata.name))).toBe(false);
    expect(liveClaims(h).has(String(byInstance(c)?.metadata.name))).toBe(false);
    const causeOn = (i: EmuInstance) => {
      const claim = byInstance(i);
      const n = claim && nodeOf(h, claim);
      return n ? annotationsOf(n)[CAUSE] : undefined;
    };
    expect([causeOn(a), causeOn(b), causeOn(c)]).toEqual([
      undefined,
      'instance-stopped',
      'scheduled-maintenance',
    ]);
    const rejected = h.logger.entries.filter((e) => e.message === 'interruption message rejected');
    expect(rejected.map((e) => e.fields.messageId)).toEqual([ids[1], ids[3]]);
    expect(String(rejected[1]?.fields.error)).toMatch(/instance-id/);
  });
});
