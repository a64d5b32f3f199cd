// Builds the pricing function's price sources: EC2 (EC2 + Pricing clients) and, when configured, Compute
// Engine (Compute REST + Cloud Billing clients), each once per container with the adapters' own retries;
// the clients and configs are the providers' own (ec2.ts, gce.ts).
import { Ec2PriceSource } from '../../shared/adapters/aws-ec2/price-source.ts';
import { buildGcePriceSource } from '../../shared/adapters/gcp-compute/build-prices.ts';
import type { Clock } from '../../shared/ports/clock.ts';
import type { PriceSource } from '../../shared/ports/price-store.ts';
import { ec2Clients, type Ec2Settings } from './ec2.ts';
import { gceAuth, gceConfig, type GceSettings } from './gce.ts';
import type { Closer, Credentials } from './local.ts';

export function buildEc2PriceSource(
  settings: Ec2Settings,
  clock: Clock,
  credentials?: Credentials,
  closer?: Closer,
): PriceSource {
  return new Ec2PriceSource({ ...ec2Clients(settings, credentials, closer), clock });
}

export function buildGcePriceSourceFrom(
  settings: GceSettings,
  authClient?: Parameters<typeof buildGcePriceSource>[1]['client'],
  closer?: Closer,
): PriceSource {
  const built = buildGcePriceSource(gceConfig(settings), gceAuth(settings, authClient), settings.endpoint);
  closer?.add(() => built.close());
  return built.source;
}
