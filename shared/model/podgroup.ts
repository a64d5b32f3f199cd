// Volcano PodGroup (scheduling.volcano.sh/v1beta1): the gang whose members are placed all or nothing.
import { z } from 'zod';
import { objectMeta, resourceList } from './meta.ts';

export const podGroupSchema = z.looseObject({
  apiVersion: z.literal('scheduling.volcano.sh/v1beta1'),
  kind: z.literal('PodGroup'),
  metadata: objectMeta,
  spec: z.looseObject({
    minMember: z.number().int().min(0).default(1),
    minResources: resourceList.optional(),
    queue: z.string().optional(),
    priorityClassName: z.string().optional(),
  }),
  status: z.looseObject({ phase: z.string().optional() }).optional(),
});
export type PodGroup = z.infer<typeof podGroupSchema>;
