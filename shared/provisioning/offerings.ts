// Offerings a cloud recently refused for lack of capacity are unavailable until their entry expires
// (Karpenter's unavailable-offerings cache, 3 minutes): the next scheduling run chooses around them.
import type { InstanceTypeSpec } from '../model/catalog.ts';
import type { Cloud, CapacityType } from '../model/labels.ts';

export interface RefusedOffering {
  readonly cloud: Cloud;
  readonly instanceType: string;
  readonly zone: string;
  readonly capacityType: CapacityType;
  readonly expiresAt: Date;
}

export function withoutRefused(
  specs: readonly InstanceTypeSpec[],
  refused: readonly RefusedOffering[],
  now: Date,
): InstanceTypeSpec[] {
  const live = new Set(
    refused
      .filter((r) => r.expiresAt > now)
      .map((r) => `${r.cloud}|${r.instanceType}|${r.zone}|${r.capacityType}`),
  );
  if (live.size === 0) return [...specs];
  return specs.map((s) => ({
    ...s,
    offerings: s.offerings.map((o) =>
      live.has(`${s.cloud}|${s.name}|${o.zone}|${o.capacityType}`) ? { ...o, available: false } : o,
    ),
  }));
}

/** One spec per name and cloud: offerings of node classes that share a type are merged (first price wins). */
export function mergeSpecs(lists: readonly (readonly InstanceTypeSpec[])[]): InstanceTypeSpec[] {
  const byName = new Map<string, InstanceTypeSpec>();
  for (const list of lists)
    for (const s of list) {
      const key = `${s.cloud}|${s.name}`;
      const seen = byName.get(key);
      if (!seen) {
        byName.set(key, s);
        continue;
      }
      const have = new Set(seen.offerings.map((o) => `${o.zone}|${o.capacityType}`));
      const more = s.offerings.filter((o) => !have.has(`${o.zone}|${o.capacityType}`));
      if (more.length) byName.set(key, { ...seen, offerings: [...seen.offerings, ...more] });
    }
  return [...byName.values()];
}
