// An absence read from a view is confirmed before anything is destroyed on it
// (docs/mechanisms/identity.md#absence): a LIST served from a lagging cache, a warm container's watch that
// answers 200 with no body, and EC2's DescribeInstances missing an instance for minutes never terminate a
// Node that exists, nor delete its claim. Each is refused, counted and recorded as an event on the claim.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyWatches, staleView, type KubeObject } from '../../../local/kube-api/index.ts';
import type { EmuInstance } from '../../../local/ec2/world.ts';
import { REFUSAL_EVENT_REASON, REFUSAL_METRIC } from '../../../shared/loop/refusals.ts';
import { pod, type E2eHarness } from '../../support/e2e/index.ts';
import { startOneTypeGpuHarness } from '../../support/e2e/gpu-pools.ts';
import { registerEc2Node } from '../../support/e2e/nodes.ts';
import {
  bringUp,
  claimNames,
  claimOfPool,
  deletePods,
  instanceOf,
  lifecycleOnce,
  nodeOf,
  provisionOnce,
  providerIdOf,
} from '../../support/e2e/steps.ts';

const MIN = 60_000;

describe('absence is confirmed before it is acted on', () => {
  // One world per test: a pod deleted in one would leave a node another's pod lands on.
  let h: E2eHarness;
  beforeEach(async () => {
    h = await startOneTypeGpuHarness();
  });
  afterEach(async () => {
    await h?.close();
  });

  const onAws = (name: string) =>
    pod(name, { gpus: 1, nodeSelector: { 'karpenter.sh/nodepool': 'aws-gpu' } });
  const instance = (claim: KubeObject | undefined): EmuInstance => {
    const i = h.ec2.world.instances.get(instanceOf(providerIdOf(claim)));
    if (!i) throw new Error(`no EC2 instance for claim ${String(claim?.metadata.name)}`);
    return i;
  };
  /** Provisions one pod's claim with the kubelet kept from registering; the pod is gone again (no demand left). */
  const launchUnregistered = async (podName: string) => {
    h.registerNodes = false;
    const known = claimNames(h);
    h.seed([onAws(podName)]);
    await provisionOnce(h);
    deletePods(h, [podName]);
    const claim = claimOfPool(h, 'aws-gpu').find((c) => !known.has(String(c.metadata.name)));
    return { claim, name: String(claim?.metadata.name) };
  };
  const refused = (action: string) =>
    h.metrics.total(REFUSAL_METRIC, { action, reason: 'absence-unconfirmed' });
  const refusalEvents = (claim: string) =>
    h
      .list('Event')
      .filter(
        (e) =>
          e.reason === REFUSAL_EVENT_REASON &&
          (e.involvedObject as { kind: string; name: string }).name === claim,
      );
  const booted = (i: EmuInstance) => ({
    providerId: `aws:///${i.zone}/${i.instanceId}`,
    instanceId: i.instanceId,
    instanceType: i.instanceType,
    zone: i.zone,
    capacityType: i.lifecycle,
    imageId: i.imageId,
    tags: { ...i.tags },
    userData: i.userData ? Buffer.from(i.userData, 'base64').toString('utf8') : '',
  });

  it('a registered claim whose Node a lagging LIST leaves out keeps its instance, its Node and itself', async () => {
    const [claim] = await bringUp(h, [onAws('stale-list')]);
    const node = claim && nodeOf(h, claim);
    if (!claim || !node) throw new Error('no registered claim with a Node');
    const name = String(claim.metadata.name);
    const before = refused('terminate');
    const lift = staleView(h.kube, 'Node', (o) => o.metadata.name === node.metadata.name);
    const { result } = await lifecycleOnce(h).finally(lift);
    expect(result).toMatchObject({ outcome: 'ran', terminated: 0, failed: 0 });
    expect(instance(claim).state).toBe('running');
    expect(claimNames(h).has(name)).toBe(true);
    expect(h.list('Node').map((n) => n.metadata.name)).toContain(node.metadata.name);
    expect(refused('terminate') - before).toBe(1);
    expect(refusalEvents(name).length).toBeGreaterThanOrEqual(1);
    // With the view right again there is nothing to do.
    expect((await lifecycleOnce(h)).result).toMatchObject({ terminated: 0, failed: 0 });
  });

  it('a warm container whose Node watch answers 200 with no body does not time out a claim whose Node registered', async () => {
    const { claim, name } = await launchUnregistered('empty-watch');
    const warm = h.cluster();
    expect((await lifecycleOnce(h, {}, warm)).result).toMatchObject({ registered: 0, terminated: 0 });
    // The kubelet registers now; the container's next catch-up of Nodes sees nothing of it.
    registerEc2Node(h.kube, h.ec2.world, booted(instance(claim)));
    h.registerNodes = true;
    const before = refused('terminate');
    const lift = emptyWatches(h.kube, 'Node');
    h.clock.advance(16 * MIN); // past the registration timeout
    const { result } = await lifecycleOnce(h, {}, warm).finally(lift);
    expect(result).toMatchObject({ outcome: 'ran', terminated: 0, failed: 0 });
    expect(instance(claim).state).toBe('running');
    expect(claimNames(h).has(name)).toBe(true);
    expect(refused('terminate') - before).toBe(1);
    expect(refusalEvents(name).length).toBeGreaterThanOrEqual(1);
    // Once the watch delivers, the claim registers.
    expect((await lifecycleOnce(h, {}, warm)).result).toMatchObject({ registered: 1, terminated: 0 });
  });

  it('a registered claim whose instance DescribeInstances misses for minutes keeps it, and it is no orphan after', async () => {
    const [claim] = await bringUp(h, [onAws('unseen-registered')]);
    const node = claim && nodeOf(h, claim);
    if (!claim || !node) throw new Error('no registered claim with a Node');
    const name = String(claim.metadata.name);
    const i = instance(claim);
    i.unseen = 1_000_000; // invisible to every DescribeInstances until lifted
    i.unseenUntil = Number.POSITIVE_INFINITY; // however long the world clock runs
    const before = h.metrics.total(REFUSAL_METRIC, {
      action: 'delete-nodeclaim',
      reason: 'absence-unconfirmed',
    });
    h.clock.advance(3 * MIN);
    const first = await lifecycleOnce(h);
    expect(first.result).toMatchObject({ garbage: { instances: 0, claims: 0 }, failed: 0 });
    expect(claimNames(h).has(name)).toBe(true);
    expect(h.list('Node').map((n) => n.metadata.name)).toContain(node.metadata.name);
    expect(
      h.metrics.total(REFUSAL_METRIC, { action: 'delete-nodeclaim', reason: 'absence-unconfirmed' }) - before,
    ).toBe(1);
    i.unseen = 0;
    h.clock.advance(MIN);
    expect((await lifecycleOnce(h)).result).toMatchObject({
      garbage: { instances: 0, claims: 0 },
      failed: 0,
    });
    expect(i.state).toBe('running');
    expect(claimNames(h).has(name)).toBe(true);
  });

  it('a claim not registered yet whose new instance DescribeInstances misses is not collected (Karpenter collects Registered claims only)', async () => {
    const { claim, name } = await launchUnregistered('unseen-new');
    const i = instance(claim);
    i.unseen = 1_000_000;
    i.unseenUntil = Number.POSITIVE_INFINITY; // however long the world clock runs
    h.clock.advance(3 * MIN);
    expect((await lifecycleOnce(h)).result).toMatchObject({
      garbage: { instances: 0, claims: 0 },
      failed: 0,
    });
    expect(claimNames(h).has(name)).toBe(true);
    i.unseen = 0;
    h.clock.advance(MIN);
    expect((await lifecycleOnce(h)).result).toMatchObject({
      garbage: { instances: 0, claims: 0 },
      failed: 0,
    });
    expect(i.state).toBe('running');
    expect(claimNames(h).has(name)).toBe(true);
  });
});
