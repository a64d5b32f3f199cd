// The EC2 SDK client, built once per container with explicit retry settings: the SDK does not retry
// (maxAttempts 1) because the adapter retries throttling itself with its own backoff. The Price List client,
// which only the pricing function needs, is built beside its reader (pricing.ts); IAM's, for instance profiles, here.
import { EC2Client } from '@aws-sdk/client-ec2';
import { IAMClient } from '@aws-sdk/client-iam';
import { SSMClient } from '@aws-sdk/client-ssm';
import type { Ec2ProviderConfig } from '../../config/aws-ec2.ts';

/** For tests: the emulator on 127.0.0.1 with dummy credentials; Lambda uses its role. */
export interface LocalEndpoint {
  readonly endpoint: string;
  readonly credentials: { accessKeyId: string; secretAccessKey: string };
}

/** What every AWS client of this adapter is built with. */
export const SDK_CLIENT_SETTINGS = {
  maxAttempts: 1,
  // CreateFleet instant can take tens of seconds; without throwOnRequestTimeout this smithy version only
  // logs a warning when a request outlives requestTimeout and waits for ever.
  requestHandler: { requestTimeout: 60_000, connectionTimeout: 5_000, throwOnRequestTimeout: true },
} as const;

export function createEc2Client(config: Ec2ProviderConfig, local?: LocalEndpoint): EC2Client {
  return new EC2Client({ region: config.region, ...SDK_CLIENT_SETTINGS, ...(local ?? {}) });
}

/** IAM (global endpoint), for the instance profiles of node classes with a `role` (instance-profiles.ts). */
export function createIamClient(config: Ec2ProviderConfig, local?: LocalEndpoint): IAMClient {
  return new IAMClient({ region: config.region, ...SDK_CLIENT_SETTINGS, ...(local ?? {}) });
}

/** SSM (the region's), for image aliases: AWS's public parameters (images.ts). */
export function createSsmClient(config: Ec2ProviderConfig, local?: LocalEndpoint): SSMClient {
  return new SSMClient({ region: config.region, ...SDK_CLIENT_SETTINGS, ...(local ?? {}) });
}
