// The EC2 and Pricing SDK clients, built once per container with explicit retry settings: the SDK
// does not retry (maxAttempts 1) because the adapter retries throttling itself with its own backoff.
import { EC2Client } from '@aws-sdk/client-ec2';
import { PricingClient } from '@aws-sdk/client-pricing';
import type { Ec2ProviderConfig } from '../../config/aws-ec2.ts';

export interface Ec2Clients {
  readonly ec2: EC2Client;
  readonly pricing: PricingClient;
  destroy(): void;
}

/** `local` is for tests (the emulator on 127.0.0.1, dummy credentials); Lambda uses its role. */
export function createEc2Clients(
  config: Ec2ProviderConfig,
  local?: { endpoint: string; credentials: { accessKeyId: string; secretAccessKey: string } },
): Ec2Clients {
  const shared = {
    maxAttempts: 1,
    // CreateFleet instant can take tens of seconds; without throwOnRequestTimeout this smithy version only
    // logs a warning when a request outlives requestTimeout and waits for ever.
    requestHandler: { requestTimeout: 60_000, connectionTimeout: 5_000, throwOnRequestTimeout: true },
    ...(local ? { endpoint: local.endpoint, credentials: local.credentials } : {}),
  };
  const ec2 = new EC2Client({ region: config.region, ...shared });
  const pricing = new PricingClient({ region: config.pricingRegion, ...shared });
  return {
    ec2,
    pricing,
    destroy: () => {
      ec2.destroy();
      pricing.destroy();
    },
  };
}
