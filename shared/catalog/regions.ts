// Regions of a catalog's offerings: the region a zone belongs to, and a catalog narrowed to some regions per
// cloud (docs/contract.md, "Regions"). Pure.
import type { Cloud } from '../model/labels.ts';
import type { InstanceTypeCatalog } from '../model/catalog.ts';

// AWS: us-east-1a, us-gov-west-1b, us-west-2-lax-1a (a Local Zone belongs to its parent region).
const AWS_ZONE = /^([a-z]{2}(?:-gov|-iso[a-z]?)?-[a-z]+-\d+)(?:[a-z]|-[a-z0-9-]+)$/;
const AWS_REGION = /^[a-z]{2}(?:-gov|-iso[a-z]?)?-[a-z]+-\d+$/;
// Google Cloud: us-central1-a, europe-west4-b; regions have a digit at the end of their second word.
const GCP_ZONE = /^([a-z]+-[a-z]+\d+)-[a-z]$/;
const GCP_REGION = /^[a-z]+-[a-z]+\d+$/;

/** The region of a zone name of either cloud, or undefined when it is neither's shape. */
export function regionOfZone(zone: string): string | undefined {
  return AWS_ZONE.exec(zone)?.[1] ?? GCP_ZONE.exec(zone)?.[1];
}

/** Which cloud names its regions this way (the two clouds' region names do not overlap). */
export function cloudOfRegion(region: string): Cloud | undefined {
  if (AWS_REGION.test(region)) return 'aws';
  if (GCP_REGION.test(region)) return 'gcp';
  return undefined;
}

/**
 * The catalog with each cloud's offerings limited to the given regions of that cloud; a cloud none of the regions
 * belongs to keeps all of its offerings. A type left without offerings is dropped (a node of that type then has
 * an unknown price, as any type outside the catalog).
 */
export function catalogInRegions(
  catalog: InstanceTypeCatalog,
  regions: ReadonlySet<string>,
): InstanceTypeCatalog {
  const limited = new Set<Cloud>();
  for (const r of regions) {
    const cloud = cloudOfRegion(r);
    if (cloud) limited.add(cloud);
  }
  if (limited.size === 0) return catalog;
  const instanceTypes = catalog.instanceTypes.flatMap((t) => {
    if (!limited.has(t.cloud)) return [t];
    const offerings = t.offerings.filter((o) => regions.has(regionOfZone(o.zone) ?? ''));
    return offerings.length > 0 ? [{ ...t, offerings }] : [];
  });
  return { ...catalog, instanceTypes };
}
