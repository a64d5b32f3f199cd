// The compact form of the built-in catalog (data/builtin.json, written by scripts/catalog/generate.ts) and its
// expansion into InstanceTypeSpecs: one record per type with its prices per region, zones per region from a
// table, overheads computed here (docs/catalog.md). Pure.
import { z } from 'zod';
import type { InstanceTypeSpec, Offering } from '../model/catalog.ts';
import { awsOverhead, gcpOverhead } from './overhead.ts';

const zoneLetters = z.record(z.string().regex(/^[a-z0-9-]+$/), z.string().regex(/^[a-z]+$/));
// [size, vCPUs, memory MiB, max pods, on-demand USD/h, devices (GPUs or Neuron devices), Neuron cores]
const awsType = z.tuple([
  z.string().min(1),
  z.number().int().positive(),
  z.number().int().positive(),
  z.number().int().positive(),
  z.number().nonnegative(),
  z.number().int().min(0),
  z.number().int().min(0),
]);
const awsFamily = z.strictObject({
  family: z.string().min(1),
  category: z.string().min(1),
  generation: z.string(),
  arch: z.enum(['amd64', 'arm64']),
  /** Spot as a fraction of on-demand (an estimate); null: no spot offerings. */
  spotFactor: z.number().positive().max(1).nullable(),
  knownZones: z.array(z.string()).optional(),
  onlyKnownZones: z.boolean().optional(),
  gpu: z
    .strictObject({
      resource: z.enum(['nvidia.com/gpu', 'amd.com/gpu']),
      name: z.string(),
      manufacturer: z.string(),
      memoryMiB: z.number().int().min(0),
      model: z.string(),
    })
    .optional(),
  accelerator: z.strictObject({ name: z.string(), manufacturer: z.string() }).optional(),
  types: z.array(awsType).min(1),
});
const gcpType = z.strictObject({
  name: z.string().min(1),
  family: z.string().min(1),
  cpu: z.number().int().positive(),
  memoryMiB: z.number().int().positive(),
  gpu: z
    .strictObject({ accelerator: z.string(), model: z.string(), count: z.number().int().positive() })
    .optional(),
  knownZones: z.record(z.string(), z.array(z.string())).optional(),
  /** region → [on-demand, spot or null] USD/h */
  prices: z.record(z.string(), z.tuple([z.number().nonnegative(), z.number().nonnegative().nullable()])),
});
export const builtinDataSchema = z.strictObject({
  apiVersion: z.literal('kraftsman.dev/v1alpha1'),
  kind: z.literal('BuiltinCatalogData'),
  source: z.string().min(1),
  aws: z.strictObject({
    zones: zoneLetters,
    jitter: z.array(z.number().positive()).min(1),
    families: z.array(awsFamily),
  }),
  gcp: z.strictObject({ zones: zoneLetters, types: z.array(gcpType) }),
});
export type BuiltinData = z.infer<typeof builtinDataSchema>;
type AwsFamily = z.infer<typeof awsFamily>;
type GcpType = z.infer<typeof gcpType>;

const AWS_EPHEMERAL = '20Gi';
const GCP_EPHEMERAL = '100Gi';
const round = (n: number, digits: number): number => Number(n.toFixed(digits));
const memory = (mib: number): string => (mib % 1024 === 0 ? `${mib / 1024}Gi` : `${mib}Mi`);

/** The zones of a region as the table names them. */
function zonesOf(letters: Readonly<Record<string, string>>, region: string, sep: string): string[] {
  return [...(letters[region] ?? '')].map((l) => `${region}${sep}${l}`);
}

/** An AWS family's zones in the given regions: its known zones where it has some in a region, else all. */
function awsZones(data: BuiltinData, f: AwsFamily, regions: readonly string[]): string[] {
  const known = f.knownZones ?? [];
  return regions.flatMap((r) => {
    const inRegion = known.filter((z) => z.startsWith(`${r}`) && /^[a-z]$/.test(z.slice(r.length)));
    if (inRegion.length > 0 || f.onlyKnownZones) return inRegion;
    return zonesOf(data.aws.zones, r, '');
  });
}

export function expandAwsFamily(
  data: BuiltinData,
  f: AwsFamily,
  regions: readonly string[],
): InstanceTypeSpec[] {
  const zones = awsZones(data, f, regions);
  const jitter = data.aws.jitter;
  return f.types.map(([size, cpu, memoryMiB, pods, onDemand, devices, cores]) => {
    const labels: Record<string, string> = {
      'karpenter.k8s.aws/instance-category': f.category,
      'karpenter.k8s.aws/instance-family': f.family,
      'karpenter.k8s.aws/instance-generation': f.generation,
      'karpenter.k8s.aws/instance-size': size,
      'karpenter.k8s.aws/instance-cpu': String(cpu),
      'karpenter.k8s.aws/instance-memory': String(memoryMiB),
    };
    const capacity: Record<string, string> = {
      cpu: String(cpu),
      memory: `${memoryMiB}Mi`,
      'ephemeral-storage': AWS_EPHEMERAL,
      pods: String(pods),
    };
    if (f.gpu && devices > 0) {
      capacity[f.gpu.resource] = String(devices);
      Object.assign(labels, {
        'karpenter.k8s.aws/instance-gpu-name': f.gpu.name,
        'karpenter.k8s.aws/instance-gpu-manufacturer': f.gpu.manufacturer,
        'karpenter.k8s.aws/instance-gpu-count': String(devices),
        'karpenter.k8s.aws/instance-gpu-memory': String(f.gpu.memoryMiB),
        'kraftsman.dev/gpu-model': f.gpu.model,
        'kraftsman.dev/gpu-count': String(devices),
      });
    }
    if (f.accelerator && devices > 0) {
      capacity['aws.amazon.com/neuron'] = String(devices);
      if (cores > 0) capacity['aws.amazon.com/neuroncore'] = String(cores);
      Object.assign(labels, {
        'karpenter.k8s.aws/instance-accelerator-name': f.accelerator.name,
        'karpenter.k8s.aws/instance-accelerator-manufacturer': f.accelerator.manufacturer,
        'karpenter.k8s.aws/instance-accelerator-count': String(devices),
      });
    }
    const offerings: Offering[] = [];
    zones.forEach((zone, i) => {
      offerings.push({ zone, capacityType: 'on-demand', price: round(onDemand, 6), available: true });
      if (f.spotFactor !== null) {
        const spot = onDemand * f.spotFactor * (jitter[i % jitter.length] as number);
        offerings.push({ zone, capacityType: 'spot', price: round(spot, 4), available: true });
      }
    });
    return {
      name: `${f.family}.${size}`,
      cloud: 'aws',
      arch: f.arch,
      capacity,
      overhead: { ...awsOverhead({ vcpus: cpu, memoryMiB, maxPods: pods }) },
      labels,
      offerings,
    };
  });
}

export function expandGcpType(
  data: BuiltinData,
  t: GcpType,
  regions: readonly string[],
): InstanceTypeSpec | undefined {
  const offerings: Offering[] = [];
  for (const region of regions) {
    const price = t.prices[region];
    if (!price) continue;
    const [od, spot] = price;
    for (const zone of t.knownZones?.[region] ?? zonesOf(data.gcp.zones, region, '-')) {
      offerings.push({ zone, capacityType: 'on-demand', price: round(od, 6), available: true });
      if (spot !== null)
        offerings.push({ zone, capacityType: 'spot', price: round(spot, 6), available: true });
    }
  }
  if (offerings.length === 0) return undefined;
  const labels: Record<string, string> = { 'cloud.google.com/machine-family': t.family };
  const capacity: Record<string, string> = {
    cpu: String(t.cpu),
    memory: memory(t.memoryMiB),
    'ephemeral-storage': GCP_EPHEMERAL,
    pods: '110',
  };
  if (t.gpu) {
    capacity['nvidia.com/gpu'] = String(t.gpu.count);
    Object.assign(labels, {
      'cloud.google.com/gke-accelerator': t.gpu.accelerator,
      'cloud.google.com/gke-accelerator-count': String(t.gpu.count),
      'kraftsman.dev/gpu-model': t.gpu.model,
      'kraftsman.dev/gpu-count': String(t.gpu.count),
    });
  }
  return {
    name: t.name,
    cloud: 'gcp',
    arch: 'amd64',
    capacity,
    overhead: { ...gcpOverhead({ vcpus: t.cpu, memoryMiB: t.memoryMiB }) },
    labels,
    offerings,
  };
}
