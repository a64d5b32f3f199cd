// The bin-packing lower bound on fleet cost the report draws under the cost curve (docs/contract.md, fleet).
//
// Relaxation computed: the cost-minimal packing of the pods onto the catalog's instance types, with
// (1) pods made divisible (only the total request per resource counts, not which pod sits where),
// (2) node counts made fractional, and (3) placement rules dropped (selectors, taints, zones, spread,
// reservation caps) — except the GPU model a pod's nodeSelector names: its GPUs count twice, in the
// resource's total row and in a row of that model only (`nvidia.com/gpu@h100-80gb`), which only types of
// that model supply. Every real packing keeps both rows, so the bound stays a bound; without the model rows
// an H100 pod would be priced at the cheapest T4's $/GPU. What is left is the covering LP
//     minimise  sum_t price_t x_t   subject to   sum_t alloc_{t,r} x_t >= demand_r  (every resource r),  x >= 0
// where price_t is the type's cheapest available offering and alloc_t its capacity less overhead. Every
// real packing is a feasible point of it, so its optimum never exceeds a real fleet's cost. We solve its
// dual (maximise demand·y subject to alloc_t·y <= price_t, y >= 0: one shadow price per resource), whose
// origin is feasible, with a small exact simplex; by LP duality both optima are equal.
import type { InstanceTypeCatalog, InstanceTypeSpec } from '../../../shared/model/catalog.ts';
import { fromQuantities, type ResourceList } from '../../../shared/model/resources.ts';
import { maximize } from './simplex.ts';

export interface LowerBound {
  readonly perHour: number;
  /** $/hour per unit of each resource at the optimum (the dual solution). */
  readonly shadowPrices: Readonly<Record<string, number>>;
  /** Resources asked for that no instance type offers: left out of the bound (those pods cannot run). */
  readonly unserved: readonly string[];
}

const cheapest = (t: InstanceTypeSpec): number | undefined => {
  const prices = t.offerings.filter((o) => o.available !== false).map((o) => o.price);
  return prices.length ? Math.min(...prices) : undefined;
};

/** The label naming a type's GPU model, and the one a pod's nodeSelector asks for. */
export const GPU_MODEL_LABEL = 'kraftsman.dev/gpu-model';
/** The demand row of one GPU model: `<resource>@<model>`. */
export const modelRow = (resource: string, model: string): string => `${resource}@${model}`;

function allocatable(t: InstanceTypeSpec, row: string): number {
  const at = row.indexOf('@');
  const r = at < 0 ? row : row.slice(0, at);
  if (at >= 0 && t.labels?.[GPU_MODEL_LABEL] !== row.slice(at + 1)) return 0;
  return Math.max(0, (fromQuantities(t.capacity)[r] ?? 0) - (fromQuantities(t.overhead)[r] ?? 0));
}

/** demand: the summed requests of the pods to pack, in milli-units (as shared/model/resources.ts), plus the
 *  GPU-model rows (`modelRow`) of the pods that name a model. */
export function lowerBoundPerHour(demand: ResourceList, catalog: InstanceTypeCatalog): LowerBound {
  const types = catalog.instanceTypes
    .map((t) => ({ t, price: cheapest(t) }))
    .filter((x): x is { t: InstanceTypeSpec; price: number } => x.price !== undefined);
  const asked = Object.keys(demand).filter((r) => (demand[r] ?? 0) > 0);
  const served = asked.filter((r) => types.some(({ t }) => allocatable(t, r) > 0));
  const unserved = asked.filter((r) => !served.includes(r));
  if (served.length === 0) return { perHour: 0, shadowPrices: {}, unserved };
  // Each resource in its own unit (so memory in milli-bytes and cpu in millicores do not meet in one
  // pivot): column r is divided by its largest allocatable, and its shadow price scaled back.
  const raw = types.map(({ t }) => served.map((r) => allocatable(t, r)));
  const scale = served.map((_, j) => Math.max(...raw.map((row) => row[j] ?? 0)));
  const { value, y } = maximize(
    raw.map((row) => row.map((a, j) => a / (scale[j] ?? 1))),
    types.map((x) => x.price),
    served.map((r, j) => (demand[r] ?? 0) / (scale[j] ?? 1)),
  );
  const shadowPrices = Object.fromEntries(served.map((r, j) => [r, (y[j] ?? 0) / (scale[j] ?? 1)]));
  return { perHour: value, shadowPrices, unserved };
}
