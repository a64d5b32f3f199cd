// The deployment's Resource Manager tag through the real @google-cloud/compute client: every instance the
// adapter creates (insert and bulkInsert) is bound to it, so an IAM condition can confine deletes to them
// (docs/deploy.md, "Confining deletes"); without the setting nothing is bound. The emulator refuses a
// malformed binding with 400 as Compute Engine does.
import { uniformGang } from '../../../shared/ports/cloud-provider/index.ts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { claim } from '../../contracts/cloud-provider/contract.ts';
import { gceNodeClass, startGceRig, type GceRig } from './gce-setup.ts';

const TAG = { key: 'tagKeys/281475512345678', value: 'tagValues/281479987654321' };
const g2 = [{ key: 'node.kubernetes.io/instance-type', operator: 'In' as const, values: ['g2-standard-4'] }];

/** The bodies the SDK sent to one kind of route, as the emulator received them. */
function sent(rig: GceRig, suffix: string): Record<string, unknown>[] {
  return rig.emulator.world.bodies.filter((b) => b.path.endsWith(suffix)).map((b) => b.body);
}

function reset(rig: GceRig): void {
  rig.emulator.world.instances.clear();
  rig.emulator.world.bodies.length = 0;
}

describe('the deployment tag on Compute Engine launches', () => {
  let tagged: GceRig;
  let untagged: GceRig;
  beforeAll(async () => {
    tagged = await startGceRig({ deploymentTag: TAG, emulator: { waitBudgetMs: 20 } });
    untagged = await startGceRig({ emulator: { waitBudgetMs: 20 } });
  });
  afterAll(async () => {
    await tagged.close();
    await untagged.close();
  });
  beforeEach(() => {
    reset(tagged);
    reset(untagged);
  });

  it('binds the tag on instances.insert (params.resourceManagerTags), and the instance carries it', async () => {
    const types = await tagged.provider.instanceTypes(gceNodeClass());
    await tagged.provider.create({
      claim: claim('tag-1', g2),
      nodeClass: gceNodeClass(),
      instanceTypes: types,
    });
    const [body] = sent(tagged, '/instances');
    expect(body?.params).toEqual({ resourceManagerTags: { [TAG.key]: TAG.value } });
    const [instance] = tagged.emulator.world.live();
    expect(instance?.resourceManagerTags).toEqual({ [TAG.key]: TAG.value });
  });

  it('binds the tag on bulkInsert (instanceProperties.resourceManagerTags) for every gang member', async () => {
    const types = await tagged.provider.instanceTypes(gceNodeClass());
    await tagged.provider.createGang(
      uniformGang(
        'ml/tagged',
        ['tg-1', 'tg-2'].map((n) => claim(n, g2)),
        gceNodeClass(),
        types,
      ),
    );
    const [body] = sent(tagged, '/bulkInsert');
    const props = body?.instanceProperties as Record<string, unknown>;
    expect(props.resourceManagerTags).toEqual({ [TAG.key]: TAG.value });
    expect(props).not.toHaveProperty('params');
    const live = tagged.emulator.world.live();
    expect(live).toHaveLength(2);
    for (const i of live) expect(i.resourceManagerTags).toEqual({ [TAG.key]: TAG.value });
  });

  it('binds nothing without the setting', async () => {
    const types = await untagged.provider.instanceTypes(gceNodeClass());
    await untagged.provider.create({
      claim: claim('bare-1', g2),
      nodeClass: gceNodeClass(),
      instanceTypes: types,
    });
    await untagged.provider.createGang(
      uniformGang(
        'ml/bare',
        ['bg-1', 'bg-2'].map((n) => claim(n, g2)),
        gceNodeClass(),
        types,
      ),
    );
    expect(sent(untagged, '/instances')[0]).not.toHaveProperty('params');
    // The SDK writes an unset map field as {} (Compute Engine ignores an empty one): no key is bound.
    const props = sent(untagged, '/bulkInsert')[0]?.instanceProperties as Record<string, unknown>;
    expect(props.resourceManagerTags ?? {}).toEqual({});
    expect(untagged.emulator.world.live().map((i) => i.resourceManagerTags)).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('is input only: a GET of the instance does not echo the binding', async () => {
    // Operations without a delay complete as they are created (the emulator's faults.operationDelayMs is 0).
    await untagged.clients.instances.insert({
      project: 'kraftsman-test',
      zone: 'us-central1-a',
      instanceResource: {
        name: 'tag-get',
        machineType: 'zones/us-central1-a/machineTypes/g2-standard-4',
        // What Compute Engine requires of a G2 body: a boot disk, and TERMINATE (its GPU cannot live-migrate).
        disks: [{ boot: true, initializeParams: { diskType: 'zones/us-central1-a/diskTypes/pd-balanced' } }],
        scheduling: { onHostMaintenance: 'TERMINATE' },
        params: { resourceManagerTags: { [TAG.key]: TAG.value } },
      },
    });
    const [got] = await untagged.clients.instances.get({
      project: 'kraftsman-test',
      zone: 'us-central1-a',
      instance: 'tag-get',
    });
    expect(got.name).toBe('tag-get');
    expect(got.params ?? undefined).toBeUndefined();
    expect(untagged.emulator.world.live()[0]?.resourceManagerTags).toEqual({ [TAG.key]: TAG.value });
  });

  it('is refused with 400 by the emulator when a key or value is not an id, as by Compute Engine', async () => {
    const insert = (tags: Record<string, string>) =>
      untagged.clients.instances
        .insert({
          project: 'kraftsman-test',
          zone: 'us-central1-a',
          instanceResource: {
            name: 'bad-tag',
            machineType: 'zones/us-central1-a/machineTypes/g2-standard-4',
            params: { resourceManagerTags: tags },
          },
        })
        .catch((e: unknown) => e);
    for (const [tags, field] of [
      [{ 'kraftsman-test/kraftsman-deployment': TAG.value }, 'kraftsman-test/kraftsman-deployment'],
      [{ [TAG.key]: 'prod' }, 'prod'],
    ] as const) {
      const error = (await insert(tags)) as { code?: number; message?: string };
      expect(error.code).toBe(400);
      expect(error.message).toContain(`resource.params.resourceManagerTags': '${field}'`);
    }
    expect(untagged.emulator.world.live()).toHaveLength(0);
  });
});
