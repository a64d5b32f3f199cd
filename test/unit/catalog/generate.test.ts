// The catalog generator (scripts/catalog) on a small excerpt of its sources: Karpenter's instance-type reference
// and price table read as they are written; previous-generation, fractional-GPU and unpriced types left out and
// named; device resources by manufacturer; a family whose sizes disagree on a per-family label refused.
import { describe, expect, it } from 'vitest';
import { awsFamilies, parsePricingGo, parseTypesMd } from '../../../scripts/catalog/generate.ts';
import { GCP_FAMILIES } from '../../../scripts/catalog/gcp-tables.ts';
import { gcpTypes } from '../../../scripts/catalog/gcp-types.ts';

const section = (name: string, rows: Record<string, string | number>) =>
  [`### \`${name}\``, '#### Labels', ' | Label | Value |', ' |--|--|']
    .concat(Object.entries(rows).map(([k, v]) => ` |${k}|${v}|`))
    .join('\n');

const aws = (family: string, size: string, extra: Record<string, string | number> = {}) =>
  section(`${family}.${size}`, {
    'karpenter.k8s.aws/instance-category': family.replace(/\d.*/, ''),
    'karpenter.k8s.aws/instance-cpu': 2,
    'karpenter.k8s.aws/instance-family': family,
    'karpenter.k8s.aws/instance-generation': /\d+/.exec(family)?.[0] ?? '',
    'karpenter.k8s.aws/instance-memory': 4096,
    'karpenter.k8s.aws/instance-size': size,
    'kubernetes.io/arch': 'amd64',
    pods: 29,
    ...extra,
  });

const MD = [
  '## c5 Family',
  aws('c5', 'large'),
  aws('m4', 'large'),
  aws('g6f', 'large', {
    'karpenter.k8s.aws/instance-gpu-name': 'l4',
    'karpenter.k8s.aws/instance-gpu-memory': 2861,
  }),
  aws('g4ad', 'xlarge', {
    'karpenter.k8s.aws/instance-gpu-count': 1,
    'karpenter.k8s.aws/instance-gpu-manufacturer': 'amd',
    'karpenter.k8s.aws/instance-gpu-memory': 8192,
    'karpenter.k8s.aws/instance-gpu-name': 'radeon-pro-v520',
    'amd.com/gpu': 1,
  }),
  aws('trn2', '48xlarge'),
  aws('c7g', 'large', { 'kubernetes.io/arch': 'arm64' }),
].join('\n');
const PRICES = `"c5.large": 0.085000, "m4.large": 0.1, "g6f.large": 0.2,\n"g4ad.xlarge": 0.378530, "c7g.large": 0.0725,`;

describe('the catalog generator', () => {
  it('reads the reference and the price table as Karpenter writes them', () => {
    expect(parseTypesMd(MD).get('c5.large')?.pods).toBe('29');
    expect(parsePricingGo(PRICES).get('g4ad.xlarge')).toBe(0.37853);
  });

  it('keeps current-generation priced types, with their arch and device resource', () => {
    const skipped: string[] = [];
    const families = awsFamilies(parseTypesMd(MD), parsePricingGo(PRICES), skipped);
    expect(families.map((f) => f.family).sort()).toEqual(['c5', 'c7g', 'g4ad']);
    expect(skipped).toEqual(['trn2.48xlarge']);
    expect(families.find((f) => f.family === 'c7g')?.arch).toBe('arm64');
    expect(families.find((f) => f.family === 'g4ad')?.gpu).toMatchObject({
      resource: 'amd.com/gpu',
      manufacturer: 'amd',
    });
    expect(families.find((f) => f.family === 'c5')?.types).toEqual([['large', 2, 4096, 29, 0.085, 0, 0]]);
  });

  it('refuses a family whose sizes disagree on a per-family label', () => {
    const md = [
      aws('g5', 'xlarge', {
        'karpenter.k8s.aws/instance-gpu-name': 'a10g',
        'karpenter.k8s.aws/instance-gpu-memory': 1,
      }),
      aws('g5', '2xlarge', {
        'karpenter.k8s.aws/instance-gpu-name': 'a10g',
        'karpenter.k8s.aws/instance-gpu-memory': 2,
      }),
    ].join('\n');
    expect(() =>
      awsFamilies(parseTypesMd(md), parsePricingGo('"g5.xlarge": 1, "g5.2xlarge": 2,'), []),
    ).toThrow('g5: karpenter.k8s.aws/instance-gpu-memory differs between sizes');
  });

  it('refuses a machine type of the shape tables that no region prices', () => {
    expect(() => gcpTypes({})).toThrow('a2-highgpu-1g: no on-demand price in any region');
  });

  it('prices N1 with an attached GPU in the regions that offer that GPU, on-demand only', () => {
    const onDemand: Record<string, number> = { 'n1-standard-8': 0.38, 'n1-standard-16': 0.76 };
    for (const f of GCP_FAMILIES) for (const m of f.machines) onDemand[m.name] = 1;
    const types = gcpTypes({
      'us-central1': { on_demand: onDemand, spot: { 'n1-standard-8': 0.08 } },
      'africa-south1': { on_demand: { 'n1-standard-8': 0.45 }, spot: {} },
    });
    const t4 = types.find((t) => t.name === 'n1-standard-8_nvidia-tesla-t4_1');
    // T4 is not offered in africa-south1; the machine's spot price does not make the pair a spot offering
    expect(t4?.prices).toEqual({ 'us-central1': [0.73, null] });
    expect(t4?.gpu).toEqual({ accelerator: 'nvidia-tesla-t4', model: 't4', count: 1 });
    // one V100 allows 12 vCPUs at most: no n1-standard-16 with one V100
    expect(types.some((t) => t.name === 'n1-standard-16_nvidia-tesla-v100_1')).toBe(false);
  });
});
