// The InstanceTypeCatalog of docs/contract.md (the catalog file): instance types with capacity, overhead,
// labels and offerings.
import { z } from 'zod';
import { CAPACITY_TYPES, CLOUDS } from './labels.ts';
import { resourceList } from './meta.ts';

export const offeringSchema = z.looseObject({
  zone: z.string().min(1),
  capacityType: z.enum(CAPACITY_TYPES),
  price: z.number().nonnegative(),
  available: z.boolean().default(true),
  reservationId: z.string().optional(),
  reservationCapacity: z.number().int().min(0).optional(),
});
export type Offering = z.infer<typeof offeringSchema>;

export const instanceTypeSchema = z.looseObject({
  name: z.string().min(1),
  cloud: z.enum(CLOUDS),
  arch: z.enum(['amd64', 'arm64']).default('amd64'),
  capacity: resourceList,
  overhead: resourceList.optional(),
  labels: z.record(z.string(), z.string()).optional(),
  offerings: z.array(offeringSchema).min(1, 'an instance type needs at least one offering'),
});
export type InstanceTypeSpec = z.infer<typeof instanceTypeSchema>;

export const catalogSchema = z.looseObject({
  apiVersion: z.literal('kraftsman.dev/v1alpha1'),
  kind: z.literal('InstanceTypeCatalog'),
  metadata: z.looseObject({ name: z.string().optional() }).optional(),
  source: z.string().optional(),
  instanceTypes: z.array(instanceTypeSchema).superRefine((types, ctx) => {
    // One name, one type: the scheduler, prices and node lookups key on the name alone, whatever the cloud.
    const first = new Map<string, number>();
    types.forEach((t, i) => {
      const at = first.get(t.name);
      if (at === undefined) first.set(t.name, i);
      else
        ctx.addIssue({
          code: 'custom',
          path: [i, 'name'],
          message: `instance type ${t.name} is named twice (first at instanceTypes[${at}])`,
        });
    });
  }),
});
export type InstanceTypeCatalog = z.infer<typeof catalogSchema>;
