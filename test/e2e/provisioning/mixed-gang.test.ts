// A Volcano gang of mixed shapes on each cloud, through the handlers (docs/mechanisms/gangs.md#mixed-shapes): a CPU
// master in a CPU NodePool (its own node class) and 8-GPU workers in a GPU NodePool. Provision creates the claims
// and invokes the cloud's launcher once for the gang; every member launches on its own claim's type with its own
// node class; lifecycle registers and initializes every Node and the gang binds. When one shape cannot come up
// whole, the shapes that did launch are terminated (EC2) or deleted (Compute Engine): nothing of the gang is left.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Closer } from '../../../functions/compose/index.ts';
import { buildEc2PriceSource, buildGcePriceSourceFrom } from '../../../functions/compose/price-sources.ts';
import { createPricingHandler } from '../../../functions/pricing/handler.ts';
import type { Cloud } from '../../../shared/model/labels.ts';
import {
  ec2NodeClass,
  gceNodeClass,
  launchHandler,
  nodePool,
  pod,
  podGroup,
  startHarness,
  wireLaunchers,
  type E2eHarness,
} from '../../support/e2e/index.ts';
import { LOCAL_CREDENTIALS } from '../../support/dynamodb/credentials.ts';
import { fakeGoogleAuth } from '../../support/e2e/harness.ts';
import { lambdaContext, scheduledEvent } from '../../support/e2e/lambda-events.ts';
import { labelsOf, lifecycleOnce, provisionOnce } from '../../support/e2e/steps.ts';

const SHAPES = {
  aws: { cpu: 'm5.large', gpu: 'p4d.24xlarge', zone: 'us-east-1a' },
  gcp: { cpu: 'n1-standard-8', gpu: 'a2-highgpu-8g', zone: 'us-central1-a' },
} as const;
const WORKERS = 2;

/** Per cloud, a CPU pool with its own node class and an 8-GPU pool on the harness's GPU node class. */
function pools(): ReturnType<typeof nodePool>[] {
  return [
    ec2NodeClass('aws-cpu'),
    gceNodeClass('gcp-cpu'),
    nodePool('aws-cpu', 'aws', { instanceTypes: [SHAPES.aws.cpu], nodeClass: 'aws-cpu' }),
    nodePool('aws-gpu8', 'aws', { instanceTypes: [SHAPES.aws.gpu] }),
    nodePool('gcp-cpu', 'gcp', { instanceTypes: [SHAPES.gcp.cpu], nodeClass: 'gcp-cpu' }),
    nodePool('gcp-gpu8', 'gcp', { instanceTypes: [SHAPES.gcp.gpu] }),
  ];
}

/** The gang: one master that must land in the CPU pool, WORKERS 8-GPU workers in the GPU pool. */
function gang(cloud: Cloud): ReturnType<typeof pod>[] {
  const name = `train-${cloud}`;
  return [
    podGroup(name, WORKERS + 1),
    pod(`${name}-master`, {
      cpu: '1',
      gang: name,
      nodeSelector: { 'karpenter.sh/nodepool': `${cloud}-cpu` },
    }),
    ...Array.from({ length: WORKERS }, (_, i) =>
      pod(`${name}-worker-${i}`, {
        cpu: '8',
        gpus: 8,
        gang: name,
        nodeSelector: { 'karpenter.sh/nodepool': `${cloud}-gpu8` },
      }),
    ),
  ];
}

const poolOf = (o: { metadata: { labels?: unknown } }) => labelsOf(o as never)['karpenter.sh/nodepool'];
const typeOf = (o: { metadata: { labels?: unknown } }) =>
  labelsOf(o as never)['node.kubernetes.io/instance-type'];

describe.each(['aws', 'gcp'] as const)('a mixed CPU-master / 8-GPU-worker gang on %s', (cloud) => {
  let h: E2eHarness;
  const closer = new Closer();
  beforeEach(async () => {
    h = await startHarness({ objects: pools() });
    // The Compute Engine emulator's default world has no 8-GPU machine: add A2's (A100 ×8, first zone only).
    h.gce.world.machineTypes.set('a2-highgpu-8g', {
      name: 'a2-highgpu-8g',
      guestCpus: 96,
      memoryMb: 1392640,
      accelerators: [{ guestAcceleratorType: 'nvidia-tesla-a100', guestAcceleratorCount: 8 }],
      zones: ['us-central1-a'],
    });
    wireLaunchers(h);
    // Pricing runs first, as deployed: the launchers order every offering by the book it stores.
    await createPricingHandler(() =>
      Promise.resolve({
        loop: {
          sources: [
            buildEc2PriceSource(h.settings.ec2, h.clock, LOCAL_CREDENTIALS, closer),
            buildGcePriceSourceFrom(h.settings.gce, fakeGoogleAuth(), closer),
          ],
          store: h.priceStore(),
          clock: h.clock,
          logger: h.logger,
          metrics: h.metrics,
        },
        settings: { clusterName: h.clusterName },
        obs: { logger: h.logger, metrics: h.metrics },
      }),
    )(scheduledEvent(h.clock), lambdaContext('pricing'));
  });
  afterEach(async () => {
    await closer.close();
    await h?.close();
  });

  const instanceTypes = (): string[] =>
    cloud === 'aws'
      ? h.ec2.world.live().map((i) => i.instanceType)
      : h.gce.world.live().map((i) => i.machineType);

  it('launches each member as its own claim asked: the master on a CPU host, the workers on 8-GPU hosts', async () => {
    h.seed(gang(cloud));
    const { result } = await provisionOnce(h);
    expect(result).toMatchObject({ outcome: 'ran', claimsCreated: WORKERS + 1, launchesInvoked: 1 });
    const launches = h.invoker.records.filter((r) => r.target === `launch-${cloud}`);
    expect(launches.map((r) => r.outcome)).toEqual(['succeeded']);
    const claims = h.list('NodeClaim');
    expect(claims.map(poolOf).sort()).toEqual([`${cloud}-cpu`, ...Array(WORKERS).fill(`${cloud}-gpu8`)]);
    for (const c of claims) {
      const want = poolOf(c) === `${cloud}-cpu` ? SHAPES[cloud].cpu : SHAPES[cloud].gpu;
      expect(typeOf(c), `${String(c.metadata.name)} (${poolOf(c)})`).toBe(want);
    }
    expect(instanceTypes().sort()).toEqual(
      [SHAPES[cloud].cpu, ...Array<string>(WORKERS).fill(SHAPES[cloud].gpu)].sort(),
    );
    if (cloud === 'aws') {
      // Each member's node class: the master's instance carries the CPU class's tag.
      const byClass = h.ec2.world
        .live()
        .map((i) => [i.instanceType, i.tags['karpenter.k8s.aws/ec2nodeclass']]);
      expect(byClass).toContainEqual([SHAPES.aws.cpu, 'aws-cpu']);
      expect(byClass).toContainEqual([SHAPES.aws.gpu, 'aws-gpu']);
    }
    await expect.poll(() => h.list('Node').length).toBe(WORKERS + 1);
    expect((await lifecycleOnce(h)).result).toMatchObject({ registered: WORKERS + 1, failed: 0 });
    expect((await lifecycleOnce(h)).result).toMatchObject({ initialized: WORKERS + 1, failed: 0 });
    for (const n of h.list('Node')) {
      const gpus = (n.status as { capacity?: Record<string, string> }).capacity?.['nvidia.com/gpu'];
      expect(gpus ?? '0').toBe(typeOf(n) === SHAPES[cloud].gpu ? '8' : '0');
    }
    expect([...h.bind().bound].sort()).toEqual(
      [`train-${cloud}-master`, ...Array.from({ length: WORKERS }, (_, i) => `train-${cloud}-worker-${i}`)]
        .map((p) => `default/${p}`)
        .sort(),
    );
  });

  it('rolls back the workers that launched when the master’s shape finds no capacity: nothing of the gang is left', async () => {
    const { cpu, gpu } = SHAPES[cloud];
    for (const zone of cloud === 'aws' ? ['us-east-1a', 'us-east-1b'] : ['us-central1-a', 'us-central1-b'])
      if (cloud === 'aws') h.ec2.world.setCapacity(cpu, zone, 'on-demand', 0);
      else h.gce.world.setCapacity(cpu, zone, 'STANDARD', 0);
    h.seed(gang(cloud));
    const { result } = await provisionOnce(h);
    expect(result).toMatchObject({ outcome: 'ran', claimsCreated: WORKERS + 1, launchesInvoked: 1 });
    // The workers' shape (the larger) launched first, whole; then the master's fell short and took it down.
    if (cloud === 'aws') {
      const workers = [...h.ec2.world.instances.values()].filter((i) => i.instanceType === gpu);
      expect(workers).toHaveLength(WORKERS);
      for (const w of workers) expect(['shutting-down', 'terminated']).toContain(w.state);
    } else {
      const ops = [...h.gce.world.operations.values()];
      expect(
        ops.some((o) => o.operationType === 'bulkInsert' && !o.error && o.zone === SHAPES.gcp.zone),
      ).toBe(true);
      expect(ops.filter((o) => o.operationType === 'delete')).toHaveLength(WORKERS);
    }
    expect(instanceTypes()).toEqual([]);
    expect(h.list('NodeClaim')).toEqual([]);
    const refused = (await h.store().loadPassState(h.clusterName)).unavailableOfferings;
    expect(refused.map((o) => o.instanceType)).toContain(cpu);
    expect(refused.map((o) => o.instanceType)).not.toContain(gpu);
    expect(h.bind().bound).toEqual([]);
  });

  it('refuses whole, with a GangRefused event on each claim, a gang payload whose members need two clouds', async () => {
    const payloads: unknown[] = [];
    h.invoker.register(`launch-${cloud}`, async (p) => void payloads.push(p));
    h.seed(gang(cloud));
    await provisionOnce(h);
    expect(payloads).toHaveLength(1);
    const payload = payloads[0] as { claims: string[]; nodeClasses?: Record<string, unknown> };
    // The master's node class swapped for the other cloud's: no one launcher can launch this gang as a unit.
    const master = payload.claims.find((c) => c.startsWith(`${cloud}-cpu`)) as string;
    const other = cloud === 'aws' ? h.list('GCENodeClass')[0] : h.list('EC2NodeClass')[0];
    const mixed = { ...payload, nodeClasses: { ...payload.nodeClasses, [master]: other } };
    const counts = await launchHandler(h, cloud)(mixed, lambdaContext(`launch-${cloud}`));
    expect(counts).toMatchObject({ launched: 0, mixedClouds: WORKERS + 1 });
    expect(instanceTypes()).toEqual([]);
    expect(h.list('NodeClaim')).toEqual([]);
    const events = h
      .list('Event')
      .filter((e) => (e as unknown as { reason?: string }).reason === 'GangRefused')
      .map((e) => (e as unknown as { involvedObject: { name: string } }).involvedObject.name);
    expect(events.sort()).toEqual([...payload.claims].sort());
    for (const c of payload.claims)
      expect(await h.store().getLaunch(h.clusterName, c)).toMatchObject({
        status: 'failed',
        error: expect.stringMatching(/more than one cloud \(aws, gcp\)/),
      });
  });
});
