// Inconsistencies in a --catalog that leave it usable: a type whose overhead exceeds its capacity has no
// allocatable room for that resource (nothing fits on it), which is worth a warning, not a refusal.
import type { InstanceTypeCatalog } from '../../shared/model/catalog.ts';
import { quantityMilli } from '../../shared/model/quantity.ts';

export function catalogWarnings(catalog: InstanceTypeCatalog, source: string): string[] {
  const warnings: string[] = [];
  for (const type of catalog.instanceTypes) {
    for (const [resource, overhead] of Object.entries(type.overhead ?? {})) {
      const capacity = type.capacity[resource];
      if (quantityMilli(overhead) > (capacity === undefined ? 0 : quantityMilli(capacity)))
        warnings.push(
          `${source}: instance type ${type.name}: overhead ${resource} ${String(overhead)} exceeds its capacity ${String(capacity ?? 0)}; no pod can use its ${resource}`,
        );
    }
  }
  return warnings;
}
