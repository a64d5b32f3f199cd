// karpenter.sh/v1 NodePool with Karpenter v1.14's fields, defaults and validation rules.
import { z } from 'zod';
import { CronError, parseCron } from './cron.ts';
import { isCrdBudgetDuration, isCrdDuration, isCrdNillableDuration } from './duration.ts';
import { CAPACITY_TYPE, HOSTNAME, NODEPOOL } from './labels.ts';
import { labelValue, objectMeta, resourceList } from './meta.ts';
import { labelValueError, quoted } from './name-rules.ts';

// The patterns and CEL rules of Karpenter v1.14's CRDs (pkg/apis/crds/karpenter.sh_nodepools.yaml,
// karpenter.sh_nodeclaims.yaml): what the API server refuses before Karpenter ever sees the object.
const CRD_LABEL_KEY =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*(\/))?([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const CRD_LABEL_KEY_MAX = 316;
const crdKey = z.string().refine((k) => k.length <= CRD_LABEL_KEY_MAX && CRD_LABEL_KEY.test(k), {
  message: 'must be a label key: an optional DNS subdomain and "/", then a name (at most 316 characters)',
});

/** The CEL rules on label keys: the karpenter.sh domain is Karpenter's own, and the hostname is per node. */
function restrictedKeyIssue(key: string, nodePool: boolean): string | undefined {
  const domain = key.includes('/') ? (key.split('/')[0] as string) : key;
  if (![CAPACITY_TYPE, NODEPOOL].includes(key) && domain.endsWith('karpenter.sh'))
    return 'label domain "karpenter.sh" is restricted';
  if (nodePool && key === NODEPOOL) return `label "${NODEPOOL}" is restricted`;
  if (key === HOSTNAME) return `label "${HOSTNAME}" is restricted`;
  return undefined;
}

/** CEL `int(x.values[0]) >= 0`: a decimal int64 (optional sign) that is not negative. */
function nonNegativeInt64(text: string): boolean {
  if (!/^[+-]?[0-9]{1,19}$/.test(text)) return false;
  const n = BigInt(text);
  return n >= 0n && n < 1n << 63n;
}

/** A NodePool's or NodeClaim's requirement (NodeSelectorRequirementWithMinValues and its CEL rules). */
export function karpenterRequirement(nodePool: boolean) {
  return z
    .object({
      key: crdKey,
      operator: z.enum(['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt', 'Gte', 'Lte']),
      values: z.array(labelValue).optional(),
      minValues: z.number().int().min(1).max(50).optional(),
    })
    .superRefine((r, ctx) => {
      const issue = (path: string, message: string): void =>
        ctx.addIssue({ code: 'custom', path: [path], message });
      const n = r.values?.length ?? 0;
      const restricted = restrictedKeyIssue(r.key, nodePool);
      if (restricted) issue('key', restricted);
      if (r.operator === 'In' && n === 0)
        issue('values', "requirements with operator 'In' must have a value defined");
      if ((r.operator === 'Exists' || r.operator === 'DoesNotExist') && n > 0)
        issue('values', `operator ${r.operator} takes no values`);
      if (
        ['Gt', 'Lt', 'Gte', 'Lte'].includes(r.operator) &&
        (n !== 1 || !nonNegativeInt64(r.values?.[0] ?? ''))
      )
        issue(
          'values',
          "requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' must have a single positive integer value",
        );
      if (r.minValues !== undefined && r.operator === 'In' && n < r.minValues)
        issue(
          'minValues',
          "requirements with 'minValues' must have at least that many values specified in the 'values' field",
        );
    });
}

/** A NodePool's or NodeClaim's taint: the CRD gives key and value the label-key pattern. */
export const crdTaint = z.looseObject({
  key: crdKey,
  value: crdKey.optional(),
  effect: z.enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute']),
  timeAdded: z.string().optional(),
});

const noSlash = (what: string) =>
  z
    .string()
    .min(1, `${what} may not be empty`)
    .regex(/^[^/]*$/, `${what} may not contain "/"`);

export const nodeClassRef = z.looseObject({
  group: noSlash('group'),
  kind: noSlash('kind'),
  name: noSlash('name'),
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
    schedule: z
      .string()
      .superRefine((text, ctx) => {
        try {
          parseCron(text);
        } catch (e) {
          if (!(e instanceof CronError)) throw e;
          ctx.addIssue({ code: 'custom', message: `invalid cron schedule ${quoted(text)}: ${e.message}` });
        }
      })
      .optional(),
    duration: z
      .string()
      .refine(
        isCrdBudgetDuration,
        'invalid duration (expected whole hours and minutes such as 8h, 30m, 1h30m, at most 2562047h)',
      )
      .optional(),
    reasons: z.array(z.enum(DISRUPTION_REASONS)).optional(),
  })
  .superRefine((b, ctx) => {
    if ((b.schedule === undefined) !== (b.duration === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['schedule'], message: "'schedule' must be set with 'duration'" });
    }
  });
export type Budget = z.infer<typeof budgetSchema>;

const NILLABLE_DURATION =
  'must be whole seconds, minutes or hours such as 720h or 1h30m (at most 2562047h), or "Never"';

/** template.metadata.labels: at most 100, label values, and the restricted keys of the CEL rules. */
const templateLabels = z
  .record(z.string(), z.string())
  .refine((l) => Object.keys(l).length <= 100, 'at most 100 labels')
  .superRefine((labels, ctx) => {
    for (const [k, v] of Object.entries(labels)) {
      const badValue = labelValueError(v);
      const bad = restrictedKeyIssue(k, true) ?? (badValue ? `${quoted(v)}: ${badValue}` : undefined);
      if (bad) ctx.addIssue({ code: 'custom', path: [k], message: bad });
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
          labels: templateLabels.optional(),
          annotations: z.record(z.string(), z.string()).optional(),
        })
        .optional(),
      spec: z.looseObject({
        nodeClassRef,
        taints: z.array(crdTaint).optional(),
        startupTaints: z.array(crdTaint).optional(),
        requirements: z.array(karpenterRequirement(true)).max(100).default([]),
        expireAfter: z.string().refine(isCrdNillableDuration, NILLABLE_DURATION).default('720h'),
        terminationGracePeriod: z
          .string()
          .refine(isCrdDuration, 'must be whole seconds, minutes or hours such as 48h (at most 2562047h)')
          .optional(),
      }),
    }),
    disruption: z
      .looseObject({
        consolidateAfter: z.string().refine(isCrdNillableDuration, NILLABLE_DURATION).default('0s'),
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
