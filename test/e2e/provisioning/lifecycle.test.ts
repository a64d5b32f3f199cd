// The lifecycle handler's timeouts and garbage collection on scheduled runs, with the harness clock moved
// ahead instead of waiting: launch timeout, registration timeout (15 min, a NodePool's own 25 min honoured),
// initialization timeout (never_initialized); an orphan instance of this cluster is terminated on both clouds
// while another cluster's stays, and a claim whose instance vanished is deleted with its Node.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Closer, buildEc2Provider } from '../../../functions/compose/index.ts';
import { buildGceProvider } from '../../../functions/compose/gce.ts';
import { markLostNodes } from '../../../local/kubelet.ts';
import { collectGarbage } from '../../../shared/loop/garbage-collection.ts';
import { guard } from '../../../shared/loop/guard.ts';
import { builtinLookup } from '../../../shared/loop/prices.ts';
import { launchRequestSchema } from '../../../shared/loop/launch-request.ts';
import type { CloudProvider } from '../../../shared/ports/cloud-provider/index.ts';
import { LOCAL_CREDENTIALS } from '../../support/dynamodb/credentials.ts';
import {
  fakeGoogleAuth,
  nodePool,
  pod,
  startHarness,
  wireLaunchers,
  type E2eHarness,
} from '../../support/e2e/index.ts';
import {
  bringUp,
  claimNames,
  claimOfPool,
  deletePods,
  instanceOf,
  lifecycleOnce,
  nodeOf,
  providerIdOf,
  provisionOnce,
} from '../../support/e2e/steps.ts';

const MIN = 60_000;
const M = {
  created: 'karpenter_nodeclaims_created_total',
  disrupted: 'karpenter_nodeclaims_disrupted_total',
  terminated: 'karpenter_nodeclaims_terminated_total',
  lifetime: 'kraftsman_nodeclaim_lifetime_seconds',
  startup: 'karpenter_pods_startup_duration_seconds',
  scheduling: 'karpenter_provisioner_scheduling_duration_seconds',
  gc: 'kraftsman_garbage_collected_total',
};
const AWS = ['g5.xlarge'];
const GCP = ['g2-standard-4'];

describe('lifecycle timeouts and garbage collection through the handler', () => {
  let h: E2eHarness;
  const closer = new Closer();
  beforeAll(async () => {
    h = await startHarness({
      objects: [
        nodePool('aws-gpu', 'aws', { instanceTypes: AWS }),
        nodePool('gcp-gpu', 'gcp', { instanceTypes: GCP }),
        // GPU hosts that take long to join: their own registration timeout (docs/functions/lifecycle.md).
        nodePool('aws-slow', 'aws', {
          instanceTypes: AWS,
          annotations: { 'kraftsman.dev/registration-timeout': '25m' },
        }),
        nodePool('aws-stuck', 'aws', {
          instanceTypes: AWS,
          startupTaints: [{ key: 'example.com/driver-not-ready', effect: 'NoSchedule' }],
        }),
      ],
    });
    wireLaunchers(h);
  });
  afterAll(async () => {
    await closer.close();
    await h?.close();
  });

  const onPool = (name: string, pool: string) =>
    pod(name, { gpus: 1, nodeSelector: { 'karpenter.sh/nodepool': pool } });
  const ec2State = (claim: Parameters<typeof providerIdOf>[0]) =>
    h.ec2.world.instances.get(instanceOf(providerIdOf(claim)))?.state;
  const gone = (state: string | undefined) => state === undefined || /shutting-down|terminated/.test(state);

  /** A launch whose claim is then deleted: this cluster's instance with no NodeClaim (a crashed launch, say). */
  const strayLaunch = async (pool: string, podName: string, providers: readonly CloudProvider[]) => {
    const payloads: unknown[] = [];
    const cloud = providers[0]?.cloud ?? 'aws';
    h.invoker.register(`launch-${cloud}`, async (p) => void payloads.push(p));
    h.seed([onPool(podName, pool)]);
    await provisionOnce(h);
    wireLaunchers(h);
    deletePods(h, [podName]);
    const request = launchRequestSchema.parse(payloads[0]);
    const claim = await h.cluster().getNodeClaim(request.claims[0] ?? '');
    const ids: string[] = [];
    for (const [i, p] of providers.entries()) {
      // Priced as a launcher prices with no stored book yet: the built-in catalog.
      const types = await p.instanceTypes(request.nodeClass, {
        prices: async () => builtinLookup(cloud),
      });
      const named = { ...claim, metadata: { ...claim.metadata, name: `${claim.metadata.name}-${i}` } };
      ids.push(
        (
          await p.create({
            claim: named,
            nodeClass: request.nodeClass,
            instanceTypes: types,
            join: { id: 'abcdef', secret: '0123456789abcdef' },
          })
        ).instance.providerId,
      );
    }
    h.kube.store.delete(h.kube.typeOf('NodeClaim'), undefined, claim.metadata.name);
    return ids;
  };

  it('garbage collection: this cluster’s orphan instances are terminated on both clouds, another cluster’s are not', async () => {
    const otherEc2 = buildEc2Provider(
      { ...h.settings.ec2, clusterName: 'other' },
      h.clock,
      h.logger,
      LOCAL_CREDENTIALS,
      closer,
      undefined,
      h.deployment,
    );
    const otherGce = buildGceProvider(
      { ...h.settings.gce, clusterName: 'other' },
      h.clock,
      h.logger,
      fakeGoogleAuth(),
      closer,
      undefined,
      h.deployment,
    );
    h.registerNodes = false;
    const [oursAws, theirsAws] = await strayLaunch('aws-gpu', 'stray-aws', [h.ec2Provider(), otherEc2]);
    const [oursGcp, theirsGcp] = await strayLaunch('gcp-gpu', 'stray-gcp', [h.gceProvider(), otherGce]);
    // Compute Engine boots a VM once it is RUNNING, after the insert: wait for that while no Node may register.
    const vmStatus = (id: string | undefined) => {
      const [, zone = '', name = ''] = /^gce:\/\/[^/]+\/([^/]+)\/(.+)$/.exec(id ?? '') ?? [];
      return h.gce.world.instances.get(h.gce.world.key(zone, name))?.status;
    };
    await expect.poll(() => [oursGcp, theirsGcp].map(vmStatus)).toEqual(['RUNNING', 'RUNNING']);
    h.registerNodes = true;
    const live = async (p: CloudProvider) =>
      (await p.list()).filter((i) => i.state !== 'terminated').map((i) => i.providerId);
    // EC2 lists a new instance only after a moment (eventual consistency, on in the harness).
    await expect.poll(() => live(h.ec2Provider())).toContain(oursAws);
    expect(await live(h.gceProvider())).toContain(oursGcp);

    // Younger than the grace period: a launch may still be on its way to its claim's status.
    expect((await lifecycleOnce(h)).result).toMatchObject({ garbage: { instances: 0 } });
    h.clock.advance(2 * MIN);
    expect((await lifecycleOnce(h)).result).toMatchObject({ garbage: { instances: 2 }, failed: 0 });
    expect(await live(h.ec2Provider())).not.toContain(oursAws);
    expect(await live(h.gceProvider())).not.toContain(oursGcp);
    expect(await live(otherEc2)).toContain(theirsAws);
    expect(await live(otherGce)).toContain(theirsGcp);
    expect(h.metrics.total(M.gc, { kind: 'instance', cloud: 'aws' })).toBe(1);
    expect(h.metrics.total(M.gc, { kind: 'instance', cloud: 'gcp' })).toBe(1);
  });

  it('launch timeout: a claim that never got an instance is deleted after 5 minutes', async () => {
    h.invoker.register('launch-aws', async () => undefined); // the launch is lost
    h.seed([onPool('never-launched', 'aws-gpu')]);
    const { result } = await provisionOnce(h);
    expect(result).toMatchObject({ claimsCreated: 1 });
    const [claim] = claimOfPool(h, 'aws-gpu');
    expect(providerIdOf(claim)).toBeUndefined();
    deletePods(h, ['never-launched']);
    wireLaunchers(h);
    expect((await lifecycleOnce(h)).result).toMatchObject({ terminated: 0 });
    h.clock.advance(6 * MIN);
    const { result: r, passId } = await lifecycleOnce(h);
    expect(r).toMatchObject({ outcome: 'ran', terminated: 1, failed: 0 });
    expect(claimNames(h).has(String(claim?.metadata.name))).toBe(false);
    expect(h.metrics.total(M.disrupted, { cause: 'launch_timeout', nodepool: 'aws-gpu' })).toBe(1);
    expect(h.logger.entries).toContainEqual(
      expect.objectContaining({
        message: 'terminating NodeClaim',
        fields: expect.objectContaining({ passId, claim: claim?.metadata.name, cause: 'launch_timeout' }),
      }),
    );
  });

  it('registration timeout: 15 minutes by default, a NodePool with 25 minutes is not timed out at 16', async () => {
    h.registerNodes = false;
    h.seed([onPool('reg-default', 'aws-gpu'), onPool('reg-slow', 'aws-slow')]);
    expect((await provisionOnce(h)).result).toMatchObject({ claimsCreated: 2, launchesInvoked: 2 });
    deletePods(h, ['reg-default', 'reg-slow']);
    const [quick] = claimOfPool(h, 'aws-gpu');
    const [slow] = claimOfPool(h, 'aws-slow');
    expect(ec2State(quick)).toBe('running');

    h.clock.advance(16 * MIN);
    expect((await lifecycleOnce(h)).result).toMatchObject({ terminated: 1, failed: 0 });
    expect(claimNames(h).has(String(quick?.metadata.name))).toBe(false);
    expect(gone(ec2State(quick))).toBe(true);
    expect(claimNames(h).has(String(slow?.metadata.name))).toBe(true);
    expect(ec2State(slow)).toBe('running');

    h.clock.advance(10 * MIN);
    expect((await lifecycleOnce(h)).result).toMatchObject({ terminated: 1, failed: 0 });
    expect(claimNames(h).has(String(slow?.metadata.name))).toBe(false);
    expect(gone(ec2State(slow))).toBe(true);
    const labels = { cause: 'registration_timeout', instance_type: 'g5.xlarge', capacity_type: 'on-demand' };
    expect(h.metrics.total(M.disrupted, labels)).toBe(2);
    expect(h.metrics.total(M.terminated, labels)).toBe(2);
    expect(
      h.metrics.named(M.lifetime, { ...labels, nodepool: 'aws-slow', origin: 'provisioning' }),
    ).toHaveLength(1);
    h.registerNodes = true;
  });

  it('initialization timeout: a Node whose startup taint never goes is terminated as never_initialized', async () => {
    const [claim] = await bringUp(h, [onPool('stuck', 'aws-stuck')]);
    const node = claim && nodeOf(h, claim);
    expect(node?.metadata.labels).toMatchObject({ 'karpenter.sh/registered': 'true' });
    expect(node?.metadata.labels).not.toHaveProperty(['karpenter.sh/initialized']);
    deletePods(h, ['stuck']);
    h.clock.advance(16 * MIN);
    expect((await lifecycleOnce(h)).result).toMatchObject({ terminated: 1, drained: 1, failed: 0 });
    expect(claimNames(h).has(String(claim?.metadata.name))).toBe(false);
    expect(h.list('Node').map((n) => n.metadata.name)).not.toContain(node?.metadata.name);
    expect(gone(ec2State(claim))).toBe(true);
    const labels = { cause: 'never_initialized', instance_type: 'g5.xlarge', capacity_type: 'on-demand' };
    expect(h.metrics.total(M.disrupted, labels)).toBe(1);
    expect(h.metrics.total(M.terminated, labels)).toBe(1);
    expect(h.metrics.named(M.lifetime, { ...labels, origin: 'provisioning' })).toHaveLength(1);
  });

  it('a claim whose instance vanished is deleted with its Node; provisioning metrics were recorded on the way', async () => {
    const claims = await bringUp(h, [onPool('vanish-aws', 'aws-gpu'), onPool('vanish-gcp', 'gcp-gpu')]);
    expect(claims).toHaveLength(2);
    const nodes = claims.map((c) => nodeOf(h, c)?.metadata.name);
    expect(nodes.every(Boolean)).toBe(true);
    for (const c of claims) {
      const pid = providerIdOf(c) ?? '';
      if (pid.startsWith('aws://')) {
        const i = h.ec2.world.instances.get(instanceOf(pid));
        if (i) i.state = 'terminated';
      } else {
        const [, zone = '', name = ''] = /\/([^/]+)\/([^/]+)$/.exec(pid) ?? [];
        h.gce.world.instances.delete(h.gce.world.key(zone, name));
      }
    }
    // The kubelets stopped with their instances: Karpenter's collector skips a claim whose Node is still Ready.
    markLostNodes(h.kube, { ec2: h.ec2.world, gce: h.gce.world });
    h.clock.advance(2 * MIN);
    expect((await lifecycleOnce(h)).result).toMatchObject({ garbage: { claims: 2 }, failed: 0 });
    for (const c of claims) expect(claimNames(h).has(String(c.metadata.name))).toBe(false);
    for (const n of nodes) expect(h.list('Node').map((x) => x.metadata.name)).not.toContain(n);
    expect(h.metrics.total(M.gc, { kind: 'nodeclaim', cloud: 'aws' })).toBe(1);
    expect(h.metrics.total(M.gc, { kind: 'nodeclaim', cloud: 'gcp' })).toBe(1);
    // The way up: claims created per NodePool, a scheduling duration per batch, pod startup at initialization.
    expect(h.metrics.total(M.created, { nodepool: 'gcp-gpu' })).toBeGreaterThanOrEqual(1);
    expect(h.metrics.named(M.scheduling).length).toBeGreaterThan(0);
    expect(h.metrics.named(M.startup).length).toBeGreaterThanOrEqual(2);
  });

  it('garbage collection reads the claims after the cloud: a launch newer than its snapshot is not an orphan', async () => {
    // The snapshot a lifecycle run took before this minute's provisioning pass created its claims.
    const stale = (await h.cluster().readSnapshot()).objects;
    const claims = await bringUp(h, [onPool('late-aws', 'aws-gpu'), onPool('late-gcp', 'gcp-gpu')]);
    expect(claims).toHaveLength(2);
    h.clock.advance(2 * MIN);
    const deps = {
      cluster: h.cluster(),
      providers: { aws: h.ec2Provider(), gcp: h.gceProvider() },
      clock: h.clock,
      logger: h.logger,
      metrics: h.metrics,
    };
    const g = guard(deps, { objects: stale, invalid: [] });
    expect(await collectGarbage(deps, stale, MIN, g)).toEqual({ instances: 0, claims: 0 });
    expect(ec2State(claims.find((c) => providerIdOf(c)?.startsWith('aws://')))).toBe('running');
    const gcpId = providerIdOf(claims.find((c) => providerIdOf(c)?.startsWith('gce://'))) ?? '';
    expect((await h.gceProvider().list()).map((i) => i.providerId)).toContain(gcpId);
  });
});
