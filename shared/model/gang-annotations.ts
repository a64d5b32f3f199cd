// The gang annotations kraftsman reads on a Volcano PodGroup, a Workload or a Workload API PodGroup
// (docs/mechanisms/gangs.md): a misspelt value is an input error naming the annotation, never silently ignored.
import type { z } from 'zod';
import { GANG_DISRUPTION, GANG_DISRUPTION_VALUES, GANG_PLACEMENT, GANG_PLACEMENT_VALUES } from './labels.ts';

const ANNOTATIONS: readonly (readonly [string, readonly string[]])[] = [
  [GANG_DISRUPTION, GANG_DISRUPTION_VALUES],
  [GANG_PLACEMENT, GANG_PLACEMENT_VALUES],
];

/** A superRefine of a gang object: each kraftsman gang annotation present holds one of its values. */
export function checkGangAnnotations(
  g: { metadata: { annotations?: Record<string, string> | undefined } },
  ctx: z.RefinementCtx,
): void {
  for (const [key, values] of ANNOTATIONS) {
    const v = g.metadata.annotations?.[key];
    if (v !== undefined && !values.includes(v))
      ctx.addIssue({
        code: 'custom',
        path: ['metadata', 'annotations', key],
        message: `"${v}": expected one of ${values.join(', ')}`,
      });
  }
}
