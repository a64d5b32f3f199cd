// A GCENodeClass's settings reach Compute Engine: boot disk category and size, data disks and local SSDs, the
// service account with its scopes, network tags, labels and metadata, read back with the real SDK's instances.get;
// and the emulator refuses what Compute Engine refuses (unknown disk types, live migration with GPUs).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gceNodeClassSchema, type GCENodeClass } from '../../../shared/model/nodeclass.ts';
import { claim } from '../../contracts/cloud-provider/contract.ts';
import { gceNodeClass, startGceRig, type GceRig } from './gce-setup.ts';

const PROJECT = 'kraftsman-test';
const onDemand = (name: string, type: string) => {
  const c = claim(name, [{ key: 'node.kubernetes.io/instance-type', operator: 'In', values: [type] }]);
  return c;
};
const nodeClass = (spec: Record<string, unknown>): GCENodeClass =>
  gceNodeClassSchema.parse({ ...gceNodeClass(), spec: { ...gceNodeClass().spec, ...spec } });

describe('GCENodeClass settings reach the instance', () => {
  let rig: GceRig;
  beforeAll(async () => {
    rig = await startGceRig({ emulator: { waitBudgetMs: 20 }, operationTimeoutMs: 60_000 });
  });
  afterAll(() => rig.close());

  it('attaches the disks asked for, the service account with its scopes, network tags, labels and metadata', async () => {
    const nc = nodeClass({
      disks: [
        { boot: true, category: 'pd-ssd', sizeGiB: 200 },
        { category: 'local-ssd' },
        { category: 'hyperdisk-balanced', sizeGiB: 500, boot: false },
      ],
      serviceAccount: 'nodes@kraftsman-test.iam.gserviceaccount.com',
      serviceAccountScopes: [
        'https://www.googleapis.com/auth/devstorage.read_only',
        'https://www.googleapis.com/auth/logging.write',
      ],
      networkTags: ['gpu-nodes', 'allow-kubelet'],
      labels: { team: 'ml' },
      metadata: { 'enable-oslogin': 'TRUE' },
    });
    const types = await rig.provider.instanceTypes(nc);
    const { instance } = await rig.provider.create({
      claim: onDemand('disks-1', 'g2-standard-8'),
      nodeClass: nc,
      instanceTypes: types,
    });
    const [vm] = await rig.clients.instances.get({
      project: PROJECT,
      zone: instance.zone,
      instance: 'disks-1',
    });
    const zone = instance.zone;
    expect(
      vm.disks?.map((d) => [
        d.boot ?? false,
        d.type ?? 'PERSISTENT',
        d.initializeParams?.diskType,
        d.initializeParams?.diskSizeGb,
      ]),
    ).toEqual([
      [true, 'PERSISTENT', `zones/${zone}/diskTypes/pd-ssd`, '200'],
      [false, 'SCRATCH', `zones/${zone}/diskTypes/local-ssd`, '375'],
      [false, 'PERSISTENT', `zones/${zone}/diskTypes/hyperdisk-balanced`, '500'],
    ]);
    expect(vm.disks?.[1]?.interface).toBe('NVME');
    expect(vm.serviceAccounts).toMatchObject([
      {
        email: 'nodes@kraftsman-test.iam.gserviceaccount.com',
        scopes: [
          'https://www.googleapis.com/auth/devstorage.read_only',
          'https://www.googleapis.com/auth/logging.write',
        ],
      },
    ]);
    expect(vm.tags?.items).toEqual(['gpu-nodes', 'allow-kubelet']);
    expect(vm.labels).toMatchObject({ team: 'ml' });
    expect(vm.metadata?.items?.find((i) => i.key === 'enable-oslogin')?.value).toBe('TRUE');
    // A G2 carries a bundled L4: an on-demand GPU VM is terminated, never migrated, on host maintenance.
    expect(vm.scheduling?.onHostMaintenance).toBe('TERMINATE');
  });

  it('gives a node class without disks the GCP provider’s default boot disk, and cloud-platform for its account', async () => {
    const nc = nodeClass({ serviceAccount: 'nodes@kraftsman-test.iam.gserviceaccount.com' });
    const types = await rig.provider.instanceTypes(nc);
    const { instance } = await rig.provider.create({
      claim: onDemand('disks-2', 'n1-standard-8'),
      nodeClass: nc,
      instanceTypes: types,
    });
    const [vm] = await rig.clients.instances.get({
      project: PROJECT,
      zone: instance.zone,
      instance: 'disks-2',
    });
    expect(vm.disks?.map((d) => [d.initializeParams?.diskType, d.initializeParams?.diskSizeGb])).toEqual([
      [`zones/${instance.zone}/diskTypes/pd-balanced`, '100'],
    ]);
    expect(vm.serviceAccounts?.[0]?.scopes).toEqual(['https://www.googleapis.com/auth/cloud-platform']);
    expect(vm.scheduling?.onHostMaintenance).toBe('MIGRATE');
  });
});

describe('the Compute Engine emulator refuses what Compute Engine refuses in an instance body', () => {
  let rig: GceRig;
  let n = 0;
  beforeAll(async () => {
    rig = await startGceRig({ emulator: { waitBudgetMs: 20 } });
  });
  afterAll(() => rig.close());

  const insert = (body: Record<string, unknown>) =>
    rig.clients.instances
      .insert({
        project: PROJECT,
        zone: 'us-central1-a',
        instanceResource: {
          name: `raw-${++n}`,
          machineType: 'zones/us-central1-a/machineTypes/g2-standard-4',
          scheduling: { onHostMaintenance: 'TERMINATE' },
          disks: [
            { boot: true, initializeParams: { diskType: 'zones/us-central1-a/diskTypes/pd-balanced' } },
          ],
          ...body,
        },
      })
      .then(
        () => undefined,
        (e: unknown) => e as Error & { code?: number },
      );

  it('refuses live migration for a machine type with bundled GPUs, as Compute Engine does', async () => {
    const err = await insert({ scheduling: { onHostMaintenance: 'MIGRATE' } });
    expect(err?.message).toMatch(/Instances with guest accelerators do not support live migration/);
    const implicit = await insert({ scheduling: {} });
    expect(implicit?.message).toMatch(/do not support live migration/);
  });

  it.each([
    [
      'an unknown disk type',
      [{ boot: true, initializeParams: { diskType: 'zones/us-central1-a/diskTypes/pd-fast' } }],
      /diskType resource cannot be found/,
    ],
    [
      'a disk type of another zone',
      [{ boot: true, initializeParams: { diskType: 'zones/us-central1-b/diskTypes/pd-ssd' } }],
      /diskType resource cannot be found/,
    ],
    [
      'a 5 GB pd-ssd',
      [
        {
          boot: true,
          initializeParams: { diskType: 'zones/us-central1-a/diskTypes/pd-ssd', diskSizeGb: '5' },
        },
      ],
      /10 to 65536 GB/,
    ],
    [
      'a persistent local-ssd',
      [{ boot: true }, { initializeParams: { diskType: 'zones/us-central1-a/diskTypes/local-ssd' } }],
      /SCRATCH/,
    ],
    [
      'no boot disk',
      [{ initializeParams: { diskType: 'zones/us-central1-a/diskTypes/pd-ssd' } }],
      /one boot disk/,
    ],
  ])('refuses %s', async (_, disks, message) => {
    const err = await insert({ disks });
    expect(err?.message).toMatch(message);
  });
});
