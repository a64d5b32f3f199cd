// Garbage collection's rules one at a time (docs/mechanisms/identity.md): the real KubeCluster on the Kubernetes
// API emulator, the recording fake cloud providers (held to the adapters' contract) for both clouds. An orphan
// instance goes only past the grace and only when no claim, listed before or after the cloud, owns it; a claim
// goes only when registered, past the grace, its instance proven gone and its Node not Ready.
import { afterEach, describe, expect, it } from 'vitest';
import { KubeApiEmulator } from '../../../local/kube-api/server.ts';
import { defaultCrds } from '../../../local/kube-api/crds.ts';
import type { KubeObject } from '../../../local/kube-api/store.ts';
import { KubeCluster, kubeConfigFor, makeClients } from '../../../shared/adapters/kube/index.ts';
import { collectGarbage } from '../../../shared/loop/garbage-collection.ts';
import { guard } from '../../../shared/loop/guard.ts';
import { REFUSAL_METRIC } from '../../../shared/loop/refusals.ts';
import { RetryableCloudError } from '../../../shared/ports/cloud-provider/errors.ts';
import { providerId, type CloudInstance } from '../../../shared/ports/cloud-provider/index.ts';
import type { InvalidObject } from '../../../shared/ports/cluster/index.ts';
import { FAKE_CLUSTER_TAG, FAKE_DEPLOYMENT_TAG, FakeCloudProvider } from '../../fakes/cloud-provider.ts';
import { ManualClock } from '../../fakes/manual-clock.ts';
import { MemoryLogger } from '../../fakes/memory-logger.ts';
import { RecordingMetrics } from '../../fakes/recording-metrics.ts';
import { node } from '../disruption/fixtures.ts';

const MIN = 60_000;
const GRACE = MIN;
const GC = 'kraftsman_garbage_collected_total';
const T0 = Date.parse('2026-09-01T12:00:00Z');
const awsId = (name: string) => `aws:///us-east-1a/i-${name}`;
const gceId = (name: string) => `gce://fake/us-central1-a/${name}`;

interface ClaimSpec {
  providerID?: string;
  nodeName?: string;
  registered?: boolean;
  /** Held by Karpenter's finalizer, so that a delete leaves it in place with a deletionTimestamp. */
  deleting?: boolean;
}

function claim(name: string, s: ClaimSpec = {}): KubeObject {
  const at = new Date(T0).toISOString();
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodeClaim',
    metadata: {
      name,
      labels: { 'karpenter.sh/nodepool': 'default' },
      ...(s.deleting ? { finalizers: ['karpenter.sh/termination'] } : {}),
    },
    spec: {
      nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
      requirements: [],
    },
    status: {
      ...(s.providerID ? { providerID: s.providerID } : {}),
      ...(s.nodeName ? { nodeName: s.nodeName } : {}),
      conditions: [
        { type: 'Launched', status: 'True', lastTransitionTime: at, reason: 'Launched' },
        ...(s.registered === false
          ? []
          : [{ type: 'Registered', status: 'True', lastTransitionTime: at, reason: 'Registered' }]),
      ],
    },
  } as KubeObject;
}

/** A Node of no NodePool (not one kraftsman drains) on `providerID`. */
function plainNode(name: string, providerID: string, ready = true): KubeObject {
  const n = node(name, { pool: null, ready }) as KubeObject & { spec: { providerID: string } };
  n.spec.providerID = providerID;
  return n;
}

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers) await close();
  closers = [];
});

async function world(objects: readonly KubeObject[]) {
  const clock = new ManualClock(T0);
  const emulator = new KubeApiEmulator({ crds: defaultCrds(), now: () => clock.now() });
  const url = await emulator.start();
  closers.push(() => emulator.close());
  emulator.seed(objects);
  const cluster = new KubeCluster(makeClients(kubeConfigFor(url, 'test-token')));
  const aws = new FakeCloudProvider([], 'aws');
  const gcp = new FakeCloudProvider([], 'gcp');
  const deps = {
    cluster,
    providers: { aws, gcp },
    clock,
    logger: new MemoryLogger(),
    metrics: new RecordingMetrics(),
  };
  /** An instance of this cluster and deployment, launched `ageMs` before now. */
  const instance = (
    provider: FakeCloudProvider,
    id: string,
    ageMs: number | undefined,
    extra: Partial<CloudInstance> = {},
  ): void =>
    provider.plant({
      providerId: providerId(id),
      cloud: provider.cloud,
      instanceType: 'g5.xlarge',
      zone: 'us-east-1a',
      capacityType: 'on-demand',
      state: 'running',
      ...(ageMs === undefined ? {} : { launchTime: new Date(clock.now().getTime() - ageMs) }),
      tags: { [FAKE_CLUSTER_TAG]: 'test', [FAKE_DEPLOYMENT_TAG]: provider.deployment },
      ...extra,
    });
  const state = (provider: FakeCloudProvider, id: string) => provider.instances.get(providerId(id))?.state;
  /** One collection over a snapshot read now (or `read`, taken earlier), with these invalid objects. */
  const collect = async (
    invalid: InvalidObject[] = [],
    read?: Awaited<ReturnType<typeof cluster.readSnapshot>>,
  ) => {
    const r = read ?? (await cluster.readSnapshot());
    return collectGarbage(deps, r.objects, GRACE, guard(deps, { objects: r.objects, invalid }));
  };
  const names = async (kind: 'Node' | 'NodeClaim') =>
    (kind === 'Node' ? await cluster.listNodes() : await cluster.listNodeClaims()).map(
      (o) => o.metadata.name,
    );
  return { clock, emulator, cluster, aws, gcp, deps, instance, state, collect, names };
}

/** The messages of the events recorded on an object. */
function eventsOn(w: Awaited<ReturnType<typeof world>>, kind: string, name: string): string[] {
  return w.emulator.store
    .list(w.emulator.typeOf('Event'), 'default')
    .items.filter((e) => {
      const o = e.involvedObject as { kind: string; name: string };
      return o.kind === kind && o.name === name;
    })
    .map((e) => String(e.message));
}
const refusalEvents = (w: Awaited<ReturnType<typeof world>>, claimName: string) =>
  eventsOn(w, 'NodeClaim', claimName);

/** The involved objects of the events recorded on NodeClaims. */
const claimEventObjects = (w: Awaited<ReturnType<typeof world>>) =>
  w.emulator.store
    .list(w.emulator.typeOf('Event'), 'default')
    .items.map((e) => e.involvedObject as { kind: string; name: string; uid?: string })
    .filter((o) => o.kind === 'NodeClaim');

/** The refusals logged, with the fields an operator reads. */
const refusalLines = (w: Awaited<ReturnType<typeof world>>) =>
  w.deps.logger.entries.filter((e) => e.message === 'destructive action refused').map((e) => e.fields);

describe('garbage collection of instances', () => {
  it('terminates this cluster’s instance that no claim owns once the grace has passed, on both clouds, with its Node', async () => {
    // A Node without a spec (the Node type allows it) is no instance's and no obstacle.
    const bare = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'bare' } } as KubeObject;
    const w = await world([plainNode('orphan-node', awsId('orphan')), bare]);
    w.instance(w.aws, awsId('orphan'), GRACE);
    w.instance(w.gcp, gceId('orphan-g'), GRACE + 1);
    expect(await w.collect()).toEqual({ instances: 2, claims: 0 });
    expect(w.state(w.aws, awsId('orphan'))).toBe('terminated');
    expect(w.state(w.gcp, gceId('orphan-g'))).toBe('terminated');
    expect(await w.names('Node')).toEqual(['bare']);
    expect(w.deps.metrics.total(GC, { kind: 'instance', cloud: 'aws' })).toBe(1);
    expect(w.deps.metrics.total(GC, { kind: 'instance', cloud: 'gcp' })).toBe(1);
    expect(w.deps.logger.entries).toContainEqual(
      expect.objectContaining({
        level: 'info',
        message: 'terminated an instance no NodeClaim owns',
        fields: { providerID: awsId('orphan') },
      }),
    );
  });

  it('keeps an instance younger than the grace, and one with no launch time', async () => {
    const w = await world([]);
    w.instance(w.aws, awsId('young'), GRACE - 1);
    w.instance(w.aws, awsId('timeless'), undefined);
    expect(await w.collect()).toEqual({ instances: 0, claims: 0 });
    expect(w.state(w.aws, awsId('young'))).toBe('running');
    expect(w.state(w.aws, awsId('timeless'))).toBe('running');
    expect(w.aws.calls.map((c) => c.method)).not.toContain('delete');
  });

  it('keeps an instance a claim owns, by the provider ID in its status or by the claim name tagged on it', async () => {
    const w = await world([
      claim('by-id', { providerID: awsId('by-id') }),
      claim('by-tag', { registered: false }),
    ]);
    w.instance(w.aws, awsId('by-id'), 10 * MIN);
    w.instance(w.aws, awsId('by-tag'), 10 * MIN, { nodeClaim: 'by-tag' as CloudInstance['nodeClaim'] });
    w.clock.advance(10 * MIN);
    expect(await w.collect()).toEqual({ instances: 0, claims: 0 });
    // Listed, so neither an orphan nor a vanished claim's: not even read again.
    expect(w.aws.calls.map((c) => c.method)).toEqual(['list']);
  });

  it('terminates a second instance launched for a claim that names another, and counts it', async () => {
    const w = await world([claim('twice', { providerID: awsId('kept') })]);
    const tagged = { nodeClaim: 'twice' as CloudInstance['nodeClaim'] };
    w.instance(w.aws, awsId('kept'), 10 * MIN, tagged);
    w.instance(w.aws, awsId('extra'), 10 * MIN, tagged);
    expect(await w.collect()).toEqual({ instances: 1, claims: 0 });
    expect(w.state(w.aws, awsId('extra'))).toBe('terminated');
    expect(w.state(w.aws, awsId('kept'))).toBe('running');
  });

  it('counts nothing and keeps the Node when the provider refuses to terminate an instance', async () => {
    const bad = 'aws:///us-east-1a/not-an-instance';
    const w = await world([plainNode('refused-node', bad)]);
    w.instance(w.aws, bad, 10 * MIN);
    expect(await w.collect()).toEqual({ instances: 0, claims: 0 });
    expect(await w.names('Node')).toContain('refused-node');
    expect(w.deps.metrics.total(GC)).toBe(0);
    expect(
      w.deps.metrics.total(REFUSAL_METRIC, { action: 'terminate', reason: 'malformed-provider-id' }),
    ).toBe(1);
    expect(eventsOn(w, 'Node', 'refused-node')).toEqual([expect.stringContaining('terminate refused')]);
  });

  it('keeps an instance whose managed Node is draining, and one already terminating', async () => {
    const w = await world([node('draining', { pool: 'default' }) as KubeObject]);
    w.instance(w.aws, awsId('draining'), 10 * MIN);
    w.instance(w.aws, awsId('ending'), 10 * MIN, { state: 'terminating' });
    expect(await w.collect()).toEqual({ instances: 0, claims: 0 });
    expect(w.aws.calls.map((c) => c.method)).not.toContain('delete');
    expect(await w.names('Node')).toContain('draining');
  });

  it('keeps an instance whose claim was created after the snapshot (a launch of this minute)', async () => {
    const w = await world([]);
    const stale = await w.cluster.readSnapshot();
    w.emulator.seed([claim('late', { providerID: awsId('late'), registered: false })]);
    w.instance(w.aws, awsId('late'), 10 * MIN);
    expect(await w.collect([], stale)).toEqual({ instances: 0, claims: 0 });
    expect(w.state(w.aws, awsId('late'))).toBe('running');
  });

  it('keeps an instance an invalid object concerns, and says why', async () => {
    const w = await world([]);
    w.instance(w.aws, awsId('marked'), 10 * MIN, { nodeClaim: 'broken' as CloudInstance['nodeClaim'] });
    const invalid = {
      kind: 'NodeClaim',
      name: 'broken',
      message: 'spec.taints[0].value: bad',
      nodes: [],
      providerIds: [],
    } as const;
    expect(await w.collect([invalid])).toEqual({ instances: 0, claims: 0 });
    expect(w.state(w.aws, awsId('marked'))).toBe('running');
    expect(w.deps.metrics.total(REFUSAL_METRIC, { action: 'terminate', reason: 'invalid-object' })).toBe(1);
  });
});

describe('garbage collection of claims', () => {
  /** A registered claim on a Node that is not Ready, whose instance the cloud no longer has. */
  const gone = (name: string, id: string, ready = false) => [
    claim(name, { providerID: id, nodeName: `node-${name}` }),
    plainNode(`node-${name}`, id, ready),
  ];

  it('deletes a registered claim whose instance is gone, with its Node, past the grace, on both clouds', async () => {
    const w = await world([
      ...gone('lost-a', awsId('lost-a')),
      ...gone('lost-g', gceId('lost-g')),
      claim('no-node', { providerID: awsId('no-node'), nodeName: 'node-never-seen' }),
    ]);
    w.instance(w.aws, awsId('lost-a'), 10 * MIN, { state: 'terminated' });
    w.clock.advance(GRACE);
    expect(await w.collect()).toEqual({ instances: 0, claims: 3 });
    expect(await w.names('NodeClaim')).toEqual([]);
    expect(await w.names('Node')).toEqual([]);
    expect(w.deps.metrics.total(GC, { kind: 'nodeclaim', cloud: 'aws' })).toBe(2);
    expect(w.deps.metrics.total(GC, { kind: 'nodeclaim', cloud: 'gcp' })).toBe(1);
    expect(w.deps.logger.entries).toContainEqual(
      expect.objectContaining({
        message: 'deleted a NodeClaim whose instance is gone',
        fields: { claim: 'lost-a', providerID: awsId('lost-a') },
      }),
    );
  });

  it('keeps a claim younger than the grace', async () => {
    const w = await world(gone('young', awsId('young')));
    w.clock.advance(GRACE - 1);
    expect(await w.collect()).toEqual({ instances: 0, claims: 0 });
    expect(await w.names('NodeClaim')).toEqual(['young']);
  });

  it('keeps a claim with no instance yet, one being deleted, and one not registered', async () => {
    const w = await world([
      claim('no-instance'),
      (({ status: _, ...rest }) => rest)(claim('no-status')) as KubeObject,
      claim('deleting', { providerID: awsId('deleting'), deleting: true }),
      claim('unregistered', { providerID: awsId('unregistered'), registered: false }),
    ]);
    // Deleted while its finalizer holds it: it stays, with a deletionTimestamp, for its termination to finish.
    w.emulator.store.delete(w.emulator.typeOf('NodeClaim'), undefined, 'deleting');
    w.clock.advance(10 * MIN);
    expect(await w.collect()).toEqual({ instances: 0, claims: 0 });
    expect((await w.names('NodeClaim')).sort()).toEqual([
      'deleting',
      'no-instance',
      'no-status',
      'unregistered',
    ]);
  });

  it('keeps a claim whose instance the list missed but a direct read finds running', async () => {
    const w = await world(gone('lagging', awsId('lagging')));
    // Another deployment's tag: the list leaves it out, a direct read still finds it.
    w.instance(w.aws, awsId('lagging'), 10 * MIN, { tags: { [FAKE_CLUSTER_TAG]: 'test' } });
    w.clock.advance(10 * MIN);
    expect(await w.collect()).toEqual({ instances: 0, claims: 0 });
    expect(await w.names('NodeClaim')).toEqual(['lagging']);
  });

  it('keeps a claim whose Node is still Ready, and records the refusal', async () => {
    const w = await world(gone('ready', awsId('ready'), true));
    w.clock.advance(10 * MIN);
    expect(await w.collect()).toEqual({ instances: 0, claims: 0 });
    expect(await w.names('NodeClaim')).toEqual(['ready']);
    expect(
      w.deps.metrics.total(REFUSAL_METRIC, { action: 'delete-nodeclaim', reason: 'absence-unconfirmed' }),
    ).toBe(1);
    expect(refusalEvents(w, 'ready')).toEqual([expect.stringContaining('its Node node-ready is Ready')]);
    const uid = (await w.cluster.getNodeClaim('ready')).metadata.uid;
    expect(uid).toBeTruthy();
    expect(claimEventObjects(w)).toEqual([expect.objectContaining({ name: 'ready', uid })]);
    expect(refusalLines(w)).toEqual([
      expect.objectContaining({ providerID: awsId('ready'), object: 'NodeClaim/ready', uid }),
    ]);
  });

  it('keeps a claim naming another project’s instance: its absence cannot be proven', async () => {
    const foreign = 'gce://other-project/us-central1-a/theirs';
    const w = await world(gone('foreign', foreign));
    w.clock.advance(10 * MIN);
    expect(await w.collect()).toEqual({ instances: 0, claims: 0 });
    expect(await w.names('NodeClaim')).toEqual(['foreign']);
    expect(
      w.deps.metrics.total(REFUSAL_METRIC, { action: 'delete-nodeclaim', reason: 'foreign-project' }),
    ).toBe(1);
    expect(refusalEvents(w, 'foreign')).toEqual([
      expect.stringContaining('its instance cannot be proven gone'),
    ]);
    const uid = (await w.cluster.getNodeClaim('foreign')).metadata.uid;
    expect(claimEventObjects(w)).toEqual([expect.objectContaining({ name: 'foreign', uid })]);
    expect(refusalLines(w)).toEqual([expect.objectContaining({ providerID: foreign, uid })]);
  });

  it('fails the pass with the cloud’s own error when reading an instance fails for another reason', async () => {
    const w = await world(gone('unknown', awsId('unknown')));
    w.clock.advance(10 * MIN);
    const throttled = new RetryableCloudError('DescribeInstances throttled');
    w.aws.get = async () => {
      throw throttled;
    };
    await expect(w.collect()).rejects.toBe(throttled);
    expect(await w.names('NodeClaim')).toEqual(['unknown']);
    expect(w.deps.metrics.total(REFUSAL_METRIC)).toBe(0);
  });

  it('keeps a claim an invalid object concerns', async () => {
    const w = await world(gone('marked', awsId('marked')));
    w.clock.advance(10 * MIN);
    const invalid = {
      kind: 'Node',
      name: 'node-marked',
      message: 'spec.taints[0].effect: bad',
      nodes: ['node-marked'],
      providerIds: [],
    } as const;
    expect(await w.collect([invalid])).toEqual({ instances: 0, claims: 0 });
    expect(await w.names('NodeClaim')).toEqual(['marked']);
    expect(
      w.deps.metrics.total(REFUSAL_METRIC, { action: 'delete-nodeclaim', reason: 'invalid-object' }),
    ).toBe(1);
  });

  it('keeps a claim on a cloud it has no provider for (nothing was listed there)', async () => {
    const w = await world(gone('elsewhere', gceId('elsewhere')));
    w.clock.advance(10 * MIN);
    const { gcp: _, ...awsOnly } = w.deps.providers;
    const r = await w.cluster.readSnapshot();
    const deps = { ...w.deps, providers: awsOnly };
    expect(
      await collectGarbage(deps, r.objects, GRACE, guard(deps, { objects: r.objects, invalid: [] })),
    ).toEqual({
      instances: 0,
      claims: 0,
    });
    expect(await w.names('NodeClaim')).toEqual(['elsewhere']);
  });
});
