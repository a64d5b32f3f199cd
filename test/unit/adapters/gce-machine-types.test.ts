// A machine type read from the Compute Engine API gets the same allocatable as the built-in catalog gives it,
// so scheduling does not depend on which source priced the fleet.
import { describe, expect, it } from 'vitest';
import { toInstanceTypeSpec } from '../../../shared/adapters/gcp-compute/machine-types.ts';
import { builtinCatalog } from '../../../shared/catalog/builtin.ts';

describe('GCE machine types', () => {
  it.each(['g2-standard-4', 'a3-highgpu-8g', 'n2-standard-8'])(
    '%s carries the built-in catalog overhead',
    (name) => {
      const builtin = builtinCatalog().instanceTypes.find((t) => t.name === name);
      expect(builtin).toBeDefined();
      const memoryMi = Number(String(builtin?.capacity.memory).replace(/Gi$/, '')) * 1024;
      const spec = toInstanceTypeSpec(
        { name, cpus: Number(builtin?.capacity.cpu), memoryMi, zones: ['us-central1-a'] },
        { onDemand: () => 1, spot: () => undefined },
      );
      expect(spec?.overhead).toEqual(builtin?.overhead);
    },
  );
});
