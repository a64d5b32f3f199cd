// Compute Engine types of the built-in catalog: the GPU machine families and n2/c3 priced per region from the
// Karpenter GCP provider's price snapshot, and N1 machine types with attached GPUs (machine price of the snapshot
// plus the GPU's list price, on-demand only). docs/catalog.md says what is derived from what.
import type { BuiltinData } from '../../shared/catalog/builtin-data.ts';
import { ATTACHABLE_GPUS, GCP_FAMILIES, N1_SIZES } from './gcp-tables.ts';

export type GcpPrices = Record<string, { on_demand: Record<string, number>; spot: Record<string, number> }>;
type GcpType = BuiltinData['gcp']['types'][number];

/** The earlier catalog's two regions first (a type's first offering is its price of last resort), then A–Z. */
export const gcpRegionOrder = (regions: readonly string[]): string[] => {
  const first = ['us-central1', 'europe-west4'].filter((r) => regions.includes(r));
  return [...first, ...[...regions].sort().filter((r) => !first.includes(r))];
};

/** region → [on-demand, spot] of one machine type, over every region of the snapshot that prices it. */
function pricesOf(prices: GcpPrices, machine: string): GcpType['prices'] {
  const out: GcpType['prices'] = {};
  for (const region of gcpRegionOrder(Object.keys(prices))) {
    const od = prices[region]?.on_demand[machine];
    if (od === undefined) continue;
    out[region] = [od, prices[region]?.spot[machine] ?? null];
  }
  return out;
}

export function gcpTypes(prices: GcpPrices): GcpType[] {
  const out: GcpType[] = [];
  for (const fam of GCP_FAMILIES) {
    for (const m of fam.machines) {
      const p = pricesOf(prices, m.name);
      if (Object.keys(p).length === 0) throw new Error(`${m.name}: no on-demand price in any region`);
      out.push({
        name: m.name,
        family: fam.machineFamily,
        cpu: m.vcpus,
        memoryMiB: m.memoryGiB * 1024,
        ...(fam.accelerator && m.gpus > 0
          ? { gpu: { accelerator: fam.accelerator, model: fam.gpuModel ?? '', count: m.gpus } }
          : {}),
        ...(fam.knownZones ? { knownZones: copy(fam.knownZones) } : {}),
        prices: p,
      });
    }
  }
  for (const gpu of ATTACHABLE_GPUS) {
    for (const vcpus of N1_SIZES) {
      const machine = `n1-standard-${vcpus}`;
      const base = pricesOf(prices, machine);
      for (const [count, max] of Object.entries(gpu.maxVcpus)) {
        if (vcpus > max) continue;
        const p: GcpType['prices'] = {};
        for (const region of gpu.regions) {
          const od = base[region]?.[0];
          if (od !== undefined) p[region] = [Number((od + gpu.pricePerGpu * Number(count)).toFixed(6)), null];
        }
        if (Object.keys(p).length === 0) continue;
        out.push({
          name: `${machine}_${gpu.name}_${count}`,
          family: 'n1',
          cpu: vcpus,
          memoryMiB: 3840 * vcpus,
          gpu: { accelerator: gpu.name, model: gpu.model, count: Number(count) },
          prices: p,
        });
      }
    }
  }
  return out;
}

function copy(known: Readonly<Record<string, readonly string[]>>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(known).map(([k, v]) => [k, [...v]]));
}
