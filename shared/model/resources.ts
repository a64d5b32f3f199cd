// Resource lists as integer milli-units (number), the unit the scheduler computes in; see quantity.ts.
import { formatMilli, quantityMilli } from './quantity.ts';

export type ResourceList = Readonly<Record<string, number>>;
export type MutableResourceList = Record<string, number>;

export const CPU = 'cpu';
export const MEMORY = 'memory';
export const PODS = 'pods';
export const EPHEMERAL_STORAGE = 'ephemeral-storage';
export const NVIDIA_GPU = 'nvidia.com/gpu';
/** A NodePool limit on its node count (Karpenter's resources.Node): every node, and every new claim, is one. */
export const NODES = 'nodes';
export const ONE_NODE = 1000;

export const EMPTY: ResourceList = Object.freeze({});

export function fromQuantities(q: Readonly<Record<string, string | number>> | undefined): ResourceList {
  if (!q) return EMPTY;
  const out: MutableResourceList = {};
  for (const [k, v] of Object.entries(q)) out[k] = quantityMilli(v);
  return out;
}

export function add(...lists: ResourceList[]): MutableResourceList {
  const out: MutableResourceList = {};
  for (const list of lists) for (const k in list) out[k] = (out[k] ?? 0) + (list[k] as number);
  return out;
}

/** Adds `b` into `into` in place (the hot-path form of add). */
export function addInto(into: MutableResourceList, b: ResourceList): MutableResourceList {
  for (const k in b) into[k] = (into[k] ?? 0) + (b[k] as number);
  return into;
}

export function subtract(a: ResourceList, b: ResourceList): MutableResourceList {
  const out: MutableResourceList = { ...a };
  for (const k in b) out[k] = (out[k] ?? 0) - (b[k] as number);
  return out;
}

/** `a - b` over the keys of `a` only (limits minus usage: resources without a limit stay unlimited). */
export function subtractWithin(a: ResourceList, b: ResourceList): MutableResourceList {
  const out: MutableResourceList = { ...a };
  // a saturated limit (quantityMilli caps at 2^53) stays effectively unlimited
  for (const k in a)
    out[k] = (a[k] as number) >= Number.MAX_SAFE_INTEGER ? (a[k] as number) : (a[k] as number) - (b[k] ?? 0);
  return out;
}

/** Element-wise max: how Kubernetes combines init containers with the main containers. */
export function maxOf(a: ResourceList, b: ResourceList): MutableResourceList {
  const out: MutableResourceList = { ...a };
  for (const k in b) out[k] = Math.max(out[k] ?? 0, b[k] as number);
  return out;
}

/** Element-wise min over the keys of either (a key only one has keeps its value). */
export function minOf(a: ResourceList, b: ResourceList): MutableResourceList {
  const out: MutableResourceList = { ...a };
  for (const k in b) out[k] = Math.min(out[k] ?? Number.POSITIVE_INFINITY, b[k] as number);
  return out;
}

/** True when every requested resource fits in `available` (a resource absent from `available` is 0). */
export function fits(requests: ResourceList, available: ResourceList): boolean {
  for (const k in requests) {
    const want = requests[k] as number;
    if (want > 0 && want > (available[k] ?? 0)) return false;
  }
  return true;
}

/** `fits(a + b, available)` without building the sum (hot path: requests plus daemon overhead per type). */
export function fitsSum(a: ResourceList, b: ResourceList, available: ResourceList): boolean {
  for (const k in a) {
    const want = (a[k] as number) + (b[k] ?? 0);
    if (want > 0 && want > (available[k] ?? 0)) return false;
  }
  for (const k in b) {
    if (k in a) continue;
    const want = b[k] as number;
    if (want > 0 && want > (available[k] ?? 0)) return false;
  }
  return true;
}

/** Names the first resource that does not fit, for reasons shown to people. */
export function firstShortfall(requests: ResourceList, available: ResourceList): string | undefined {
  for (const k in requests) {
    const want = requests[k] as number;
    if (want > 0 && want > (available[k] ?? 0)) return k;
  }
  return undefined;
}

export function isZero(list: ResourceList): boolean {
  for (const k in list) if ((list[k] as number) !== 0) return false;
  return true;
}

export function format(list: ResourceList): string {
  return Object.keys(list)
    .sort()
    .map((k) => `${k}=${formatMilli(list[k] as number, k === MEMORY || k === EPHEMERAL_STORAGE)}`)
    .join(',');
}
