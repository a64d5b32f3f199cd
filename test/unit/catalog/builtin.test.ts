// The built-in catalog: it parses, covers every family issues 2 and 31 list in every region, and its shapes, labels,
// overheads and prices agree with the public sources named in its SOURCE string (docs/catalog.md).
import { describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../../shared/catalog/builtin.ts';
import BUILTIN_CATALOG_DATA from '../../../shared/catalog/data/builtin.json' with { type: 'json' };

const SOURCE = BUILTIN_CATALOG_DATA.source;
import { catalogSchema, type InstanceTypeSpec } from '../../../shared/model/catalog.ts';
import { quantityMilli } from '../../../shared/model/quantity.ts';

const catalog = builtinCatalog();
const byName = new Map(catalog.instanceTypes.map((t) => [t.name, t]));
const get = (name: string): InstanceTypeSpec => {
  const t = byName.get(name);
  if (!t) throw new Error(`${name} is not in the built-in catalog`);
  return t;
};
const GI = 1024 ** 3;
const mem = (t: InstanceTypeSpec): number => quantityMilli(t.capacity.memory as string) / 1000;
const num = (q: string | number | undefined): number => quantityMilli(q ?? 0) / 1000;
const regionOf = (zone: string): string => (/-[a-z]$/.test(zone) ? zone.slice(0, -2) : zone.slice(0, -1));

describe('the built-in catalog', () => {
  it('expands into an InstanceTypeCatalog the schema accepts, memoized', () => {
    const parsed = catalogSchema.safeParse(JSON.parse(JSON.stringify(catalog)));
    expect(parsed.success, parsed.success ? '' : parsed.error.message.slice(0, 500)).toBe(true);
    expect(builtinCatalog()).toBe(catalog);
    expect(catalog.apiVersion).toBe('kraftsman.dev/v1alpha1');
  });

  it('is frozen, so one caller cannot change it under another', () => {
    expect(Object.isFrozen(catalog.instanceTypes)).toBe(true);
    expect(Object.isFrozen(get('g5.xlarge').capacity)).toBe(true);
  });

  it('says where and when its numbers come from, and which are estimates', () => {
    expect(catalog.source).toBe(SOURCE);
    expect(SOURCE).toMatch(/Generated 20\d\d-\d\d-\d\d/);
    expect(SOURCE).toMatch(/1d927085dd81a9df9301e613f371dac5b4d16bfe/);
    expect(SOURCE).toMatch(/regional availability is NOT in the source/);
    expect(SOURCE).toMatch(/spot prices are ESTIMATES/);
  });

  it('has unique type names', () => {
    expect(byName.size).toBe(catalog.instanceTypes.length);
  });

  it.each([
    ['aws', ['g4dn', 'g5', 'g6', 'g6e', 'p4d', 'p4de', 'p5', 'p5e', 'p5en', 'm7i', 'c7i', 'r7i']],
    [
      'gcp',
      [
        'a2-highgpu',
        'a2-ultragpu',
        'a3-highgpu',
        'a3-megagpu',
        'g2-standard',
        'n2-standard',
        'n2-highmem',
        'c3-standard',
      ],
    ],
  ] as const)('carries every %s family the issue lists', (cloud, families) => {
    const family = (name: string): string =>
      (cloud === 'aws' ? name.split('.')[0] : name.replace(/-\d+g?$/, '')) as string;
    const present = new Set(
      catalog.instanceTypes.filter((t) => t.cloud === cloud).map((t) => family(t.name)),
    );
    for (const f of families) expect(present, f).toContain(f);
  });

  it('carries the sizes the issue names', () => {
    for (const n of [
      'p4d.24xlarge',
      'p5.48xlarge',
      'p5.4xlarge',
      'p5e.48xlarge',
      'p5en.48xlarge',
      'a3-megagpu-8g',
    ])
      get(n);
    for (const n of [1, 2, 4, 8])
      for (const f of ['a2-highgpu', 'a2-ultragpu', 'a3-highgpu']) get(`${f}-${n}g`);
    for (const n of [4, 8, 12, 16, 24, 32, 48, 96]) get(`g2-standard-${n}`);
  });

  it.each([
    ['g5.xlarge', 4, 16 * GI, 1, 'a10g'],
    ['g4dn.12xlarge', 48, 192 * GI, 4, 't4'],
    ['g6e.xlarge', 4, 32 * GI, 1, 'l40s'],
    ['p4d.24xlarge', 96, 1152 * GI, 8, 'a100-40gb'],
    ['p4de.24xlarge', 96, 1152 * GI, 8, 'a100-80gb'],
    ['p5.48xlarge', 192, 2048 * GI, 8, 'h100-80gb'],
    ['p5en.48xlarge', 192, 2048 * GI, 8, 'h200-141gb'],
    ['a3-highgpu-8g', 208, 1872 * GI, 8, 'h100-80gb'],
    ['a2-ultragpu-8g', 96, 1360 * GI, 8, 'a100-80gb'],
    ['g2-standard-4', 4, 16 * GI, 1, 'l4'],
    ['g2-standard-48', 48, 192 * GI, 4, 'l4'],
  ] as const)('%s has %i vCPU, its memory and %i× %s', (name, cpu, memory, gpus, model) => {
    const t = get(name);
    expect(num(t.capacity.cpu)).toBe(cpu);
    expect(mem(t)).toBe(memory);
    expect(num(t.capacity['nvidia.com/gpu'])).toBe(gpus);
    expect(t.labels?.['kraftsman.dev/gpu-model']).toBe(model);
    expect(t.labels?.['kraftsman.dev/gpu-count']).toBe(String(gpus));
  });

  it('offers at least two regions per cloud', () => {
    for (const cloud of ['aws', 'gcp'] as const) {
      const regions = new Set(
        catalog.instanceTypes
          .filter((t) => t.cloud === cloud)
          .flatMap((t) => t.offerings.map((o) => regionOf(o.zone))),
      );
      expect(regions.size, cloud).toBeGreaterThanOrEqual(2);
    }
    expect(regionOf('us-east-1a')).toBe('us-east-1');
    expect(regionOf('us-central1-a')).toBe('us-central1');
  });

  it('gives every GPU type its cloud label, the neutral model and the count', () => {
    const gpus = (t: InstanceTypeSpec): number =>
      num(t.capacity['nvidia.com/gpu']) + num(t.capacity['amd.com/gpu']);
    const gpuTypes = catalog.instanceTypes.filter((t) => gpus(t) > 0);
    expect(gpuTypes.length).toBeGreaterThan(150);
    for (const t of gpuTypes) {
      const cloudLabel =
        t.cloud === 'aws' ? 'karpenter.k8s.aws/instance-gpu-name' : 'cloud.google.com/gke-accelerator';
      expect(t.labels?.[cloudLabel], t.name).toBeTruthy();
      expect(t.labels?.['kraftsman.dev/gpu-model'], t.name).toMatch(
        /^(t4|t4g|a10g|l4|l40s|a100-40gb|a100-80gb|h100-80gb|h200-141gb|b200-\d+gb|b300-\d+gb|v100|p100|p4|radeon-pro-v520|rtx-pro-6000|rtx-pro-server-6000|l40s|[a-z0-9-]+)$/,
      );
      expect(t.labels?.['kraftsman.dev/gpu-count'], t.name).toBe(String(gpus(t)));
    }
    expect(get('a3-megagpu-8g').labels?.['cloud.google.com/gke-accelerator']).toBe('nvidia-h100-mega-80gb');
    expect(get('a2-highgpu-1g').labels?.['cloud.google.com/gke-accelerator']).toBe('nvidia-tesla-a100');
    expect(get('p5e.48xlarge').labels?.['karpenter.k8s.aws/instance-gpu-name']).toBe('h200');
  });

  it('labels AWS types with family, size and GPU count as Karpenter does', () => {
    expect(get('g6.12xlarge').labels).toMatchObject({
      'karpenter.k8s.aws/instance-family': 'g6',
      'karpenter.k8s.aws/instance-size': '12xlarge',
      'karpenter.k8s.aws/instance-gpu-count': '4',
      'karpenter.k8s.aws/instance-gpu-name': 'l4',
    });
  });

  it('keeps every overhead positive and below capacity', () => {
    for (const t of catalog.instanceTypes) {
      for (const [resource, value] of Object.entries(t.overhead ?? {})) {
        expect(num(value), `${t.name} ${resource}`).toBeGreaterThan(0);
        expect(num(value), `${t.name} ${resource}`).toBeLessThan(num(t.capacity[resource]));
      }
      expect(Object.keys(t.overhead ?? {}).sort(), t.name).toEqual(['cpu', 'ephemeral-storage', 'memory']);
    }
  });

  it.each([
    // Karpenter's v1.14 instance-types reference lists these allocatables (AL2023, ENI-limited pods).
    ['g5.xlarge', '3920m', '14162Mi', 58],
    ['g4dn.xlarge', '3920m', '14481Mi', 29],
    ['p5.48xlarge', '191450m', '1938410Mi', 100],
    ['m7i.large', '1930m', '6903Mi', 29],
  ] as const)('%s leaves the allocatable Karpenter computes (%s, %s, %i pods)', (name, cpu, memory, pods) => {
    const t = get(name);
    expect(num(t.capacity.cpu) - num(t.overhead?.cpu)).toBeCloseTo(num(cpu), 6);
    expect(mem(t) - num(t.overhead?.memory)).toBe(num(memory));
    expect(num(t.capacity.pods)).toBe(pods);
    expect(num(t.capacity['ephemeral-storage']) - num(t.overhead?.['ephemeral-storage'])).toBe(17 * GI);
  });

  it('gives GCP types GKE max pods and the GKE reservation', () => {
    const t = get('g2-standard-4');
    expect(num(t.capacity.pods)).toBe(110);
    // 80m kube-reserved (CPU tiers) + 100m kube-proxy; memory: 7% VM + 2.6 GiB of GKE tiers for 16 GiB + 100 MiB eviction.
    expect(t.overhead?.cpu).toBe('180m');
    const mi = 1024 * 1024;
    expect(num(t.overhead?.memory)).toBe(Math.trunc(16 * GI * 0.07) + (1024 + 819 + 819 + 100) * mi);
  });

  it('prices spot below on-demand wherever both are offered, and every price is positive', () => {
    const wrong: string[] = [];
    for (const t of catalog.instanceTypes) {
      const od = new Map(
        t.offerings.filter((o) => o.capacityType === 'on-demand').map((o) => [o.zone, o.price]),
      );
      for (const o of t.offerings) {
        const onDemand = od.get(o.zone);
        if (!(o.price > 0) || (o.capacityType === 'spot' && onDemand !== undefined && o.price >= onDemand))
          wrong.push(`${t.name} ${o.zone} ${o.capacityType} ${o.price}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('uses the public on-demand list prices', () => {
    const price = (name: string, zone: string): number | undefined =>
      get(name).offerings.find((o) => o.zone === zone && o.capacityType === 'on-demand')?.price;
    expect(price('g5.xlarge', 'us-east-1a')).toBe(1.006);
    expect(price('p5.48xlarge', 'us-east-1a')).toBe(55.04);
    expect(price('g2-standard-4', 'us-central1-a')).toBeCloseTo(0.706832, 6);
    expect(price('n2-standard-4', 'europe-west4-a')).toBeCloseTo(0.213832, 6);
  });

  it('offers each type in one zone at most once per capacity type, with no reserved offerings', () => {
    for (const t of catalog.instanceTypes) {
      const keys = t.offerings.map((o) => `${o.zone}/${o.capacityType}`);
      expect(new Set(keys).size, t.name).toBe(keys.length);
      expect(
        t.offerings.some((o) => o.capacityType === 'reserved'),
        t.name,
      ).toBe(false);
    }
  });

  it('keeps each cloud in its own zones', () => {
    const wrong = catalog.instanceTypes.flatMap((t) =>
      t.offerings
        .filter(
          (o) => !(t.cloud === 'aws' ? /^[a-z]{2}-[a-z]+-\d[a-f]$/ : /^[a-z]+-[a-z]+\d+-[a-f]$/).test(o.zone),
        )
        .map((o) => `${t.name} ${o.zone}`),
    );
    expect(wrong).toEqual([]);
  });
});
