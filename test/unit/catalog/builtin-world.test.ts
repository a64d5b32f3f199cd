// The built-in catalog covers the real world (issue 31 item 7): every commercial AWS region, current-generation
// families including Graviton, Inferentia/Trainium and AMD GPUs, every Compute Engine GPU family in the regions
// that price it, N1 with attached GPUs; it expands only the regions asked for, and a price lookup reads one type.
import { describe, expect, it } from 'vitest';
import { builtinCatalog, builtinPrice, builtinRegions } from '../../../shared/catalog/builtin.ts';
import { regionOfZone } from '../../../shared/catalog/regions.ts';
import { builtinLookup, catalogLookup } from '../../../shared/loop/prices.ts';
import type { InstanceTypeSpec } from '../../../shared/model/catalog.ts';

const world = builtinCatalog();
const byName = new Map(world.instanceTypes.map((t) => [t.name, t]));
const get = (name: string): InstanceTypeSpec => {
  const t = byName.get(name);
  if (!t) throw new Error(`${name} is not in the built-in catalog`);
  return t;
};
const regionsOf = (t: InstanceTypeSpec): Set<string> =>
  new Set(t.offerings.map((o) => regionOfZone(o.zone) ?? '?'));

// Every commercial region as of the catalog's date (docs/catalog.md lists them).
const AWS_COMMERCIAL = [
  'af-south-1',
  'ap-east-1',
  'ap-northeast-1',
  'ap-south-1',
  'ap-southeast-1',
  'ap-southeast-2',
  'ca-central-1',
  'eu-central-1',
  'eu-north-1',
  'eu-west-1',
  'eu-west-2',
  'eu-west-3',
  'me-south-1',
  'sa-east-1',
  'us-east-1',
  'us-east-2',
  'us-west-1',
  'us-west-2',
];

describe('the built-in catalog covers the real world', () => {
  it('offers every AWS commercial region and no GovCloud or China region', () => {
    const regions = builtinRegions('aws');
    for (const r of AWS_COMMERCIAL) expect(regions, r).toContain(r);
    expect(regions.length).toBeGreaterThanOrEqual(30);
    expect(regions.filter((r) => /gov|cn-/.test(r))).toEqual([]);
    for (const r of AWS_COMMERCIAL) expect(regionsOf(get('m6i.large')), r).toContain(r);
  });

  it.each([
    // name, vCPU, memory MiB, pods, arch, device resource, devices, on-demand (Karpenter's reference and table)
    ['c5.large', 2, 4096, 29, 'amd64', undefined, 0, 0.085],
    ['t3.micro', 2, 1024, 4, 'amd64', undefined, 0, 0.0104],
    ['m6i.large', 2, 8192, 29, 'amd64', undefined, 0, 0.096],
    ['c7g.large', 2, 4096, 29, 'arm64', undefined, 0, 0.0725],
    ['g5g.xlarge', 4, 8192, 58, 'arm64', 'nvidia.com/gpu', 1, 0.42],
    ['g4ad.xlarge', 4, 16384, 8, 'amd64', 'amd.com/gpu', 1, 0.37853],
    ['inf2.xlarge', 4, 16384, 58, 'amd64', 'aws.amazon.com/neuron', 1, 0.7582],
    ['trn1.32xlarge', 128, 524288, 247, 'amd64', 'aws.amazon.com/neuron', 16, 21.5],
  ] as const)('%s: %i vCPU, %i MiB, %i pods, %s, %s × %i at its list price', (...row) => {
    const [name, cpu, mib, pods, arch, resource, devices, price] = row;
    const t = get(name);
    expect(t.capacity).toMatchObject({ cpu: String(cpu), memory: `${mib}Mi`, pods: String(pods) });
    expect(t.arch).toBe(arch);
    if (resource) expect(t.capacity[resource]).toBe(String(devices));
    const od = t.offerings.find((o) => o.zone === 'eu-west-1a' && o.capacityType === 'on-demand');
    expect(od?.price).toBe(price);
  });

  it('labels Neuron and AMD devices as Karpenter does', () => {
    expect(get('inf2.xlarge').capacity['aws.amazon.com/neuroncore']).toBe('2');
    expect(get('inf2.xlarge').labels).toMatchObject({
      'karpenter.k8s.aws/instance-accelerator-name': 'inferentia2',
      'karpenter.k8s.aws/instance-accelerator-count': '1',
    });
    expect(get('g4ad.xlarge').labels).toMatchObject({
      'karpenter.k8s.aws/instance-gpu-manufacturer': 'amd',
      'karpenter.k8s.aws/instance-gpu-name': 'radeon-pro-v520',
    });
    expect(get('g4ad.xlarge').capacity['nvidia.com/gpu']).toBeUndefined();
  });

  it('leaves previous-generation and fractional-GPU families out', () => {
    for (const n of ['m4.large', 'c4.large', 't2.micro', 'a1.large', 'g6f.large'])
      expect(byName.has(n), n).toBe(false);
  });

  it('offers Compute Engine GPU machine types in every region that prices them', () => {
    expect(regionsOf(get('a3-highgpu-8g')).size).toBeGreaterThanOrEqual(10);
    expect(regionsOf(get('g2-standard-4')).size).toBeGreaterThanOrEqual(10);
    expect(regionsOf(get('a2-highgpu-1g'))).toContain('asia-northeast1');
    expect(get('a2-megagpu-16g').capacity['nvidia.com/gpu']).toBe('16');
    expect(builtinRegions('gcp').length).toBeGreaterThanOrEqual(40);
  });

  it('offers N1 with attached T4/V100/P100/P4 within Google limits, on-demand only', () => {
    const t4 = get('n1-standard-8_nvidia-tesla-t4_1');
    expect(t4.capacity).toMatchObject({ cpu: '8', memory: '30Gi', 'nvidia.com/gpu': '1' });
    expect(t4.labels?.['cloud.google.com/gke-accelerator']).toBe('nvidia-tesla-t4');
    const central = t4.offerings.find((o) => o.zone === 'us-central1-a');
    expect(central?.price).toBeCloseTo(0.379998 + 0.35, 6);
    expect(t4.offerings.every((o) => o.capacityType === 'on-demand')).toBe(true);
    // one V100 allows at most 12 vCPUs
    expect(byName.has('n1-standard-8_nvidia-tesla-v100_1')).toBe(true);
    expect(byName.has('n1-standard-16_nvidia-tesla-v100_1')).toBe(false);
    expect(byName.has('n1-standard-16_nvidia-tesla-v100_2')).toBe(true);
  });

  it('expands only the regions asked for, per cloud, memoized', () => {
    const west = builtinCatalog(new Set(['us-west-2']));
    expect(builtinCatalog(new Set(['us-west-2']))).toBe(west);
    const awsRegions = new Set(
      west.instanceTypes.filter((t) => t.cloud === 'aws').flatMap((t) => [...regionsOf(t)]),
    );
    expect([...awsRegions]).toEqual(['us-west-2']);
    // no GCP region asked for: every GCP region stays
    expect(regionsOf(west.instanceTypes.find((t) => t.name === 'a3-highgpu-8g')!).size).toBeGreaterThan(1);
    // p5e is offered only where it is known (us-east-2)
    expect(west.instanceTypes.some((t) => t.name === 'p5e.48xlarge')).toBe(false);
    expect([...regionsOf(get('p5e.48xlarge'))]).toEqual(['us-east-2']);
  });

  it("prices one type without expanding the world, as the full catalog's lookup does", () => {
    const full = { aws: catalogLookup(world, 'aws'), gcp: catalogLookup(world, 'gcp') };
    const lazy = { aws: builtinLookup('aws'), gcp: builtinLookup('gcp') };
    const cases: ['aws' | 'gcp', string, string][] = [
      ['aws', 'g5.xlarge', 'us-west-2c'],
      ['aws', 'p5e.48xlarge', 'us-east-1a'],
      ['aws', 'c7g.large', 'ap-southeast-2b'],
      ['gcp', 'g2-standard-4', 'europe-west4-b'],
      ['gcp', 'a2-ultragpu-1g', 'us-central1-c'],
      ['gcp', 'n1-standard-8_nvidia-tesla-t4_1', 'us-central1-a'],
    ];
    for (const [cloud, type, zone] of cases) {
      expect(lazy[cloud].onDemand(type, zone), `${type} ${zone}`).toBe(full[cloud].onDemand(type, zone));
      expect(lazy[cloud].spot(type, zone), `${type} ${zone}`).toBe(full[cloud].spot(type, zone));
    }
    expect(lazy.aws.onDemand('g2-standard-4', 'us-east-1a')).toBeUndefined();
    expect(lazy.gcp.onDemand('g5.xlarge', 'us-central1-a')).toBeUndefined();
    expect(builtinPrice('no-such.type', 'us-east-1a', 'on-demand')).toBeUndefined();
  });
});
