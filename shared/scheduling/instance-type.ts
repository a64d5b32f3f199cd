// Instance types as the scheduler uses them: requirements (name, arch, os, cloud, zones, capacity types and
// every catalog label, DoesNotExist where a type lacks one), allocatable and priced offerings.
import type { InstanceTypeSpec } from '../model/catalog.ts';
import {
  ARCH,
  CAPACITY_TYPE,
  CLOUD,
  INSTANCE_TYPE,
  OS,
  ZONE,
  type CapacityType,
  type Cloud,
} from '../model/labels.ts';
import { fromQuantities, subtract, type ResourceList } from '../model/resources.ts';
import { Requirement } from './requirement.ts';
import { Requirements } from './requirement-set.ts';

export interface Offering {
  readonly zone: string;
  readonly capacityType: CapacityType;
  readonly price: number;
  readonly available: boolean;
}

export interface InstanceType {
  readonly name: string;
  readonly cloud: Cloud;
  readonly requirements: Requirements;
  readonly labels: Readonly<Record<string, string>>;
  readonly capacity: ResourceList;
  readonly allocatable: ResourceList;
  readonly offerings: readonly Offering[];
}

/** Builds every catalog type; `labelKeys` are all label keys any type carries (so others get DoesNotExist). */
export function buildInstanceTypes(specs: readonly InstanceTypeSpec[]): InstanceType[] {
  const labelKeys = new Set<string>();
  for (const s of specs) for (const k of Object.keys(s.labels ?? {})) labelKeys.add(k);
  return specs.map((s) => buildInstanceType(s, labelKeys));
}

function buildInstanceType(spec: InstanceTypeSpec, labelKeys: ReadonlySet<string>): InstanceType {
  const labels: Record<string, string> = {
    ...(spec.labels ?? {}),
    [INSTANCE_TYPE]: spec.name,
    // the catalog's labels are the contract's way to declare an architecture (docs/contract.md); `arch` is the default
    [ARCH]: spec.labels?.[ARCH] ?? spec.arch,
    [OS]: 'linux',
    [CLOUD]: spec.cloud,
  };
  const requirements = new Requirements();
  for (const [k, v] of Object.entries(labels)) requirements.add(Requirement.in(k, v));
  for (const k of labelKeys) if (!(k in labels)) requirements.add(Requirement.doesNotExist(k));
  requirements.add(Requirement.in(ZONE, ...new Set(spec.offerings.map((o) => o.zone))));
  requirements.add(Requirement.in(CAPACITY_TYPE, ...new Set(spec.offerings.map((o) => o.capacityType))));
  const capacity = fromQuantities(spec.capacity);
  return {
    name: spec.name,
    cloud: spec.cloud,
    requirements,
    labels,
    capacity,
    allocatable: subtract(capacity, fromQuantities(spec.overhead)),
    offerings: spec.offerings.map((o) => ({
      zone: o.zone,
      capacityType: o.capacityType,
      price: o.price,
      available: o.available,
    })),
  };
}

export function offeringCompatible(o: Offering, reqs: Requirements): boolean {
  return reqs.get(ZONE).has(o.zone) && reqs.get(CAPACITY_TYPE).has(o.capacityType);
}

/** The cheapest available offering compatible with the requirements, or undefined. */
export function cheapestOffering(it: InstanceType, reqs: Requirements): Offering | undefined {
  let best: Offering | undefined;
  for (const o of it.offerings) {
    if (!o.available || !offeringCompatible(o, reqs)) continue;
    if (!best || o.price < best.price || (o.price === best.price && o.zone < best.zone)) best = o;
  }
  return best;
}

/** Types ordered cheapest first by their cheapest compatible offering (Karpenter's OrderByPrice), then by name. */
export function orderByPrice(types: readonly InstanceType[], reqs: Requirements): InstanceType[] {
  const price = new Map(types.map((t) => [t, cheapestOffering(t, reqs)?.price ?? Number.POSITIVE_INFINITY]));
  return [...types].sort(
    (a, b) => (price.get(a) as number) - (price.get(b) as number) || a.name.localeCompare(b.name),
  );
}
