// Settings of the EC2 adapter (shared/adapters/aws-ec2), parsed once per cold start by the composition
// root; every bad key is reported at once (ConfigError).
import { z } from 'zod';
import { parseConfig } from './parse.ts';
import { retryPolicySchema } from './retry-policy.ts';

export const ec2ProviderConfigSchema = z.object({
  clusterName: z.string().min(1, 'clusterName is required'),
  region: z.string().min(1, 'region is required'),
  /** The AWS account of the deployment: an instance whose reservation names another owner is never terminated. */
  accountId: z
    .string()
    .regex(/^\d{12}$/, 'accountId must be 12 digits')
    .optional(),
  /** CreateFleet accepts at most 60 overrides (instance type × subnet). */
  maxOverrides: z.number().int().min(1).max(60).default(60),
  /** Region of the Price List Query API endpoint (it lives in a few regions only). */
  pricingRegion: z.string().default('us-east-1'),
  retry: retryPolicySchema,
  /**
   * The cluster's Kubernetes minor version (`1.33`): image aliases resolve through AWS's public SSM parameters,
   * which are per version (docs/mechanisms/images.md). Only a node class with an alias needs it.
   */
  kubernetesVersion: z
    .string()
    .regex(/^1\.\d+$/, 'kubernetesVersion must be a minor version such as 1.33')
    .optional(),
});
export type Ec2ProviderConfig = z.infer<typeof ec2ProviderConfigSchema>;

export function parseEc2ProviderConfig(input: unknown): Ec2ProviderConfig {
  return parseConfig(ec2ProviderConfigSchema, input, 'EC2 provider');
}
