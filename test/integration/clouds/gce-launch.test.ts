// The Compute Engine adapter against the emulator beyond the contract: the instance body it sends,
// stockout fallbacks, slow operations, throttling, partial bulkInsert cleanup, credentials.
import { uniformGang } from '../../../shared/ports/cloud-provider/index.ts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BaseExternalAccountClient } from 'google-auth-library';
import { CredentialConfigError, workloadIdentityClient } from '../../../shared/adapters/gcp-compute/auth.ts';
import { billingPriceReader } from '../../../shared/adapters/gcp-compute/billing.ts';
import { instanceName } from '../../../shared/adapters/gcp-compute/instances.ts';
import {
  InsufficientCapacityError,
  RetryableCloudError,
} from '../../../shared/ports/cloud-provider/errors.ts';
import type { BootedGceInstance } from '../../../local/gce/world.ts';
import { claim } from '../../contracts/cloud-provider/contract.ts';
import { gceNodeClass, startGceRig, type GceRig } from './gce-setup.ts';

/** The parts of an instances.insert body the tests read. */
interface InstanceBody {
  scheduling?: Record<string, unknown>;
  labels?: Record<string, string>;
  machineType?: string;
  guestAccelerators?: unknown[];
}

const g2 = [
  {
    key: 'node.kubernetes.io/instance-type',
    operator: 'In' as const,
    values: ['g2-standard-4', 'g2-standard-8'],
  },
];

describe('Compute Engine adapter launches', () => {
  let rig: GceRig;
  const booted: BootedGceInstance[] = [];
  beforeAll(async () => {
    rig = await startGceRig({
      emulator: { onBoot: (b) => void booted.push(b), waitBudgetMs: 20 },
      operationTimeoutMs: 60_000,
    });
  });
  afterAll(() => rig.close());
  beforeEach(() => {
    const w = rig.emulator.world;
    w.instances.clear();
    w.capacity.clear();
    w.bodies.length = 0;
    booted.length = 0;
    Object.assign(w.faults, {
      throttle: 0,
      operationDelayMs: 0,
      ignoreMinCount: false,
      failNextOperation: undefined,
    });
  });

  it('inserts a Spot GPU VM that is deleted on preemption, terminated on maintenance, labelled, with a startup script', async () => {
    const types = await rig.provider.instanceTypes(gceNodeClass());
    const c = claim('spot-g2', g2);
    c.spec.requirements = [{ key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot'] }, ...g2];
    const { instance } = await rig.provider.create({
      claim: c,
      nodeClass: gceNodeClass(),
      instanceTypes: types,
    });
    expect(instance).toMatchObject({
      instanceType: 'g2-standard-4',
      capacityType: 'spot',
      nodeClaim: 'spot-g2',
      nodePool: 'gpu',
    });
    const body = rig.emulator.world.bodies.find((b) => b.path.endsWith('/instances'))?.body as InstanceBody;
    expect(body.scheduling).toEqual({
      provisioningModel: 'SPOT',
      instanceTerminationAction: 'DELETE',
      onHostMaintenance: 'TERMINATE',
      automaticRestart: false,
    });
    expect(body.labels).toMatchObject({
      'kraftsman-cluster': 'test',
      'kraftsman-nodepool': 'gpu',
      'kraftsman-nodeclaim': 'spot-g2',
    });
    expect(body.machineType).toBe(`zones/${instance.zone}/machineTypes/g2-standard-4`);
    await expect.poll(() => booted.length).toBe(1);
    expect(booted[0]?.startupScript).toContain("export KRAFTSMAN_NODECLAIM='spot-g2'");
    expect(booted[0]?.startupScript).toContain('karpenter.sh/capacity-type=spot');
  });

  it('attaches GPUs to N1 types with guestAccelerators and keeps on-demand GPU VMs off live migration', async () => {
    const types = await rig.provider.instanceTypes(gceNodeClass());
    const t4 = types.find((t) => t.name === 'n1-standard-8_nvidia-tesla-t4_2');
    expect(t4?.capacity['nvidia.com/gpu']).toBe('2');
    expect(t4?.offerings.find((o) => o.capacityType === 'on-demand')?.price).toBeCloseTo(
      8 * 0.031611 + 30 * 0.004237 + 2 * 0.35,
      6,
    );
    await rig.provider.create({
      claim: claim('n1-t4', [
        {
          key: 'node.kubernetes.io/instance-type',
          operator: 'In',
          values: ['n1-standard-8_nvidia-tesla-t4_2'],
        },
      ]),
      nodeClass: gceNodeClass(),
      instanceTypes: types,
    });
    const body = rig.emulator.world.bodies.find((b) => b.path.endsWith('/instances'))?.body as InstanceBody;
    expect(body.machineType).toMatch(/machineTypes\/n1-standard-8$/);
    expect(body.guestAccelerators).toEqual([
      { acceleratorType: expect.stringMatching(/acceleratorTypes\/nvidia-tesla-t4$/), acceleratorCount: 2 },
    ]);
    expect(body.scheduling).toMatchObject({ provisioningModel: 'STANDARD', onHostMaintenance: 'TERMINATE' });
  });

  it('prices from the Cloud Billing SKUs, ignoring committed-use ones, and falls back to the built-in catalog when billing is down', async () => {
    const fromBilling = await rig.provider.instanceTypes(gceNodeClass());
    const a100 = fromBilling.find((t) => t.name === 'a2-highgpu-1g');
    expect(a100?.offerings.map((o) => o.zone)).toEqual(['us-central1-a', 'us-central1-a']);
    expect(a100?.offerings.find((o) => o.capacityType === 'spot')?.price).toBeCloseTo(
      12 * 0.012644 + 85 * 0.001695 + 1.173563,
      6,
    );
    rig.emulator.world.faults.billingUnavailable = true;
    try {
      const fallback = await rig.provider.instanceTypes(gceNodeClass());
      expect(
        fallback
          .find((t) => t.name === 'g2-standard-4')
          ?.offerings.find((o) => o.capacityType === 'on-demand')?.price,
      ).toBe(0.7068);
      expect(fallback.map((t) => t.name).sort()).toEqual(['g2-standard-4', 'g2-standard-8']);
      expect(rig.warnings).toContain('GCE prices fell back to the built-in catalog');
    } finally {
      rig.emulator.world.faults.billingUnavailable = false;
    }
  });

  it('reuses Cloud Billing SKUs until their TTL passes', async () => {
    let now = 0;
    const reader = billingPriceReader(rig.billing, { now: () => now, ttlMs: 1_000 });
    const reads = () => rig.emulator.world.calls.filter((c) => c.endsWith('/skus')).length;
    const before = reads();
    const shapes = [
      {
        name: 'g2-standard-4',
        cpus: 4,
        memoryMi: 16384,
        gpu: { type: 'nvidia-l4', count: 1 },
        zones: ['us-central1-a'],
      },
    ];
    const book = await reader(shapes);
    await reader(shapes);
    expect(reads() - before).toBe(1);
    now = 1_000;
    await reader(shapes);
    expect(reads() - before).toBe(2);
    expect(book.onDemand('g2-standard-4', 'us-central1-a')).toBeCloseTo(
      4 * 0.024988 + 16 * 0.002927 + 0.560321,
      6,
    );
    expect(book.onDemand('g2-standard-4', 'europe-west4-a')).toBeUndefined();
  });

  it('waits through slow operations with repeated operations.wait calls', async () => {
    const types = await rig.provider.instanceTypes(gceNodeClass());
    rig.emulator.world.faults.operationDelayMs = 150;
    const before = rig.emulator.world.calls.filter((c) => c.endsWith('/wait')).length;
    const { instance } = await rig.provider.create({
      claim: claim('slow-1', g2),
      nodeClass: gceNodeClass(),
      instanceTypes: types,
    });
    // The insert is done once the VM exists; it may still be PROVISIONING or STAGING (pending) before RUNNING.
    expect(['pending', 'running']).toContain(instance.state);
    await expect.poll(async () => (await rig.provider.get(instance.providerId)).state).toBe('running');
    expect(rig.emulator.world.calls.filter((c) => c.endsWith('/wait')).length - before).toBeGreaterThan(1);
  });

  it('gives up on an operation that outlives its timeout as retryable', async () => {
    const quick = await startGceRig({ emulator: { waitBudgetMs: 20 }, operationTimeoutMs: 60 });
    try {
      const types = await quick.provider.instanceTypes(gceNodeClass());
      quick.emulator.world.faults.operationDelayMs = 5_000;
      await expect(
        quick.provider.create({
          claim: claim('stuck-1', g2),
          nodeClass: gceNodeClass(),
          instanceTypes: types,
        }),
      ).rejects.toBeInstanceOf(RetryableCloudError);
    } finally {
      await quick.close();
    }
  });

  it('retries rate-limited calls', async () => {
    const types = await rig.provider.instanceTypes(gceNodeClass());
    rig.emulator.world.faults.throttle = 2;
    const { instance } = await rig.provider.create({
      claim: claim('rate-1', g2),
      nodeClass: gceNodeClass(),
      instanceTypes: types,
    });
    expect(instance.nodeClaim).toBe('rate-1');
  });

  it('deletes what a bulkInsert created below minCount, so a gang leaks nothing', async () => {
    const types = await rig.provider.instanceTypes(gceNodeClass());
    const w = rig.emulator.world;
    w.faults.ignoreMinCount = true;
    for (const z of ['us-central1-a', 'us-central1-b']) w.setCapacity('g2-standard-8', z, 'STANDARD', 0);
    w.setCapacity('g2-standard-4', 'us-central1-a', 'STANDARD', 2);
    w.setCapacity('g2-standard-4', 'us-central1-b', 'STANDARD', 0);
    const error = await rig.provider
      .createGang(
        uniformGang(
          'ml/partial',
          ['b-1', 'b-2', 'b-3'].map((n) => claim(n, g2)),
          gceNodeClass(),
          types,
        ),
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsufficientCapacityError);
    expect((error as InsufficientCapacityError).offerings.map((o) => o.reason)).toContain(
      'PARTIAL_BULK_INSERT',
    );
    expect(w.live()).toHaveLength(0);
  });

  it('reports image drift when the node class names another image, and network drift for another subnetwork', async () => {
    const types = await rig.provider.instanceTypes(gceNodeClass());
    const { instance } = await rig.provider.create({
      claim: claim('drift-g', g2),
      nodeClass: gceNodeClass(),
      instanceTypes: types,
    });
    const launched = claim('drift-g');
    launched.status = { providerID: instance.providerId };
    expect(await rig.provider.isDrifted(launched, gceNodeClass())).toBeUndefined();
    expect(
      await rig.provider.isDrifted(
        launched,
        gceNodeClass({
          imageSelectorTerms: [{ id: 'projects/kraftsman-test/global/images/gpu-node-2026-12-01' }],
        }),
      ),
    ).toBe('ImageDrift');
    expect(
      await rig.provider.isDrifted(
        launched,
        gceNodeClass({ subnetwork: 'regions/us-central1/subnetworks/other' }),
      ),
    ).toBe('NetworkDrift');
  });

  it('names instances after their claims within the Compute Engine name rules', () => {
    expect(instanceName('gpu-abc12')).toBe('gpu-abc12');
    expect(instanceName('gpu.pool.abc')).toMatch(/^gpu-pool-abc-[0-9a-f]{8}$/);
    expect(instanceName('9-lives')).toMatch(/^k-9-lives-[0-9a-f]{8}$/);
    expect(instanceName('x'.repeat(100)).length).toBeLessThanOrEqual(63);
  });
});

describe('workload identity federation', () => {
  const config = {
    type: 'external_account',
    audience:
      '//iam.googleapis.com/projects/123456789/locations/global/workloadIdentityPools/kraftsman/providers/aws',
    subject_token_type: 'urn:ietf:params:aws:token-type:aws4_request',
    token_url: 'https://sts.googleapis.com/v1/token',
    service_account_impersonation_url:
      'https://iamcredentials.googleapis.com/v1/projects/-/serviceAccounts/kraftsman@p.iam.gserviceaccount.com:generateAccessToken',
    credential_source: {
      environment_id: 'aws1',
      regional_cred_verification_url:
        'https://sts.{region}.amazonaws.com?Action=GetCallerIdentity&Version=2011-06-15',
    },
  };

  it('builds a federated client from an external_account config that trusts the AWS role, without any network call', () => {
    expect(workloadIdentityClient(JSON.stringify(config))).toBeInstanceOf(BaseExternalAccountClient);
  });

  it('refuses service-account keys', () => {
    expect(() =>
      workloadIdentityClient({ type: 'service_account', private_key: '-----BEGIN PRIVATE KEY-----' }),
    ).toThrow(/service-account keys are not accepted/);
  });

  it('names the field that is wrong', () => {
    const error = (() => {
      try {
        workloadIdentityClient({ ...config, audience: 'my-pool' });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(CredentialConfigError);
    expect((error as Error).message).toMatch(/at audience: must name a workload identity pool provider/);
  });
});
