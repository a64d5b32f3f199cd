// Settings of the Compute Engine adapter (shared/adapters/gcp-compute), parsed once per cold start by the
// composition root; every bad key is reported at once (ConfigError).
import { z } from 'zod';
import { parseConfig } from './parse.ts';
import { retryPolicySchema } from './retry-policy.ts';

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
});
export type GceProviderConfig = z.infer<typeof gceProviderConfigSchema>;

export function parseGceProviderConfig(input: unknown): GceProviderConfig {
  return parseConfig(gceProviderConfigSchema, input, 'GCE provider');
}
