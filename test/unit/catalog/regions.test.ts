// Zone → region for both clouds' naming, and a catalog narrowed to regions per cloud.
import { describe, expect, it } from 'vitest';
import { catalogInRegions, cloudOfRegion, regionOfZone } from '../../../shared/catalog/regions.ts';
import type { InstanceTypeCatalog } from '../../../shared/model/catalog.ts';

describe('regionOfZone', () => {
  it.each([
    ['us-east-1a', 'us-east-1', 'aws'],
    ['us-west-2d', 'us-west-2', 'aws'],
    ['ap-southeast-4b', 'ap-southeast-4', 'aws'],
    ['us-gov-west-1a', 'us-gov-west-1', 'aws'],
    ['us-west-2-lax-1a', 'us-west-2', 'aws'],
    ['us-central1-a', 'us-central1', 'gcp'],
    ['europe-west4-c', 'europe-west4', 'gcp'],
    ['northamerica-northeast2-b', 'northamerica-northeast2', 'gcp'],
  ])('%s is in %s (%s)', (zone, region, cloud) => {
    expect(regionOfZone(zone)).toBe(region);
    expect(cloudOfRegion(region)).toBe(cloud);
  });

  it('knows no region for a name of neither shape', () => {
    expect(regionOfZone('zone-a')).toBeUndefined();
    expect(regionOfZone('us-east-1')).toBeUndefined();
    expect(cloudOfRegion('mars-1a')).toBeUndefined();
  });
});

describe('catalogInRegions', () => {
  const type = (name: string, cloud: 'aws' | 'gcp', zones: string[]) => ({
    name,
    cloud,
    capacity: { cpu: '4', memory: '16Gi', pods: '110' },
    overhead: {},
    labels: {},
    offerings: zones.map((zone) => ({ zone, capacityType: 'on-demand' as const, price: 1, available: true })),
  });
  const catalog = {
    apiVersion: 'kraftsman.dev/v1alpha1',
    kind: 'InstanceTypeCatalog',
    instanceTypes: [
      type('a', 'aws', ['us-east-1a', 'us-west-2a', 'us-west-2b']),
      type('b', 'aws', ['us-east-1a']),
      type('g', 'gcp', ['us-central1-a', 'europe-west4-a']),
    ],
  } as unknown as InstanceTypeCatalog;

  it("keeps only the named regions' offerings of a cloud they belong to, and drops types left with none", () => {
    const out = catalogInRegions(catalog, new Set(['us-west-2']));
    expect(out.instanceTypes.map((t) => [t.name, t.offerings.map((o) => o.zone)])).toEqual([
      ['a', ['us-west-2a', 'us-west-2b']],
      // A cloud no named region belongs to keeps every offering.
      ['g', ['us-central1-a', 'europe-west4-a']],
    ]);
  });

  it('narrows each cloud by its own regions, and changes nothing without regions', () => {
    const out = catalogInRegions(catalog, new Set(['us-east-1', 'europe-west4']));
    expect(out.instanceTypes.map((t) => [t.name, t.offerings.map((o) => o.zone)])).toEqual([
      ['a', ['us-east-1a']],
      ['b', ['us-east-1a']],
      ['g', ['europe-west4-a']],
    ]);
    expect(catalogInRegions(catalog, new Set())).toBe(catalog);
  });
});
