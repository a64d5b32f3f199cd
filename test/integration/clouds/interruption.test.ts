// Interruption end to end: the emulators emit what the clouds emit (EventBridge events, GCE preemption
// operations); the adapters translate them and the use case stamps the termination cause and drains.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ec2InterruptionSignals,
  ec2SignalsFromEvents,
  parseEc2Event,
  InterruptionEventError,
} from '../../../shared/adapters/aws-ec2/interruption.ts';
import { gceInterruptionSignals } from '../../../shared/adapters/gcp-compute/interruption.ts';
import { handleInterruptions, type InterruptionPorts } from '../../../shared/loop/interruption.ts';
import type { Ec2Event } from '../../../local/ec2/events.ts';
import { claim } from '../../contracts/cloud-provider/contract.ts';
import { nodeClaim } from '../../contracts/cluster/harness.ts';
import { FakeCluster } from '../../fakes/cluster.ts';
import { ec2NodeClass, startEc2Rig, type Ec2Rig } from './ec2-setup.ts';
import { gceNodeClass, startGceRig, type GceRig } from './gce-setup.ts';

/**
 * The use case's Cluster: the in-memory FakeCluster (a contract-tested Cluster) holding claims with Karpenter's
 * termination finalizer, so a drain marks a claim deleting instead of removing it. A claim listed as
 * `goneAfterList` is deleted by "someone else" right after the use case lists the claims.
 */
function clusterWith(claims: readonly { name: string; providerID: string; goneAfterList?: boolean }[]) {
  const cluster = new (class extends FakeCluster {
    override async listNodeClaims() {
      const listed = await super.listNodeClaims();
      for (const c of claims.filter((x) => x.goneAfterList && listed.some((l) => l.metadata.name === x.name)))
        await this.deleteNodeClaim(c.name);
      return listed;
    }
  })();
  cluster.seed(
    claims.map((c) =>
      nodeClaim(c.name, {
        metadata: { name: c.name, finalizers: c.goneAfterList ? [] : ['karpenter.sh/termination'] },
        status: { providerID: c.providerID },
      }),
    ),
  );
  return {
    ports: { cluster } satisfies InterruptionPorts,
    annotations: async (name: string) => (await cluster.getNodeClaim(name)).metadata.annotations,
    drained: async () =>
      (await cluster.listNodeClaims())
        .filter((c) => c.metadata.deletionTimestamp)
        .map((c) => c.metadata.name),
  };
}

describe('EC2 interruption events', () => {
  let rig: Ec2Rig;
  const events: Ec2Event[] = [];
  beforeAll(async () => {
    rig = await startEc2Rig({ emulator: { onEvent: (e) => void events.push(e) } });
  });
  afterAll(() => rig.close());

  it('stamps spot-interruption on the claim and drains it early; the later state change keeps the first cause', async () => {
    const types = await rig.provider.instanceTypes(ec2NodeClass());
    const c = claim('spot-int');
    c.spec.requirements = [{ key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot'] }];
    const { instance } = await rig.provider.create({
      claim: c,
      nodeClass: ec2NodeClass(),
      instanceTypes: types,
    });
    const instanceId = instance.providerId.split('/').pop() as string;
    events.length = 0;
    rig.emulator.interruptSpot(instanceId, 0);
    await expect.poll(() => events.some((e) => e.detail.state === 'terminated')).toBe(true);
    const signals = events.map(parseEc2Event).flatMap(ec2InterruptionSignals);
    expect(signals.map((s) => s.cause)).toEqual(['spot-interruption', 'instance-terminated']);
    const world = clusterWith([
      { name: 'spot-int', providerID: instance.providerId },
      { name: 'other', providerID: 'aws:///us-east-1a/i-0000000000000000f' },
    ]);
    const outcome = await handleInterruptions(signals, world.ports);
    expect(await world.annotations('spot-int')).toEqual({
      'kraftsman.dev/termination-cause': 'spot-interruption',
    });
    expect(await world.drained()).toEqual(['spot-int']);
    expect(outcome).toMatchObject({ signals: 2, annotated: 1, drained: 1, unmatched: 0, failed: 0 });
  });

  it('only notes a rebalance recommendation, and counts signals no claim owns', async () => {
    const types = await rig.provider.instanceTypes(ec2NodeClass());
    const { instance } = await rig.provider.create({
      claim: claim('rebalance-1'),
      nodeClass: ec2NodeClass(),
      instanceTypes: types,
    });
    events.length = 0;
    rig.emulator.recommendRebalance(instance.providerId.split('/').pop() as string);
    const signals = events.map(parseEc2Event).flatMap(ec2InterruptionSignals);
    const stranger = { ...signals[0]!, instance: 'i-0ffffffffffffffff', drain: true };
    const world = clusterWith([{ name: 'rebalance-1', providerID: instance.providerId }]);
    const outcome = await handleInterruptions([...signals, stranger], world.ports);
    expect(outcome).toMatchObject({ noted: 1, unmatched: 1, annotated: 0, drained: 0 });
    expect(await world.drained()).toEqual([]);
    expect(await world.annotations('rebalance-1')).toBeUndefined();
  });

  it('keeps going when one claim fails and reports it in the counts', async () => {
    const at = new Date();
    const signals = [
      { cloud: 'aws' as const, instance: 'i-0aa', cause: 'instance-stopped' as const, drain: true, at },
      { cloud: 'aws' as const, instance: 'i-0bb', cause: 'instance-stopped' as const, drain: true, at },
    ];
    const world = clusterWith([
      { name: 'broken', providerID: 'aws:///us-east-1a/i-0aa', goneAfterList: true },
      { name: 'fine', providerID: 'aws:///us-east-1b/i-0bb' },
    ]);
    const outcome = await handleInterruptions(signals, world.ports);
    expect(outcome).toMatchObject({ annotated: 1, drained: 1, failed: 1 });
    expect(outcome.errors).toEqual([
      { claim: 'broken', error: 'ObjectNotFoundError: NodeClaim broken not found' },
    ]);
    expect(await world.drained()).toEqual(['fine']);
  });

  it('translates a batch, counting the events it cannot read instead of failing the batch', () => {
    const good = {
      version: '0',
      id: 'a',
      'detail-type': 'EC2 Instance State-change Notification',
      source: 'aws.ec2',
      account: '1',
      time: '2026-11-30T00:00:00Z',
      region: 'us-east-1',
      resources: [],
      detail: { 'instance-id': 'i-0abc', state: 'stopping' },
    };
    const health = {
      version: '0',
      id: 'b',
      'detail-type': 'AWS Health Event',
      source: 'aws.health',
      account: '1',
      time: '2026-11-30T00:00:00Z',
      region: 'us-east-1',
      detail: {
        service: 'EC2',
        eventTypeCategory: 'scheduledChange',
        affectedEntities: [{ entityValue: 'i-0def' }],
      },
    };
    const { signals, rejected } = ec2SignalsFromEvents([good, { 'detail-type': 'Something Else' }, health]);
    expect(signals.map((s) => `${s.instance}:${s.cause}`)).toEqual([
      'i-0abc:instance-stopped',
      'i-0def:scheduled-maintenance',
    ]);
    expect(rejected).toEqual([{ index: 1, error: expect.stringContaining('"Something Else"') }]);
  });

  it('rejects a malformed event with a message naming the event and the field', () => {
    const bad = {
      version: '0',
      id: 'x',
      'detail-type': 'EC2 Spot Instance Interruption Warning',
      source: 'aws.ec2',
      account: '1',
      time: '2026-11-30T00:00:00Z',
      region: 'us-east-1',
      resources: [],
      detail: { 'instance-id': 'not-an-id', 'instance-action': 'terminate' },
    };
    expect(() => parseEc2Event(bad)).toThrow(InterruptionEventError);
    expect(() => parseEc2Event(bad)).toThrow(/"EC2 Spot Instance Interruption Warning".*detail\.instance-id/);
  });
});

describe('Compute Engine preemption', () => {
  let rig: GceRig;
  beforeAll(async () => {
    rig = await startGceRig();
  });
  afterAll(() => rig.close());

  it('finds the preemption operation, stamps preempted on the claim and drains it', async () => {
    const since = new Date(Date.now() - 1000);
    const types = await rig.provider.instanceTypes(gceNodeClass());
    const c = claim('spot-vm-1');
    c.spec.requirements = [
      { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot'] },
      { key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['g2-standard-4'] },
    ];
    const { instance } = await rig.provider.create({
      claim: c,
      nodeClass: gceNodeClass(),
      instanceTypes: types,
    });
    expect(instance.capacityType).toBe('spot');
    rig.emulator.preempt(instance.zone, 'spot-vm-1');
    const { signals, skipped } = await rig.provider.interruptions(since);
    expect(skipped).toBe(0);
    expect(signals).toEqual([
      expect.objectContaining({
        cloud: 'gcp',
        instance: 'spot-vm-1',
        zone: instance.zone,
        cause: 'preempted',
        drain: true,
      }),
    ]);
    const world = clusterWith([{ name: 'spot-vm-1', providerID: instance.providerId }]);
    expect(await handleInterruptions(signals, world.ports)).toMatchObject({ annotated: 1, drained: 1 });
    expect(await world.annotations('spot-vm-1')).toEqual({ 'kraftsman.dev/termination-cause': 'preempted' });
    expect(rig.emulator.world.live()).toHaveLength(0);
  });

  it('skips malformed operations and ones older than the window', () => {
    const old = {
      operationType: 'compute.instances.preempted',
      targetLink: 'https://x/zones/z/instances/a',
      insertTime: '2020-01-01T00:00:00Z',
    };
    const { signals, skipped } = gceInterruptionSignals(
      [old, { operationType: 'compute.instances.preempted' }],
      new Date('2026-01-01T00:00:00Z'),
    );
    expect(signals).toEqual([]);
    expect(skipped).toBe(1);
  });
});
