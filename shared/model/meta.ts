// Shared zod pieces for Kubernetes objects: metadata, quantities, selectors, taints, tolerations.
import { z } from 'zod';
import { isQuantity, parseQuantity } from './quantity.ts';

// abort: zod 4 runs later refinements after a failed one; nonNegativeQuantity would then throw.
export const quantity = z.union([z.string(), z.number()]).refine(isQuantity, {
  abort: true,
  message: 'invalid quantity (expected a Kubernetes quantity such as 500m, 2, 16Gi)',
});
export const nonNegativeQuantity = quantity.refine((q) => parseQuantity(q) >= 0n, {
  message: 'must be non-negative',
});
export const resourceList = z.record(z.string(), nonNegativeQuantity);

export const timestamp = z
  .string()
  .refine((s) => !Number.isNaN(Date.parse(s)), { message: 'invalid timestamp' });

export const ownerReference = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string(),
  name: z.string(),
  uid: z.string().optional(),
  controller: z.boolean().optional(),
});

export const objectMeta = z.looseObject({
  name: z.string().min(1, 'metadata.name is required'),
  namespace: z.string().optional(),
  uid: z.string().optional(),
  resourceVersion: z.string().optional(),
  generation: z.number().int().optional(),
  labels: z.record(z.string(), z.string()).optional(),
  annotations: z.record(z.string(), z.string()).optional(),
  creationTimestamp: timestamp.optional(),
  deletionTimestamp: timestamp.optional(),
  ownerReferences: z.array(ownerReference).optional(),
  finalizers: z.array(z.string()).optional(),
});
export type ObjectMeta = z.infer<typeof objectMeta>;

export const SELECTOR_OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist'] as const;
export const labelSelectorRequirement = z
  .object({ key: z.string(), operator: z.enum(SELECTOR_OPERATORS), values: z.array(z.string()).optional() })
  .superRefine((r, ctx) => {
    const n = r.values?.length ?? 0;
    if ((r.operator === 'In' || r.operator === 'NotIn') && n === 0)
      ctx.addIssue({ code: 'custom', path: ['values'], message: `operator ${r.operator} needs values` });
    if ((r.operator === 'Exists' || r.operator === 'DoesNotExist') && n > 0)
      ctx.addIssue({ code: 'custom', path: ['values'], message: `operator ${r.operator} takes no values` });
  });
export const labelSelector = z.looseObject({
  matchLabels: z.record(z.string(), z.string()).optional(),
  matchExpressions: z.array(labelSelectorRequirement).optional(),
});
export type LabelSelector = z.infer<typeof labelSelector>;

export const NODE_SELECTOR_OPERATORS = [
  'In',
  'NotIn',
  'Exists',
  'DoesNotExist',
  'Gt',
  'Lt',
  'Gte',
  'Lte',
] as const;
export type NodeSelectorOperator = (typeof NODE_SELECTOR_OPERATORS)[number];
export const nodeSelectorRequirement = z
  .object({
    key: z.string().min(1),
    operator: z.enum(NODE_SELECTOR_OPERATORS),
    values: z.array(z.string()).optional(),
    minValues: z.number().int().min(1).max(50).optional(),
  })
  .superRefine((r, ctx) => {
    const n = r.values?.length ?? 0;
    if ((r.operator === 'Exists' || r.operator === 'DoesNotExist') && n > 0)
      ctx.addIssue({ code: 'custom', path: ['values'], message: `operator ${r.operator} takes no values` });
    if (['Gt', 'Lt', 'Gte', 'Lte'].includes(r.operator)) {
      if (n !== 1 || !/^-?\d+$/.test(r.values?.[0] ?? ''))
        ctx.addIssue({
          code: 'custom',
          path: ['values'],
          message: `operator ${r.operator} takes one integer value`,
        });
    }
    if (r.minValues !== undefined && r.operator === 'In' && n < r.minValues)
      ctx.addIssue({
        code: 'custom',
        path: ['minValues'],
        message: 'minValues is larger than the number of values',
      });
  });
export type NodeSelectorRequirement = z.infer<typeof nodeSelectorRequirement>;

export const nodeSelectorTerm = z.looseObject({
  matchExpressions: z.array(nodeSelectorRequirement).optional(),
  matchFields: z.array(nodeSelectorRequirement).optional(),
});
export type NodeSelectorTerm = z.infer<typeof nodeSelectorTerm>;

export const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;
export const taint = z.looseObject({
  key: z.string().min(1),
  value: z.string().optional(),
  effect: z.enum(TAINT_EFFECTS),
  timeAdded: z.string().optional(),
});
export type Taint = z.infer<typeof taint>;

export const toleration = z.looseObject({
  key: z.string().optional(),
  operator: z.enum(['Exists', 'Equal']).optional(),
  value: z.string().optional(),
  effect: z.union([z.enum(TAINT_EFFECTS), z.literal('')]).optional(),
  tolerationSeconds: z.number().int().optional(),
});
export type Toleration = z.infer<typeof toleration>;

/** Names an object the way errors and warnings show it: `Kind namespace/name`. */
export function objectRef(kind: string, meta: { name?: string; namespace?: string } | undefined): string {
  const name = meta?.name ?? '<unnamed>';
  return meta?.namespace ? `${kind} ${meta.namespace}/${name}` : `${kind} ${name}`;
}
