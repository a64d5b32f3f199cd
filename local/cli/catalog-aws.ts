// `kraftsman catalog --cloud aws`: the EC2 and Price List clients as the SDK configures them from the environment
// (credentials chain, AWS_ENDPOINT_URL_EC2 / AWS_ENDPOINT_URL_PRICING), then the adapter's catalog read.
import { EC2Client } from '@aws-sdk/client-ec2';
import { PricingClient } from '@aws-sdk/client-pricing';
import { readEc2Catalog } from '../../shared/adapters/aws-ec2/catalog-read.ts';
import { parseEc2ProviderConfig } from '../../shared/config/aws-ec2.ts';
import type { InstanceTypeSpec } from '../../shared/model/catalog.ts';

export async function readAwsCatalog(region: string, now: Date): Promise<InstanceTypeSpec[]> {
  const config = parseEc2ProviderConfig({ clusterName: 'kraftsman-catalog', region });
  // The SDK retries nothing here: the adapter retries throttling itself (withThrottleRetry).
  const settings = { maxAttempts: 1, requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 } };
  const ec2 = new EC2Client({ region, ...settings });
  const pricing = new PricingClient({ region: config.pricingRegion, ...settings });
  try {
    return await readEc2Catalog({ ec2, pricing, config, clock: { now: () => now } });
  } finally {
    ec2.destroy();
    pricing.destroy();
  }
}
