// Settings of the Compute Engine adapter (shared/adapters/gcp-compute), parsed once per cold start by the
// composition root; every bad key is reported at once (ConfigError).
import { z } from 'zod';
import { parseConfig } from './parse.ts';
import { retryPolicySchema } from './retry-policy.ts';

/** Compute Engine takes a bound tag as ids: `tagKeys/{id}` → `tagValues/{id}` (InstanceParams.resourceManagerTags). */
export const TAG_KEY = /^tagKeys\/\d+$/;
export const TAG_VALUE = /^tagValues\/\d+$/;

export const gceProviderConfigSchema = z.object({
  clusterName: z.string().min(1, 'clusterName is required'),
  project: z.string().min(1, 'project is required'),
  region: z.string().min(1, 'region is required'),
  zones: z.array(z.string().min(1)).min(1, 'at least one zone is required'),
  /** How long one launch may wait for its zonal operation before giving up as retryable. */
  operationTimeoutMs: z.number().int().min(1).default(240_000),
  /** Offerings one launch tries before reporting insufficient capacity (each try is an insert + wait). */
  maxLaunchAttempts: z.number().int().min(1).default(8),
  retry: retryPolicySchema,
  /**
   * The Resource Manager tag bound to every instance this deployment creates (`params.resourceManagerTags`), so
   * that an IAM condition (`resource.matchTagId`) can confine deletes to them (docs/deploy.md, "Confining deletes").
   */
  deploymentTag: z
    .object({
      key: z.string().regex(TAG_KEY, 'must be a tag key id, tagKeys/<number>'),
      value: z.string().regex(TAG_VALUE, 'must be a tag value id, tagValues/<number>'),
    })
    .optional(),
});
export type GceProviderConfig = z.infer<typeof gceProviderConfigSchema>;

export function parseGceProviderConfig(input: unknown): GceProviderConfig {
  return parseConfig(gceProviderConfigSchema, input, 'GCE provider');
}
