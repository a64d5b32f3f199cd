// What a NodeClaim may launch on: the offerings of its candidate instance types that its requirements
// admit, in the order every cloud adapter tries them (reserved first, then spot, then on-demand; cheapest first).
import type { InstanceTypeSpec } from './catalog.ts';
import { CAPACITY_TYPE, INSTANCE_TYPE, NODEPOOL, ZONE, type CapacityType } from './labels.ts';
import { nodePoolName, type NodePoolName } from './names.ts';
import type { NodeClaim } from './nodeclaim.ts';

/** One launchable (type, zone, capacity type) with its price, as adapters try them: cheapest first. */
export interface LaunchOption {
  readonly instanceType: string;
  readonly zone: string;
  readonly capacityType: CapacityType;
  readonly price: number;
  readonly reservationId?: string;
}

/** True when the claim's requirements on `key` admit `value` (a key the claim does not constrain admits all). */
export function allows(claim: NodeClaim, key: string, value: string): boolean {
  for (const r of claim.spec.requirements) {
    if (r.key !== key) continue;
    const values = r.values ?? [];
    if (r.operator === 'In' && !values.includes(value)) return false;
    if (r.operator === 'NotIn' && values.includes(value)) return false;
    if (r.operator === 'DoesNotExist') return false;
  }
  return true;
}

/**
 * The offerings a claim may launch on, cheapest first (ties by type, zone). Like Karpenter's launch
 * path, a claim that allows `reserved` uses only reserved offerings when any exist, because a
 * reservation is already paid for; otherwise spot is preferred to on-demand when both are allowed.
 */
export function launchOptions(claim: NodeClaim, types: readonly InstanceTypeSpec[]): LaunchOption[] {
  const all: LaunchOption[] = [];
  for (const t of types) {
    if (!allows(claim, INSTANCE_TYPE, t.name)) continue;
    for (const o of t.offerings) {
      if (
        o.available === false ||
        !allows(claim, ZONE, o.zone) ||
        !allows(claim, CAPACITY_TYPE, o.capacityType)
      )
        continue;
      all.push({
        instanceType: t.name,
        zone: o.zone,
        capacityType: o.capacityType,
        price: o.price,
        ...(o.reservationId ? { reservationId: o.reservationId } : {}),
      });
    }
  }
  const preferred = (['reserved', 'spot', 'on-demand'] as const).find((ct) =>
    all.some((o) => o.capacityType === ct),
  );
  return all
    .filter((o) => o.capacityType === preferred)
    .sort(
      (a, b) =>
        a.price - b.price || a.instanceType.localeCompare(b.instanceType) || a.zone.localeCompare(b.zone),
    );
}

/** The claim's NodePool, from the label Karpenter puts on every claim it creates. */
export function claimNodePool(claim: NodeClaim): NodePoolName | undefined {
  const pool = claim.metadata.labels?.[NODEPOOL];
  return pool === undefined ? undefined : nodePoolName(pool);
}
