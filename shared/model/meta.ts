// Shared zod pieces for Kubernetes objects: metadata, quantities, selectors, taints, tolerations.
import { z } from 'zod';
import {
  dns1123LabelError,
  dns1123SubdomainError,
  labelValueError,
  qualifiedNameError,
  quoted,
} from './name-rules.ts';
import { isQuantity, parseQuantity } from './quantity.ts';
import { isTimestamp } from './timestamp.ts';

// abort: zod 4 runs later refinements after a failed one; nonNegativeQuantity would then throw.
export const quantity = z.union([z.string(), z.number()]).refine(isQuantity, {
  abort: true,
  message: 'invalid quantity (expected a Kubernetes quantity such as 500m, 2, 16Gi)',
});
export const nonNegativeQuantity = quantity.refine((q) => parseQuantity(q) >= 0n, {
  message: 'must be non-negative',
});
export const resourceList = z.record(z.string(), nonNegativeQuantity);

/** metav1.Time: RFC 3339 as Go's time.RFC3339 layout reads it (e.g. 2026-09-01T12:00:00Z). */
export const timestamp = z
  .string()
  .refine(isTimestamp, { message: 'invalid timestamp (expected RFC 3339, e.g. 2026-09-01T12:00:00Z)' });

/** A string checked by one of the name rules of names.ts; the message quotes the value (escaped). */
export function checkedString(check: (v: string) => string | undefined, allowEmpty = false): z.ZodString {
  return z.string().superRefine((v, ctx) => {
    const bad = v === '' && !allowEmpty ? 'is required' : check(v);
    if (bad) ctx.addIssue({ code: 'custom', message: v === '' ? bad : `${quoted(v)}: ${bad}` });
  });
}
export const labelValue = checkedString(labelValueError, true);
export const dnsSubdomainName = checkedString(dns1123SubdomainError);
export const dnsLabelName = checkedString(dns1123LabelError);
export const qualifiedName = checkedString(qualifiedNameError);

/** A string map whose keys (and values, when `value` is given) pass name rules; issues name the key. */
function checkedMap(key: (k: string) => string | undefined, value?: (v: string) => string | undefined) {
  return z.record(z.string(), z.string()).superRefine((map, ctx) => {
    for (const [k, v] of Object.entries(map)) {
      const badKey = k === '' ? 'name part must be non-empty' : key(k);
      if (badKey) ctx.addIssue({ code: 'custom', path: [k], message: `key ${quoted(k)}: ${badKey}` });
      const badValue = value?.(v);
      if (badValue) ctx.addIssue({ code: 'custom', path: [k], message: `${quoted(v)}: ${badValue}` });
    }
  });
}
/** ValidateLabels: qualified-name keys, label values. */
export const labelMap = checkedMap(qualifiedNameError, labelValueError);
/** The API server's limit on all annotations of one object together (TotalAnnotationSizeLimitB). */
export const MAX_ANNOTATIONS_BYTES = 256 * 1024;
/** ValidateAnnotations: keys are qualified names (compared lower-cased); 256 KiB in all. */
export const annotationMap = checkedMap((k) => qualifiedNameError(k.toLowerCase())).refine(
  (map) => Object.entries(map).reduce((n, [k, v]) => n + k.length + v.length, 0) <= MAX_ANNOTATIONS_BYTES,
  { message: `annotations may not exceed ${MAX_ANNOTATIONS_BYTES} bytes in all` },
);

export const ownerReference = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string(),
  name: z.string(),
  uid: z.string().optional(),
  controller: z.boolean().optional(),
});

const metaFields = {
  namespace: dnsLabelName.optional(),
  uid: z.string().optional(),
  resourceVersion: z.string().optional(),
  generation: z.number().int().optional(),
  labels: labelMap.optional(),
  annotations: annotationMap.optional(),
  creationTimestamp: timestamp.optional(),
  deletionTimestamp: timestamp.optional(),
  ownerReferences: z.array(ownerReference).optional(),
  finalizers: z.array(z.string()).optional(),
};
/** Metadata of an object whose name is a DNS-1123 subdomain (NameIsDNSSubdomain: most kinds). */
export const objectMeta = z.looseObject({ name: dnsSubdomainName, ...metaFields });
export type ObjectMeta = z.infer<typeof objectMeta>;
/** Metadata of an object whose name is a DNS-1123 label (a Namespace: NameIsDNSLabel). */
export const labelNamedMeta = z.looseObject({ name: dnsLabelName, ...metaFields });

export const SELECTOR_OPERATORS = ['In', 'NotIn', 'Exists', 'DoesNotExist'] as const;
export const labelSelectorRequirement = z
  .object({
    key: qualifiedName,
    operator: z.enum(SELECTOR_OPERATORS),
    values: z.array(labelValue).optional(),
  })
  .superRefine((r, ctx) => {
    const n = r.values?.length ?? 0;
    if ((r.operator === 'In' || r.operator === 'NotIn') && n === 0)
      ctx.addIssue({ code: 'custom', path: ['values'], message: `operator ${r.operator} needs values` });
    if ((r.operator === 'Exists' || r.operator === 'DoesNotExist') && n > 0)
      ctx.addIssue({ code: 'custom', path: ['values'], message: `operator ${r.operator} takes no values` });
  });
export const labelSelector = z.looseObject({
  matchLabels: labelMap.optional(),
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
/**
 * A pod's or PV's node selector requirement (ValidateNodeSelectorRequirement): the six core operators, values
 * for In/NotIn, none for Exists/DoesNotExist, one integer for Gt/Lt. Karpenter's own (NodePool, NodeClaim,
 * with Gte/Lte and minValues) is karpenterRequirement in nodepool.ts.
 */
export const nodeSelectorRequirement = z
  .object({
    key: qualifiedName,
    operator: z.enum(NODE_SELECTOR_OPERATORS),
    values: z.array(z.string()).optional(),
    minValues: z.number().int().min(1).max(50).optional(),
  })
  .superRefine((r, ctx) => {
    const n = r.values?.length ?? 0;
    const issue = (message: string): void => ctx.addIssue({ code: 'custom', path: ['values'], message });
    if (r.operator === 'Gte' || r.operator === 'Lte')
      ctx.addIssue({
        code: 'custom',
        path: ['operator'],
        message: `operator ${r.operator} is Karpenter's; a pod or volume may use In, NotIn, Exists, DoesNotExist, Gt, Lt`,
      });
    if ((r.operator === 'In' || r.operator === 'NotIn') && n === 0)
      issue(`must be specified when operator is ${r.operator}`);
    if ((r.operator === 'Exists' || r.operator === 'DoesNotExist') && n > 0)
      issue(`may not be specified when operator is ${r.operator}`);
    if (
      (r.operator === 'Gt' || r.operator === 'Lt') &&
      (n !== 1 || !/^-?\d{1,19}$/.test(r.values?.[0] ?? ''))
    )
      issue(`operator ${r.operator} takes one integer value`);
  });
export type NodeSelectorRequirement = z.infer<typeof nodeSelectorRequirement>;

export const nodeSelectorTerm = z.looseObject({
  matchExpressions: z.array(nodeSelectorRequirement).optional(),
  matchFields: z.array(nodeSelectorRequirement).optional(),
});
export type NodeSelectorTerm = z.infer<typeof nodeSelectorTerm>;

export const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;
/** A Node's taint (validateNodeTaints): a qualified-name key, a label-value value, a known effect. */
export const taint = z.looseObject({
  key: qualifiedName,
  value: labelValue.optional(),
  effect: z.enum(TAINT_EFFECTS),
  timeAdded: timestamp.optional(),
});
export type Taint = z.infer<typeof taint>;

/** validateTolerations: a key needs no operator but an empty key needs Exists; Exists takes no value. */
export const toleration = z
  .looseObject({
    key: z.string().optional(),
    operator: z.enum(['Exists', 'Equal', '']).optional(),
    value: z.string().optional(),
    effect: z.union([z.enum(TAINT_EFFECTS), z.literal('')]).optional(),
    tolerationSeconds: z.number().int().optional(),
  })
  .superRefine((t, ctx) => {
    const issue = (path: string, message: string): void =>
      ctx.addIssue({ code: 'custom', path: [path], message });
    const badKey = t.key ? qualifiedNameError(t.key) : undefined;
    if (badKey) issue('key', `${quoted(t.key ?? '')}: ${badKey}`);
    if (!t.key && t.operator !== 'Exists')
      issue('operator', 'must be Exists when key is empty (which means "match all values and all keys")');
    if (t.operator === 'Exists' && t.value) issue('value', 'must be empty when operator is Exists');
    const badValue = t.operator !== 'Exists' && t.value ? labelValueError(t.value) : undefined;
    if (badValue) issue('value', `${quoted(t.value ?? '')}: ${badValue}`);
    if (t.tolerationSeconds !== undefined && t.effect !== 'NoExecute')
      issue('effect', 'must be NoExecute when tolerationSeconds is set');
  });
export type Toleration = z.infer<typeof toleration>;

// a name that is not printable ASCII (or is longer than any valid one) is shown quoted, escaped and cut short,
// so no control character reaches a terminal
const shown = (text: string): string =>
  text !== '' && text.length <= 253 && /^[\x21-\x7e]*$/.test(text) ? text : quoted(text);

/** Names an object the way errors and warnings show it: `Kind namespace/name`. */
export function objectRef(
  kind: string,
  meta: { name?: string | undefined; namespace?: string | undefined } | undefined,
): string {
  const name = typeof meta?.name === 'string' ? shown(meta.name) : '<unnamed>';
  const k = shown(kind);
  return typeof meta?.namespace === 'string' ? `${k} ${shown(meta.namespace)}/${name}` : `${k} ${name}`;
}
