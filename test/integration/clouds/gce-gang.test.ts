// Gangs on the Compute Engine adapter beyond the contract (docs/mechanisms/gangs.md): what bulkInsert is asked
// for — count and minCount both the shape's size, so an offering short of the whole shape creates nothing, not even
// briefly — an empty gang refused as fatal, and the instances a crashed attempt left deleted before a retry.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { uniformGang, type GangLaunchRequest } from '../../../shared/ports/cloud-provider/index.ts';
import { FatalCloudError, RetryableCloudError } from '../../../shared/ports/cloud-provider/errors.ts';
import { claim } from '../../contracts/cloud-provider/contract.ts';
import { gceNodeClass, startGceRig, type GceRig } from './gce-setup.ts';

const only = (type: string) => [
  { key: 'node.kubernetes.io/instance-type', operator: 'In' as const, values: [type] },
];

describe('Compute Engine gangs', () => {
  let rig: GceRig;
  beforeAll(async () => {
    rig = await startGceRig();
  });
  afterAll(() => rig?.close());
  beforeEach(() => {
    const w = rig.emulator.world;
    w.instances.clear();
    w.capacity.clear();
    w.bodies.length = 0;
    w.faults.ignoreMinCount = false;
  });
  const bulkInserts = () =>
    rig.emulator.world.bodies
      .filter((b) => b.path.endsWith('/bulkInsert'))
      .map((b) => ({ count: b.body.count, minCount: b.body.minCount }));

  it('asks each bulkInsert for the whole shape: count and minCount both its number of members', async () => {
    const types = await rig.provider.instanceTypes(gceNodeClass());
    const request: GangLaunchRequest = {
      gang: 'ml/mixed',
      members: [
        { claim: claim('m-master', only('g2-standard-4')), nodeClass: gceNodeClass(), instanceTypes: types },
        ...['m-w1', 'm-w2', 'm-w3'].map((n) => ({
          claim: claim(n, only('g2-standard-8')),
          nodeClass: gceNodeClass(),
          instanceTypes: types,
        })),
      ],
    };
    const { instances } = await rig.provider.createGang(request);
    expect(instances).toHaveLength(4);
    // The largest shape goes first.
    expect(bulkInserts()).toEqual([
      { count: '3', minCount: '3' },
      { count: '1', minCount: '1' },
    ]);
  });

  it('creates nothing at all in an offering that cannot hold the whole shape', async () => {
    const types = await rig.provider.instanceTypes(gceNodeClass());
    const w = rig.emulator.world;
    w.setCapacity('g2-standard-4', 'us-central1-a', 'STANDARD', 1);
    w.setCapacity('g2-standard-4', 'us-central1-b', 'STANDARD', 2);
    const created: string[] = [];
    const ids = () => [...w.instances.keys()];
    const { instances } = await rig.provider.createGang(
      uniformGang(
        'ml/pair',
        ['p-1', 'p-2'].map((n) => claim(n, only('g2-standard-4'))),
        gceNodeClass(),
        types,
      ),
    );
    created.push(...ids());
    expect(instances.every((x) => x.instance.zone === 'us-central1-b')).toBe(true);
    // Not one instance was ever made in the zone with room for one (it would have been billed, then deleted).
    expect(created.filter((k) => k.includes('us-central1-a'))).toEqual([]);
    expect(w.live()).toHaveLength(2);
  });

  it('refuses a gang with no members as fatal, naming it', async () => {
    const error = await rig.provider.createGang({ gang: 'ml/empty', members: [] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FatalCloudError);
    expect((error as Error).message).toContain('gang ml/empty has no NodeClaims');
    expect(bulkInserts()).toEqual([]);
  });

  it('deletes what a crashed attempt left of a gang and asks for a retry, which launches it whole', async () => {
    const types = await rig.provider.instanceTypes(gceNodeClass());
    const request = uniformGang(
      'ml/crash',
      ['c-1', 'c-2'].map((n) => claim(n, only('g2-standard-4'))),
      gceNodeClass(),
      types,
    );
    const first = await rig.provider.createGang(request);
    await rig.provider.delete(first.instances[0]!.instance.providerId);
    const error = await rig.provider.createGang(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetryableCloudError);
    expect((error as Error).message).toContain('deleted 1 of 2 instances left by an earlier attempt');
    expect(rig.emulator.world.live()).toHaveLength(0);
    const again = await rig.provider.createGang(request);
    expect(again.instances.map((x) => x.claim)).toEqual(['c-1', 'c-2']);
    expect(rig.emulator.world.live()).toHaveLength(2);
  });
});
