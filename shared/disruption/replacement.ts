// Pricing a replacement claim the way Karpenter's consolidation does: an instance type stays only if its worst
// launch price (the most expensive compatible offering of the capacity type it would launch as — reserved,
// else spot, else on-demand) is strictly below the price being replaced; minValues must still hold after.
import { CAPACITY_TYPE } from '../model/labels.ts';
import { describeClaim } from '../provisioning/simulate.ts';
import { offeringCompatible, orderByPrice, type InstanceType } from '../scheduling/instance-type.ts';
import type { NewClaim } from '../scheduling/new-claim.ts';
import type { Requirements } from '../scheduling/requirement-set.ts';
import type { Replacement } from './types.ts';

/** Karpenter's scheduling.MaxInstanceTypes: a launch names at most this many types. */
export const MAX_INSTANCE_TYPES = 60;

const LAUNCH_ORDER = ['reserved', 'spot', 'on-demand'] as const;

export function worstLaunchPrice(it: InstanceType, reqs: Requirements): number {
  const compatible = it.offerings.filter((o) => o.available && offeringCompatible(o, reqs));
  for (const ct of LAUNCH_ORDER) {
    const prices = compatible.filter((o) => o.capacityType === ct).map((o) => o.price);
    if (prices.length) return Math.max(...prices);
  }
  return Number.POSITIVE_INFINITY;
}

/** RemoveInstanceTypeOptionsByPriceAndMinValues: undefined when minValues can no longer be met. */
export function filterByPrice(
  types: readonly InstanceType[],
  reqs: Requirements,
  maxPrice: number,
): InstanceType[] | undefined {
  const kept = types.filter((it) => worstLaunchPrice(it, reqs) < maxPrice);
  return satisfiesMinValues(kept, reqs) ? kept : undefined;
}

export function satisfiesMinValues(types: readonly InstanceType[], reqs: Requirements): boolean {
  for (const r of reqs.values()) {
    if (r.minValues === undefined) continue;
    const seen = new Set<string>();
    for (const it of types) {
      const v = it.labels[r.key];
      if (v !== undefined && r.has(v)) seen.add(v);
    }
    if (seen.size < r.minValues) return false;
  }
  return true;
}

/** Narrows a simulated claim in place (it belongs to this one simulation): types ordered cheapest first. */
export function narrow(
  claim: NewClaim,
  types: readonly InstanceType[],
  reqs: Requirements = claim.requirements,
): void {
  claim.requirements = reqs;
  claim.instanceTypes = orderByPrice(types, reqs);
}

export const capacityTypes = (claim: NewClaim): { spot: boolean; onDemand: boolean } => {
  const r = claim.requirements.get(CAPACITY_TYPE);
  return { spot: r.has('spot'), onDemand: r.has('on-demand') };
};

export function toReplacement(claim: NewClaim): Replacement {
  const d = describeClaim(claim, 'replacement');
  return {
    nodePool: d.nodePool,
    cloud: d.cloud,
    instanceTypes: d.instanceTypes.slice(0, MAX_INSTANCE_TYPES),
    capacityType: d.cheapest?.capacityType ?? 'unknown',
    zone: d.cheapest?.zone ?? 'unknown',
    price: d.cheapest?.price ?? Number.POSITIVE_INFINITY,
    requirements: d.requirements,
  };
}
