// The building blocks every node class field is read with: an object that refuses the keys kraftsman does not
// implement (never accepted and ignored: docs/node-classes.md#refused-fields), and the kubelet configuration both
// node classes carry (Karpenter v1.14's KubeletConfiguration: names, bounds and CEL rules as its CRD has them).
import { z } from 'zod';
import { parseDurationNs } from './duration.ts';
import { isQuantity } from './quantity.ts';

/** How a refused field is worded; zod-issues.ts writes `<path> is not implemented by kraftsman` for it. */
export const NOT_IMPLEMENTED = 'is not implemented by kraftsman';

/**
 * A loose object that adds one issue per key outside `shape` (path: the key), whatever else failed, so a field
 * kraftsman would silently drop is refused by name. Loose underneath so the inferred type stays as it was.
 */
export function implementedObject<S extends z.core.$ZodLooseShape>(shape: S) {
  return z.looseObject(shape).superRefine(
    (value, ctx) => {
      if (typeof value !== 'object' || value === null) return;
      for (const key of Object.keys(value))
        if (!Object.hasOwn(shape, key))
          ctx.addIssue({ code: 'custom', path: [key], message: NOT_IMPLEMENTED, params: { sentence: true } });
    },
    { when: () => true },
  );
}

/**
 * A string-keyed record whose keys `problem` judges, one issue per bad key at its path (zod's record-key errors
 * would say only "Invalid key in record").
 */
export function checkedRecord<V extends z.ZodType>(value: V, problem: (key: string) => string | undefined) {
  return z.record(z.string(), value).superRefine((rec, ctx) => {
    for (const key of Object.keys(rec)) {
      const message = problem(key);
      if (message) ctx.addIssue({ code: 'custom', path: [key], message });
    }
  });
}
const oneOfKeys =
  (keys: readonly string[], field: string) =>
  (key: string): string | undefined =>
    keys.includes(key) ? undefined : `valid keys for ${field} are ['${keys.join("','")}']`;

const RESERVED_KEYS = ['cpu', 'memory', 'ephemeral-storage', 'pid'] as const;
export const EVICTION_SIGNALS = [
  'memory.available',
  'nodefs.available',
  'nodefs.inodesFree',
  'imagefs.available',
  'imagefs.inodesFree',
  'pid.available',
] as const;

/** systemReserved / kubeReserved: Karpenter's keys, each a non-negative quantity. */
const reserved = (field: string) =>
  checkedRecord(
    z
      .string()
      .refine((v) => isQuantity(v), 'must be a resource quantity such as 100m or 1Gi')
      .refine((v) => !v.startsWith('-'), `${field} value cannot be a negative resource quantity`),
    oneOfKeys(RESERVED_KEYS, field),
  ).optional();

/** A percentage (`10%`) or a quantity (`500Mi`), as the kubelet reads an eviction threshold. */
const PERCENT = /^(\d{1,2}(\.\d{1,2})?|100(\.0{1,2})?)%$/;
const signals = (field: string) =>
  checkedRecord(
    z.string().refine((v) => PERCENT.test(v) || isQuantity(v), 'must be a percentage (10%) or a quantity'),
    oneOfKeys(EVICTION_SIGNALS, field),
  ).optional();

const percent = z.number().int().min(0).max(100).optional();

/**
 * Karpenter's KubeletConfiguration (EC2NodeClass spec.kubelet; the GCP provider's spec.kubeletConfiguration), with
 * its CEL rules: imageGCHigh > imageGCLow; evictionSoft and evictionSoftGracePeriod name the same signals.
 */
export const kubeletSchema = implementedObject({
  maxPods: z.number().int().min(0).optional(),
  podsPerCore: z.number().int().min(0).optional(),
  systemReserved: reserved('systemReserved'),
  kubeReserved: reserved('kubeReserved'),
  evictionHard: signals('evictionHard'),
  evictionSoft: signals('evictionSoft'),
  evictionSoftGracePeriod: checkedRecord(
    z.string().refine((v) => parseDurationNs(v) !== undefined, 'must be a duration such as 1m30s'),
    oneOfKeys(EVICTION_SIGNALS, 'evictionSoftGracePeriod'),
  ).optional(),
  evictionMaxPodGracePeriod: z.number().int().optional(),
  imageGCHighThresholdPercent: percent,
  imageGCLowThresholdPercent: percent,
  cpuCFSQuota: z.boolean().optional(),
  clusterDNS: z.array(z.union([z.ipv4(), z.ipv6()], { error: 'must be an IP address' })).optional(),
}).superRefine((k, ctx) => {
  const high = k.imageGCHighThresholdPercent;
  const low = k.imageGCLowThresholdPercent;
  if (high !== undefined && low !== undefined && high <= low)
    ctx.addIssue({
      code: 'custom',
      path: ['imageGCHighThresholdPercent'],
      message: 'imageGCHighThresholdPercent must be greater than imageGCLowThresholdPercent',
    });
  const soft = Object.keys(k.evictionSoft ?? {});
  const grace = Object.keys(k.evictionSoftGracePeriod ?? {});
  for (const s of soft.filter((x) => !grace.includes(x)))
    ctx.addIssue({
      code: 'custom',
      path: ['evictionSoft', s],
      message: 'evictionSoft OwnerKey does not have a matching evictionSoftGracePeriod',
    });
  for (const s of grace.filter((x) => !soft.includes(x)))
    ctx.addIssue({
      code: 'custom',
      path: ['evictionSoftGracePeriod', s],
      message: 'evictionSoftGracePeriod OwnerKey does not have a matching evictionSoft',
    });
});
export type KubeletConfiguration = z.infer<typeof kubeletSchema>;
