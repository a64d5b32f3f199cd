// Regenerates shared/catalog/data/builtin.json (the compact built-in catalog) from public sources: `npm run
// catalog:generate -- AWS_TYPES_MD AWS_PRICING_GO GCP_PRICES_JSON > shared/catalog/data/builtin.json`.
// docs/catalog.md says where to get the three files (commits in SOURCE below) and what is derived from what.
import { readFileSync } from 'node:fs';
import { gpuModel } from '../../shared/adapters/aws-ec2/instance-types.ts';
import { builtinDataSchema, type BuiltinData } from '../../shared/catalog/builtin-data.ts';
import {
  AWS_REGIONS,
  DEFAULT_SPOT_FACTOR,
  ESTIMATED_ON_DEMAND,
  FRACTIONAL_GPU,
  GPU_MODEL_OVERRIDE,
  KNOWN_ZONES,
  NO_SPOT,
  PREVIOUS_GENERATION,
  SPOT_FACTOR,
  ZONE_JITTER,
} from './aws-tables.ts';
import { gcpRegionOrder, gcpTypes, type GcpPrices } from './gcp-types.ts';
import { GCP_ZONE_LETTERS } from './gcp-tables.ts';
import { SOURCE } from './source.ts';

type Row = Record<string, string>;
type AwsFamily = BuiltinData['aws']['families'][number];

/** name → label and resource rows of each `### \`type\`` section of Karpenter's instance-types.md. */
export function parseTypesMd(text: string): Map<string, Row> {
  const out = new Map<string, Row>();
  const sections = text.split(/^### `([^`]+)`\s*$/m);
  for (let i = 1; i < sections.length; i += 2) {
    const rows: Row = {};
    for (const m of (sections[i + 1] ?? '').matchAll(/^ \|([^|]+)\|([^|]*)\|/gm))
      rows[m[1] as string] = m[2] as string;
    out.set(sections[i] as string, rows);
  }
  return out;
}

/** The us-east-1 on-demand table of Karpenter's zz_generated.pricing_aws.go. */
export function parsePricingGo(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of text.matchAll(/"([a-z0-9-]+\.[a-z0-9-]+)": ([0-9.]+)/g))
    out.set(m[1] as string, Number(m[2]));
  return out;
}

/** One label of a family's types, refusing a family whose types disagree on it (the data would be lossy). */
function common(family: string, rows: readonly Row[], key: string): string | undefined {
  const values = new Set(rows.map((r) => r[key]));
  if (values.size > 1) throw new Error(`${family}: ${key} differs between sizes (${[...values].join(', ')})`);
  return rows[0]?.[key];
}

export function awsFamilies(
  md: Map<string, Row>,
  prices: Map<string, number>,
  skipped: string[],
): AwsFamily[] {
  const byFamily = new Map<string, [string, Row][]>();
  for (const [name, row] of md) {
    const family = row['karpenter.k8s.aws/instance-family'] ?? '';
    if (PREVIOUS_GENERATION.has(family) || FRACTIONAL_GPU.has(family)) continue;
    if (!prices.has(name) && !ESTIMATED_ON_DEMAND[name]) {
      skipped.push(name);
      continue;
    }
    byFamily.set(family, [...(byFamily.get(family) ?? []), [name, row]]);
  }
  return [...byFamily].map(([family, members]) => {
    const rows = members.map(([, r]) => r);
    const gpuName = common(family, rows, 'karpenter.k8s.aws/instance-gpu-name');
    const gpuMemory = Number(common(family, rows, 'karpenter.k8s.aws/instance-gpu-memory') ?? 0);
    const accelerator = common(family, rows, 'karpenter.k8s.aws/instance-accelerator-name');
    const known = KNOWN_ZONES[family];
    const out: AwsFamily = {
      family,
      category: common(family, rows, 'karpenter.k8s.aws/instance-category') ?? '',
      generation: common(family, rows, 'karpenter.k8s.aws/instance-generation') ?? '',
      arch: common(family, rows, 'kubernetes.io/arch') === 'arm64' ? 'arm64' : 'amd64',
      spotFactor: NO_SPOT.has(family) ? null : (SPOT_FACTOR[family] ?? DEFAULT_SPOT_FACTOR),
      ...(known ? { knownZones: [...known.zones], ...(known.only ? { onlyKnownZones: true } : {}) } : {}),
      ...(gpuName
        ? {
            gpu: {
              resource: rows[0]?.['amd.com/gpu'] ? ('amd.com/gpu' as const) : ('nvidia.com/gpu' as const),
              name: gpuName,
              manufacturer: common(family, rows, 'karpenter.k8s.aws/instance-gpu-manufacturer') ?? '',
              memoryMiB: gpuMemory,
              model: GPU_MODEL_OVERRIDE[family] ?? gpuModel(gpuName, gpuMemory),
            },
          }
        : {}),
      ...(accelerator
        ? {
            accelerator: {
              name: accelerator,
              manufacturer: common(family, rows, 'karpenter.k8s.aws/instance-accelerator-manufacturer') ?? '',
            },
          }
        : {}),
      types: members.map(([name, r]) => {
        const devices = gpuName
          ? Number(r['karpenter.k8s.aws/instance-gpu-count'] ?? 0)
          : Number(r['aws.amazon.com/neuron'] ?? 0);
        return [
          r['karpenter.k8s.aws/instance-size'] ?? '',
          Number(r['karpenter.k8s.aws/instance-cpu']),
          Number(r['karpenter.k8s.aws/instance-memory']),
          Number(r['pods']),
          prices.get(name) ?? (ESTIMATED_ON_DEMAND[name]?.price as number),
          devices,
          Number(r['aws.amazon.com/neuroncore'] ?? 0),
        ] as const;
      }),
    };
    return out;
  });
}

function main(): void {
  const [typesMd, pricingGo, gcpJson] = process.argv.slice(2);
  if (!typesMd || !pricingGo || !gcpJson) {
    process.stderr.write('usage: generate.ts AWS_TYPES_MD AWS_PRICING_GO GCP_PRICES_JSON\n');
    process.exit(2);
  }
  const skipped: string[] = [];
  const md = parseTypesMd(readFileSync(typesMd, 'utf8'));
  const families = awsFamilies(md, parsePricingGo(readFileSync(pricingGo, 'utf8')), skipped);
  const gcpPrices = (JSON.parse(readFileSync(gcpJson, 'utf8')) as { prices: GcpPrices }).prices;
  const gcpZones = Object.fromEntries(
    gcpRegionOrder(Object.keys(gcpPrices)).map((r) => [r, GCP_ZONE_LETTERS[r] ?? 'abc']),
  );
  const data = builtinDataSchema.parse({
    apiVersion: 'kraftsman.dev/v1alpha1',
    kind: 'BuiltinCatalogData',
    source: SOURCE(skipped),
    aws: { zones: AWS_REGIONS, jitter: ZONE_JITTER, families },
    gcp: { zones: gcpZones, types: gcpTypes(gcpPrices) },
  });
  process.stdout.write(`${JSON.stringify(data)}\n`);
}

if (process.argv[1]?.endsWith('generate.ts')) main();
