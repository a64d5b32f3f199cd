// karpenter.sh/v1 NodePool with Karpenter v1.14's fields, defaults and validation rules.
import { z } from 'zod';
import { isCron } from './cron.ts';
import { isDuration, isNillableDuration } from './duration.ts';
import { HOSTNAME, NODEPOOL } from './labels.ts';
import { nodeSelectorRequirement, objectMeta, resourceList, taint } from './meta.ts';

export const nodeClassRef = z.looseObject({
  group: z.string().min(1),
  kind: z.string().min(1),
  name: z.string().min(1),
});
export type NodeClassRef = z.infer<typeof nodeClassRef>;

export const DISRUPTION_REASONS = ['Underutilized', 'Empty', 'Drifted'] as const;
export type DisruptionReason = (typeof DISRUPTION_REASONS)[number];

// The CRD's patterns: nodes is a count or 0–100%; a budget's schedule and duration come together.
export const budgetSchema = z
  .looseObject({
    nodes: z
      .string()
      .regex(/^((100|[0-9]{1,2})%|[0-9]+)$/, 'must be a node count or a percentage between 0% and 100%')
      .default('10%'),
    schedule: z.string().refine(isCron, 'invalid cron schedule').optional(),
    duration: z
      .string()
      .regex(/^((([0-9]+(h|m))|([0-9]+h[0-9]+m))(0s)?)$/, 'invalid duration (expected e.g. 8h, 30m, 1h30m)')
      .optional(),
    reasons: z.array(z.enum(DISRUPTION_REASONS)).optional(),
  })
  .superRefine((b, ctx) => {
    if ((b.schedule === undefined) !== (b.duration === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['schedule'], message: "'schedule' must be set with 'duration'" });
    }
  });
export type Budget = z.infer<typeof budgetSchema>;

const templateRequirement = nodeSelectorRequirement.superRefine((r, ctx) => {
  if (r.key === NODEPOOL || r.key === HOSTNAME) {
    ctx.addIssue({ code: 'custom', path: ['key'], message: `label "${r.key}" is restricted` });
  }
  if (r.operator === 'In' && (r.values?.length ?? 0) === 0) {
    ctx.addIssue({
      code: 'custom',
      path: ['values'],
      message: "requirements with operator 'In' must have a value",
    });
  }
});

export const nodePoolSchema = z.looseObject({
  apiVersion: z.literal('karpenter.sh/v1'),
  kind: z.literal('NodePool'),
  metadata: objectMeta,
  spec: z.looseObject({
    template: z.looseObject({
      metadata: z
        .looseObject({
          labels: z
            .record(z.string(), z.string())
            .refine((l) => !(NODEPOOL in l), `label "${NODEPOOL}" is restricted`)
            .optional(),
          annotations: z.record(z.string(), z.string()).optional(),
        })
        .optional(),
      spec: z.looseObject({
        nodeClassRef,
        taints: z.array(taint).optional(),
        startupTaints: z.array(taint).optional(),
        requirements: z.array(templateRequirement).max(100).default([]),
        expireAfter: z.string().refine(isNillableDuration, 'invalid duration or "Never"').default('720h'),
        terminationGracePeriod: z.string().refine(isDuration, 'invalid duration').optional(),
      }),
    }),
    disruption: z
      .looseObject({
        consolidateAfter: z.string().refine(isNillableDuration, 'invalid duration or "Never"').default('0s'),
        consolidationPolicy: z
          .enum(['WhenEmpty', 'WhenEmptyOrUnderutilized', 'Balanced'])
          .default('WhenEmptyOrUnderutilized'),
        budgets: z
          .array(budgetSchema)
          .max(50)
          .default([{ nodes: '10%' }]),
      })
      .default({
        consolidateAfter: '0s',
        consolidationPolicy: 'WhenEmptyOrUnderutilized',
        budgets: [{ nodes: '10%' }],
      }),
    limits: resourceList.optional(),
    weight: z.number().int().min(1).max(100).optional(),
  }),
});
export type NodePool = z.infer<typeof nodePoolSchema>;
