// Cloud Billing SKUs for the Compute Engine emulator, derived from the catalog the fleet is priced with: the
// adapter prices a machine type as cores × core SKU + GiB × RAM SKU + GPUs × GPU SKU of its family, so each
// family's core and RAM rates and each GPU's rate are fitted (least squares, a tiny ridge for families with
// one shape) to the catalog's prices in the region — the launches and the report then price alike.
import type { SeedSku } from '../gce/billing.ts';
import type { InstanceTypeSpec } from '../../shared/model/catalog.ts';
import { gpuSkuName } from '../../shared/adapters/gcp-compute/billing.ts';
import { quantityMilli } from '../../shared/model/quantity.ts';

interface Row {
  readonly x: Map<string, number>;
  readonly y: number;
}

/** Solves (XᵀX + λI) b = Xᵀy by Gaussian elimination with partial pivoting. */
function fit(rows: readonly Row[], vars: readonly string[]): Map<string, number> {
  const n = vars.length;
  const idx = new Map(vars.map((v, i) => [v, i]));
  const a = Array.from({ length: n }, (_, i) =>
    Array.from({ length: n + 1 }, (_, j) => (i === j ? 1e-9 : 0)),
  );
  for (const r of rows)
    for (const [vi, xi] of r.x) {
      const i = idx.get(vi)!;
      for (const [vj, xj] of r.x) a[i]![idx.get(vj)!]! += xi * xj;
      a[i]![n]! += xi * r.y;
    }
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(a[r]![c]!) > Math.abs(a[p]![c]!)) p = r;
    [a[c], a[p]] = [a[p]!, a[c]!];
    for (let r = 0; r < n; r++) {
      if (r === c || a[c]![c] === 0) continue;
      const f = a[r]![c]! / a[c]![c]!;
      for (let k = c; k <= n; k++) a[r]![k]! -= f * a[c]![k]!;
    }
  }
  return new Map(vars.map((v, i) => [v, Math.max(0, a[i]![n]! / a[i]![i]!)]));
}

function rowsOf(types: readonly InstanceTypeSpec[], region: string, capacityType: string): Row[] {
  return types.flatMap((t) => {
    const o = t.offerings.find((x) => x.zone.startsWith(`${region}-`) && x.capacityType === capacityType);
    if (!o) return [];
    const family = (t.name.split('-')[0] ?? '').toUpperCase();
    const gpu = t.labels?.['cloud.google.com/gke-accelerator'];
    const x = new Map<string, number>([
      [`core:${family}`, quantityMilli(t.capacity.cpu ?? 0) / 1000],
      [`ram:${family}`, quantityMilli(t.capacity.memory ?? 0) / 1000 / 2 ** 30],
    ]);
    if (gpu) x.set(`gpu:${gpu}`, quantityMilli(t.capacity['nvidia.com/gpu'] ?? 0) / 1000);
    return [{ x, y: o.price }];
  });
}

const describe = (v: string): { name: string; unit: SeedSku['unit'] } => {
  const [kind, id = ''] = v.split(':');
  if (kind === 'gpu') return { name: `Nvidia ${gpuSkuName(id)} GPU`, unit: 'h' };
  return kind === 'core'
    ? { name: `${id} Instance Core`, unit: 'h' }
    : { name: `${id} Instance Ram`, unit: 'GiBy.h' };
};

export function catalogSkus(types: readonly InstanceTypeSpec[], region: string): SeedSku[] {
  const skus: SeedSku[] = [];
  for (const [ct, usage, prefix] of [
    ['on-demand', 'OnDemand', ''],
    ['spot', 'Preemptible', 'Spot Preemptible '],
  ] as const) {
    const rows = rowsOf(types, region, ct);
    const vars = [...new Set(rows.flatMap((r) => [...r.x.keys()]))].sort();
    for (const [v, usd] of fit(rows, vars)) {
      const d = describe(v);
      skus.push({
        description: `${prefix}${d.name} running in Americas`,
        usageType: usage,
        usd,
        unit: d.unit,
      });
    }
  }
  return skus;
}
