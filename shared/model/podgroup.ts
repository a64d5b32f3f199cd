// Volcano PodGroup (scheduling.volcano.sh/v1beta1): the gang whose members are placed all or nothing.
import { z } from 'zod';
import { checkGangAnnotations } from './gang-annotations.ts';
import { objectMeta, resourceList } from './meta.ts';

export const podGroupSchema = z
  .looseObject({
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
  })
  // A misspelt opt-out or placement must not silently keep (or drop) the gang rule (docs/mechanisms/gangs.md).
  .superRefine(checkGangAnnotations);
export type PodGroup = z.infer<typeof podGroupSchema>;
