// Volcano PodGroup (scheduling.volcano.sh/v1beta1): the gang whose members are placed all or nothing.
import { z } from 'zod';
import { GANG_DISRUPTION, GANG_DISRUPTION_VALUES } from './labels.ts';
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
  .superRefine((g, ctx) => {
    // A misspelt opt-out must not silently keep (or drop) the gang rule (docs/mechanisms/gangs.md).
    const v = g.metadata.annotations?.[GANG_DISRUPTION];
    if (v !== undefined && !(GANG_DISRUPTION_VALUES as readonly string[]).includes(v))
      ctx.addIssue({
        code: 'custom',
        path: ['metadata', 'annotations', GANG_DISRUPTION],
        message: `"${v}": expected one of ${GANG_DISRUPTION_VALUES.join(', ')}`,
      });
  });
export type PodGroup = z.infer<typeof podGroupSchema>;
