// The hand-kept part of the AWS catalog: commercial regions and their zone names, the previous-generation
// families left out, known GPU zone placements, spot-estimate factors and GPU model names. Everything measured
// (shapes, pods, prices) comes from the files generate.ts reads; docs/catalog.md explains each choice.

/**
 * Every commercial region (the `aws` partition; GovCloud and China are separate partitions) with the zone
 * letters an account usually sees (AWS docs, "Regions and Zones", retrieved 2026-12-07). Zone letters are
 * mapped per account (zone IDs are not), so a real account's offerings come from `kraftsman catalog`.
 * us-east-1 and us-west-2 come first: spot estimates vary by a zone's position (ZONE_JITTER), as before.
 */
export const AWS_REGIONS: Readonly<Record<string, string>> = {
  'us-east-1': 'abcdf',
  'us-west-2': 'abcd',
  'af-south-1': 'abc',
  'ap-east-1': 'abc',
  'ap-east-2': 'abc',
  'ap-northeast-1': 'acd',
  'ap-northeast-2': 'abcd',
  'ap-northeast-3': 'abc',
  'ap-south-1': 'abc',
  'ap-south-2': 'abc',
  'ap-southeast-1': 'abc',
  'ap-southeast-2': 'abc',
  'ap-southeast-3': 'abc',
  'ap-southeast-4': 'abc',
  'ap-southeast-5': 'abc',
  'ap-southeast-6': 'abc',
  'ap-southeast-7': 'abc',
  'ca-central-1': 'abd',
  'ca-west-1': 'abc',
  'eu-central-1': 'abc',
  'eu-central-2': 'abc',
  'eu-north-1': 'abc',
  'eu-south-1': 'abc',
  'eu-south-2': 'abc',
  'eu-west-1': 'abc',
  'eu-west-2': 'abc',
  'eu-west-3': 'abc',
  'il-central-1': 'abc',
  'me-central-1': 'abc',
  'me-south-1': 'abc',
  'mx-central-1': 'abc',
  'sa-east-1': 'abc',
  'us-east-2': 'abc',
  'us-west-1': 'ac',
};

/**
 * Families AWS lists as previous generation (aws.amazon.com/ec2/previous-generation, retrieved 2026-12-07):
 * left out of the built-in catalog. A node of such a type reads as "unknown price"; `--extra-types` adds it.
 */
export const PREVIOUS_GENERATION = new Set([
  'a1',
  'c1',
  'c3',
  'c4',
  'd2',
  'g3',
  'g3s',
  'h1',
  'i2',
  'm1',
  'm2',
  'm3',
  'm4',
  'p2',
  'p3',
  'r3',
  'r4',
  't1',
  't2',
  'x1',
  'x1e',
]);

/**
 * Fractional-GPU families (a share of one L4 per type: Karpenter reports no `nvidia.com/gpu` for them and a GPU
 * memory per size): left out, as a GPU catalog whose types have no whole GPU would mislead a GPU request.
 */
export const FRACTIONAL_GPU = new Set(['g6f', 'gr6f']);

/** Types with no public on-demand list price in the source, priced by an ESTIMATE (named in `source`). */
export const ESTIMATED_ON_DEMAND: Readonly<Record<string, { price: number; why: string }>> = {
  'p5e.48xlarge': {
    price: 63.296,
    why: 'p5e.48xlarge has no public on-demand list price (sold through Capacity Blocks): ESTIMATE equal to p5en.48xlarge',
  },
};

const USE1 = ['us-east-1a', 'us-east-1b', 'us-east-1c', 'us-east-1d', 'us-east-1f'];
const USW2 = ['us-west-2a', 'us-west-2b', 'us-west-2c', 'us-west-2d'];

/**
 * Zones known from the providers' published GPU zone lists (the earlier built-in catalog's placements, kept so
 * that its offerings stay as they were): a family named here is offered only in these zones of these regions
 * and in every zone of the other regions (only p5e is limited to its listed zones everywhere).
 */
export const KNOWN_ZONES: Readonly<Record<string, { zones: readonly string[]; only?: boolean }>> = {
  g4dn: { zones: [...USE1, ...USW2] },
  g5: { zones: [...USE1, ...USW2] },
  g6: { zones: [...USE1, ...USW2] },
  g6e: {
    zones: ['us-east-1a', 'us-east-1b', 'us-east-1c', 'us-east-1d', 'us-west-2a', 'us-west-2b', 'us-west-2c'],
  },
  p4d: { zones: ['us-east-1a', 'us-east-1b', 'us-east-1c', 'us-west-2b', 'us-west-2c'] },
  p4de: { zones: ['us-east-1a', 'us-east-1b', 'us-west-2b'] },
  p5: { zones: ['us-east-1a', 'us-east-1b', 'us-east-1c', 'us-west-2a', 'us-west-2b'] },
  p5e: { zones: ['us-east-2a', 'us-east-2b'], only: true },
  p5en: { zones: ['us-east-1a', 'us-east-1b', 'us-west-2a', 'us-west-2b'] },
};

/** Families with no spot capacity in the catalog (Capacity Blocks only). */
export const NO_SPOT = new Set(['p5e']);

/** Spot as a fraction of on-demand: an ESTIMATE from typical discounts per family, not an observed price. */
export const SPOT_FACTOR: Readonly<Record<string, number>> = {
  g4dn: 0.35,
  g5: 0.4,
  g6: 0.45,
  g6e: 0.5,
  p4d: 0.45,
  p4de: 0.5,
  p5: 0.55,
  p5en: 0.6,
  m7i: 0.45,
  c7i: 0.42,
  r7i: 0.4,
};
/** The factor of a family not in SPOT_FACTOR. */
export const DEFAULT_SPOT_FACTOR = 0.45;
/** Per-zone variation of the spot estimate, by the zone's position in the type's zone list. */
export const ZONE_JITTER: readonly number[] = [1.0, 0.96, 1.04, 0.98, 1.02, 0.97, 1.03, 0.99, 1.01];

/** GPU models as the earlier catalog named them where the size rule (gpuModel) would round differently. */
export const GPU_MODEL_OVERRIDE: Readonly<Record<string, string>> = {
  p5e: 'h200-141gb',
  p5en: 'h200-141gb',
};
