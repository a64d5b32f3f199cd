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
import type { NodeOption, PodClass } from './pod-classes.ts';
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

/**
 * The bound with placement kept where it decides which nodes a pod may use (pod-classes.ts): each class of pods
 * (same admissible options) must have every resource it asks for supplied by options it may use — divisibly,
 * and each resource on its own, since a class mixes pod shapes (splitting its total in one proportion would
 * overcharge a mix of cpu-heavy and memory-heavy pods) — every option's node count fractional, its room net of
 * DaemonSets. Primal: minimise sum_o p_o x_o subject to sum_{o in O(c)} y_{c,o,r} >= d_{c,r} and
 * sum_c y_{c,o,r} <= room_{o,r} x_o. We solve its dual: maximise sum_{c,r} d_{c,r} u_{c,r} subject to
 * sum_r room_{o,r} w_{o,r} <= p_o and u_{c,r} <= w_{o,r} for o in O(c); u, w >= 0, whose origin is feasible.
 * Any real fleet is a feasible primal point, so the optimum never exceeds a real fleet's cost.
 */
export function assignmentBound(classes: readonly PodClass[], options: readonly NodeOption[]): number {
  const resources = [...new Set(classes.flatMap((c) => Object.keys(c.demand)))].filter((r) =>
    classes.some((c) => (c.demand[r] ?? 0) > 0),
  );
  if (resources.length === 0) return 0;
  const R = resources.length;
  const used = [...new Set(classes.flatMap((c) => c.options))];
  const wAt = new Map(used.map((o, i) => [o, classes.length * R + i * R]));
  // Each resource in its own unit, as in lowerBoundPerHour: its variables are scaled by its largest figure.
  const scale = resources.map((r) =>
    Math.max(1, ...classes.map((c) => c.demand[r] ?? 0), ...used.map((o) => options[o]?.room[r] ?? 0)),
  );
  const width = classes.length * R + used.length * R;
  const rows: number[][] = [];
  const limits: number[] = [];
  for (const o of used) {
    const row = new Array<number>(width).fill(0);
    const at = wAt.get(o) ?? 0;
    resources.forEach((r, j) => (row[at + j] = (options[o]?.room[r] ?? 0) / (scale[j] ?? 1)));
    rows.push(row);
    limits.push(options[o]?.price ?? 0);
  }
  classes.forEach((c, k) => {
    for (const o of c.options)
      resources.forEach((r, j) => {
        if ((c.demand[r] ?? 0) <= 0) return;
        const row = new Array<number>(width).fill(0);
        row[k * R + j] = 1;
        row[(wAt.get(o) ?? 0) + j] = -1;
        rows.push(row);
        limits.push(0);
      });
  });
  const objective = new Array<number>(width).fill(0);
  classes.forEach((c, k) =>
    resources.forEach((r, j) => (objective[k * R + j] = (c.demand[r] ?? 0) / (scale[j] ?? 1))),
  );
  return maximize(rows, limits, objective).value;
}
