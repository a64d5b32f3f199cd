// The `source` line written into the built-in catalog: the inputs with their commits and dates, and every
// derivation that is not in them (docs/catalog.md says the same at length).
import { ESTIMATED_ON_DEMAND } from './aws-tables.ts';

export const KARPENTER_AWS_COMMIT = '1d927085dd81a9df9301e613f371dac5b4d16bfe';
export const KARPENTER_GCP_COMMIT = '417f047b117521aba6d3ab120dac538a92161bf4';

export const SOURCE = (skipped: readonly string[]): string =>
  [
    'Generated 2026-12-07 by scripts/catalog/generate.ts.',
    'AWS shapes, GPU/Neuron devices and ENI-limited max pods: aws/karpenter-provider-aws',
    `website/content/en/v1.14/reference/instance-types.md (AL2023) at commit ${KARPENTER_AWS_COMMIT};`,
    'previous-generation and fractional-GPU (g6f, gr6f) families (scripts/catalog/aws-tables.ts) are left out.',
    'AWS on-demand prices (Linux, USD/h): the same commit, pkg/providers/pricing/zz_generated.pricing_aws.go',
    '(generated 2026-07-20 from the AWS Price List API for us-east-1); every other region is given the us-east-1',
    "price, as Karpenter's AWS provider does for a region without a static table until the Pricing API answers",
    '(real regional prices differ, typically 0-30% higher).',
    ...Object.values(ESTIMATED_ON_DEMAND).map((e) => `${e.why}.`),
    `Types without an on-demand price in the source are left out: ${skipped.join(', ') || 'none'}.`,
    'AWS regional availability is NOT in the source: every current-generation type is offered in every zone of every',
    'commercial region, except the GPU families whose zones in us-east-1/us-west-2 are known (aws-tables.ts',
    'KNOWN_ZONES); zone letters per region from the AWS Regions and Zones docs (letters are mapped per account).',
    'AWS spot prices are ESTIMATES: on-demand x a per-family factor (0.35-0.6, 0.45 by default) x a small per-zone',
    'variation, not observed spot prices.',
    'GCP machine-type prices (on-demand and spot, USD/h, per region): cloudpilot-ai/karpenter-provider-gcp',
    `pkg/providers/pricing/initial-prices.json at commit ${KARPENTER_GCP_COMMIT} (refreshed 2026-08-03); a machine`,
    'type is offered in the regions that price it, in every zone of the region except where the earlier',
    'catalog knew its zones (us-central1, europe-west4). GCP shapes: cloud.google.com/compute/docs',
    '(accelerator-optimized and general-purpose families), scripts/catalog/gcp-tables.ts. A4 and A3 Ultra are not in',
    "the price snapshot and are left out. N1 with attached T4/V100/P100/P4: regions from Google's GPU regions page,",
    'price = the N1 machine price of the snapshot + the GPU us-central1 list price (an ESTIMATE outside us-central1),',
    'on-demand only (no spot price in the source).',
    'No reserved offerings: reservations are per account. Overheads: shared/catalog/overhead.ts. Max pods: AWS is',
    "ENI-limited (Karpenter's AWS provider for AL2023), GCP is 110 (GKE's default).",
  ].join(' ');
