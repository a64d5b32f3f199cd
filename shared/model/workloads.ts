// DaemonSet (apps/v1) and PodDisruptionBudget (policy/v1).
import { z } from 'zod';
import { labelSelector, objectMeta } from './meta.ts';
import { podSchema } from './pod.ts';

const podTemplate = z.looseObject({
  metadata: objectMeta.partial().optional(),
  spec: podSchema.shape.spec,
});

export const daemonSetSchema = z.looseObject({
  apiVersion: z.literal('apps/v1'),
  kind: z.literal('DaemonSet'),
  metadata: objectMeta,
  spec: z.looseObject({ selector: labelSelector.optional(), template: podTemplate }),
});
export type DaemonSet = z.infer<typeof daemonSetSchema>;

const intOrPercent = z.union([
  z.number().int().min(0),
  z.string().regex(/^(\d+%|\d+)$/, 'must be an integer or a percentage such as 50%'),
]);

export const pdbSchema = z
  .looseObject({
    apiVersion: z.literal('policy/v1'),
    kind: z.literal('PodDisruptionBudget'),
    metadata: objectMeta,
    spec: z.looseObject({
      selector: labelSelector.optional(),
      minAvailable: intOrPercent.optional(),
      maxUnavailable: intOrPercent.optional(),
      unhealthyPodEvictionPolicy: z.enum(['IfHealthyBudget', 'AlwaysAllow']).optional(),
    }),
    status: z
      .looseObject({
        disruptionsAllowed: z.number().int().min(0).optional(),
        currentHealthy: z.number().int().optional(),
        desiredHealthy: z.number().int().optional(),
        expectedPods: z.number().int().optional(),
      })
      .optional(),
  })
  .superRefine((pdb, ctx) => {
    if (pdb.spec.minAvailable !== undefined && pdb.spec.maxUnavailable !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['spec', 'maxUnavailable'],
        message: 'minAvailable and maxUnavailable cannot both be set',
      });
    }
  });
export type PodDisruptionBudget = z.infer<typeof pdbSchema>;
