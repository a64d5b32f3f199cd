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

// ValidatePositiveIntOrPercent + IsNotMoreThan100Percent: a non-negative integer, or a string `N%` with N ≤ 100
const intOrPercent = z.union([z.number(), z.string()]).superRefine((v, ctx) => {
  const issue = (message: string): void => ctx.addIssue({ code: 'custom', message });
  if (typeof v === 'number') {
    if (!Number.isInteger(v) || v < 0) issue('must be a non-negative integer');
  } else if (!/^[0-9]{1,10}%$/.test(v)) issue('must be an integer or a percentage such as 50%');
  else if (Number(v.slice(0, -1)) > 100) issue('must not be greater than 100%');
});

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
