// The Compute Engine adapter never mistakes a failure for an answer, against the stricter emulator
// through the real @google-cloud/compute clients: a 429 RESOURCE_EXHAUSTED is throttling (retried),
// a quota or a full subnetwork is an unavailable offering as a stockout is (EC2's unfulfillable codes), an operation with an empty error list failed, labels are checked before
// the call, and every list reads every page.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  FatalCloudError,
  InsufficientCapacityError,
  RetryableCloudError,
} from '../../../shared/ports/cloud-provider/errors.ts';
import { claim } from '../../contracts/cloud-provider/contract.ts';
import { gceNodeClass, startGceRig, type GceRig } from './gce-setup.ts';

const g2 = [
  {
    key: 'node.kubernetes.io/instance-type',
    operator: 'In' as const,
    values: ['g2-standard-4', 'g2-standard-8'],
  },
];

describe('Compute Engine adapter against the strict emulator', () => {
  let rig: GceRig;
  beforeAll(async () => {
    rig = await startGceRig({ emulator: { waitBudgetMs: 20, pageSize: 1 }, operationTimeoutMs: 60_000 });
  });
  afterAll(() => rig.close());
  beforeEach(() => {
    const w = rig.emulator.world;
    w.instances.clear();
    w.capacity.clear();
    w.calls.length = 0;
    Object.assign(w.faults, {
      throttle: 0,
      throttleStatus: undefined,
      failNextOperation: undefined,
      quotaNext: undefined,
    });
  });
  const launch = async (name: string, nodeClass = gceNodeClass()) =>
    rig.provider.create({
      claim: claim(name, g2),
      nodeClass,
      instanceTypes: await rig.provider.instanceTypes(gceNodeClass()),
    });

  it('answers a rate limit with the real 429 body (RESOURCE_EXHAUSTED, rateLimitExceeded) and the adapter retries it', async () => {
    rig.emulator.world.faults.throttle = 1;
    const throttled = await fetch(
      `http://127.0.0.1:${rig.emulator.port}/compute/v1/projects/kraftsman-test/zones/us-central1-a/instances`,
    );
    expect(throttled.status).toBe(429);
    expect(await throttled.json()).toMatchObject({
      error: { code: 429, status: 'RESOURCE_EXHAUSTED', errors: [{ reason: 'rateLimitExceeded' }] },
    });
    const types = await rig.provider.instanceTypes(gceNodeClass());
    rig.emulator.world.faults.throttle = 3;
    const { instance, unavailableOfferings } = await rig.provider.create({
      claim: claim('rate-1', g2),
      nodeClass: gceNodeClass(),
      instanceTypes: types,
    });
    expect(instance.nodeClaim).toBe('rate-1');
    expect(unavailableOfferings).toEqual([]);
  });

  it('answers a rate limit as the rate-quota page documents it (403 rateLimitExceeded): throttling, retried, not a refusal', async () => {
    rig.emulator.world.faults.throttleStatus = 403;
    rig.emulator.world.faults.throttle = 1;
    const throttled = await fetch(
      `http://127.0.0.1:${rig.emulator.port}/compute/v1/projects/kraftsman-test/zones/us-central1-a/instances`,
    );
    expect(throttled.status).toBe(403);
    expect(await throttled.json()).toMatchObject({
      error: { code: 403, errors: [{ reason: 'rateLimitExceeded', domain: 'usageLimits' }] },
    });
    const types = await rig.provider.instanceTypes(gceNodeClass());
    rig.emulator.world.faults.throttle = 3;
    const { instance } = await rig.provider.create({
      claim: claim('rate-403', g2),
      nodeClass: gceNodeClass(),
      instanceTypes: types,
    });
    expect(instance.nodeClaim).toBe('rate-403');
    rig.emulator.world.faults.throttle = 100;
    const err = await rig.provider.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetryableCloudError);
    expect(err).not.toBeInstanceOf(FatalCloudError);
  });

  it('refuses a list filter it cannot parse with 400 naming it, never dropping the term', async () => {
    const list = (filter: string) =>
      fetch(
        `http://127.0.0.1:${rig.emulator.port}/compute/v1/projects/kraftsman-test/zones/us-central1-a/instances?filter=${encodeURIComponent(filter)}`,
      );
    await launch('filter-1');
    for (const bad of [
      '(labels.a = "x") OR (labels.b = "y")',
      'name eq filter-.*',
      'labels.a:*',
      'cpus > 4',
      '(labels.a = "x"',
      'labels.a = "x" AND',
      'NOT labels.a = "x"',
    ]) {
      const r = await list(bad);
      expect(r.status, bad).toBe(400);
      expect(await r.json()).toMatchObject({
        error: { code: 400, errors: [{ reason: 'invalid', message: expect.stringContaining(bad) }] },
      });
    }
    const names = async (filter: string) =>
      ((await (await list(filter)).json()) as { items?: { name: string }[] }).items?.map((i) => i.name) ?? [];
    expect(await names('name = "filter-1"')).toEqual(['filter-1']);
    expect(await names('(name = "filter-1") (name != "filter-1")')).toEqual([]);
    expect(await names('name = "filter-1" AND (name != "other")')).toEqual(['filter-1']);
    expect(await names('name=other')).toEqual([]);
  });

  it('surfaces a rate limit that outlasts the retries as retryable, never as a stockout', async () => {
    const types = await rig.provider.instanceTypes(gceNodeClass());
    rig.emulator.world.faults.throttle = 100;
    const err = await rig.provider
      .create({ claim: claim('rate-2', g2), nodeClass: gceNodeClass(), instanceTypes: types })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetryableCloudError);
    expect(err).not.toBeInstanceOf(InsufficientCapacityError);
  });

  it('records a 403 quotaExceeded as an unavailable offering and launches the next one (EC2 VcpuLimitExceeded)', async () => {
    rig.emulator.world.faults.quotaNext = { metric: 'NVIDIA_L4_GPUS', limit: 1 };
    const { instance, unavailableOfferings } = await launch('quota-1');
    expect(unavailableOfferings).toEqual([expect.objectContaining({ reason: 'quotaExceeded' })]);
    expect(instance.providerId).toMatch(/^gce:\/\//);
  });

  it('records an operation error QUOTA_EXCEEDED as an unavailable offering and launches the next one', async () => {
    rig.emulator.world.faults.failNextOperation = {
      code: 'QUOTA_EXCEEDED',
      message: "Quota 'CPUS' exceeded.  Limit: 24.0 in region us-central1.",
      errorDetails: [
        {
          quotaInfo: {
            metricName: 'compute.googleapis.com/cpus',
            limitName: 'CPUS-per-project-region',
            dimensions: { region: 'us-central1' },
            limit: 24,
          },
        },
      ],
    };
    const { instance, unavailableOfferings } = await launch('quota-2');
    expect(unavailableOfferings).toEqual([expect.objectContaining({ reason: 'QUOTA_EXCEEDED' })]);
    expect(instance.providerId).toMatch(/^gce:\/\//);
  });

  it('records IP_SPACE_EXHAUSTED (the subnetwork is full) as an unavailable offering and launches the next one', async () => {
    rig.emulator.world.faults.failNextOperation = {
      code: 'IP_SPACE_EXHAUSTED',
      message: "IP space of 'projects/kraftsman-test/regions/us-central1/subnetworks/default' is exhausted.",
    };
    const { instance, unavailableOfferings } = await launch('ip-1');
    expect(unavailableOfferings).toEqual([
      expect.objectContaining({ zone: 'us-central1-a', reason: 'IP_SPACE_EXHAUSTED' }),
    ]);
    expect(instance.zone).not.toBe('us-central1-a');
  });

  it('still records a stockout as an unavailable offering and launches the next one', async () => {
    rig.emulator.world.setCapacity('g2-standard-4', 'us-central1-a', 'STANDARD', 0);
    const { instance, unavailableOfferings } = await launch('stock-1');
    expect(unavailableOfferings).toEqual([
      expect.objectContaining({ zone: 'us-central1-a', reason: 'ZONE_RESOURCE_POOL_EXHAUSTED' }),
    ]);
    expect(instance.zone).toBe('us-central1-b');
  });

  it('records a machine type the zone does not offer as an unavailable offering and launches the next one', async () => {
    rig.emulator.world.faults.failNextOperation = {
      code: 'MACHINE_TYPE_UNSUPPORTED',
      message: "Machine type 'g2-standard-4' is not supported in zone 'us-central1-a'.",
    };
    const { instance, unavailableOfferings } = await launch('unsupported-1');
    expect(unavailableOfferings).toEqual([
      expect.objectContaining({ zone: 'us-central1-a', reason: 'MACHINE_TYPE_UNSUPPORTED' }),
    ]);
    expect(instance.zone).not.toBe('us-central1-a');
  });

  it('fails an operation that carries an error with an empty errors list', async () => {
    rig.emulator.world.faults.failNextOperation = [];
    const err = await launch('opaque-1').catch((e: unknown) => e);
    // The emulator gives it HTTP 500: worth another try later, and certainly not a launched instance.
    expect(err).toBeInstanceOf(RetryableCloudError);
    expect((err as Error).message).toContain('without error details');
    expect(await rig.provider.list()).toEqual([]);
  });

  it('refuses labels Compute Engine would reject before calling it, naming the node class and label', async () => {
    const nodeClass = gceNodeClass({ labels: { Team: 'ML', ok: 'fine' } });
    const err = await launch('labels-1', nodeClass).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FatalCloudError);
    expect((err as Error).message).toMatch(/GCENodeClass default: label key "Team"/);
    expect((err as Error).message).toContain('value "ML"');
    expect(rig.emulator.world.calls.filter((c) => c.startsWith('POST') && c.endsWith('/instances'))).toEqual(
      [],
    );
  });

  it('the emulator itself refuses such labels with 400, as Compute Engine does', async () => {
    const res = await fetch(
      `http://127.0.0.1:${rig.emulator.port}/compute/v1/projects/kraftsman-test/zones/us-central1-a/instances`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'direct',
          machineType: 'zones/us-central1-a/machineTypes/g2-standard-4',
          labels: { Team: 'x' },
        }),
      },
    );
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain("Label key 'Team' violates format constraints");
  });

  it('reads every page of the aggregated list and of machine types (one item per page here)', async () => {
    for (const n of ['page-a', 'page-b', 'page-c']) await launch(n);
    const listed = await rig.provider.list();
    expect(listed.map((i) => i.nodeClaim).sort()).toEqual(['page-a', 'page-b', 'page-c']);
    expect(
      rig.emulator.world.calls.filter((c) => c.includes('/aggregated/instances')).length,
    ).toBeGreaterThan(1);
    const types = await rig.provider.instanceTypes(gceNodeClass());
    expect(types.map((t) => t.name)).toEqual(expect.arrayContaining(['g2-standard-4', 'g2-standard-8']));
  });
});
