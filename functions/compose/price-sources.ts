// Builds the pricing function's price sources: EC2 (EC2 + Pricing clients) and, when configured, Compute
// Engine (Compute REST + Cloud Billing clients), each once per container with the adapters' own retries;
// the clients and configs are the providers' own (ec2.ts, gce.ts).
import { Ec2PriceSource } from '../../shared/adapters/aws-ec2/price-source.ts';
import { createPricingClient } from '../../shared/adapters/aws-ec2/pricing.ts';
import {
  buildBillingPriceReader,
  buildGcePriceSource,
} from '../../shared/adapters/gcp-compute/build-prices.ts';
import type { Clock } from '../../shared/ports/clock.ts';
import { rowsLookup } from '../../shared/loop/prices.ts';
import type { PriceLookup, PriceSource } from '../../shared/ports/price-store.ts';
import { ec2Clients, ec2Config, type Ec2Settings } from './ec2.ts';
import { gceAuth, gceConfig, type GceSettings } from './gce.ts';
import type { Closer, Credentials } from './local.ts';

export function buildEc2PriceSource(
  settings: Ec2Settings,
  clock: Clock,
  credentials?: Credentials,
  closer?: Closer,
): PriceSource {
  const { local } = ec2Config(settings, credentials);
  const { ec2, config } = ec2Clients(settings, credentials, closer);
  const pricing = createPricingClient(config, local);
  closer?.add(() => pricing.destroy());
  return new Ec2PriceSource({ ec2, pricing, config, clock });
}

/**
 * Prices read afresh from EC2's price APIs on every call, as a lookup: for tests and local tools that build a
 * provider on its own, without a stored book (no deployed function uses it: they read the book).
 */
export function liveEc2Prices(
  settings: Ec2Settings,
  clock: Clock,
  credentials?: Credentials,
  closer?: Closer,
): () => Promise<PriceLookup> {
  const source = buildEc2PriceSource(settings, clock, credentials, closer);
  return async () => rowsLookup(await source.prices(), 'aws');
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

/**
 * The billing catalog read afresh on every instance-type read, as a Compute Engine provider's own prices: for
 * tests and local tools that build a provider without a stored book (no deployed function uses it).
 */
export function liveGcePrices(
  settings: GceSettings,
  authClient?: Parameters<typeof buildGcePriceSource>[1]['client'],
  closer?: Closer,
): ReturnType<typeof buildBillingPriceReader>['read'] {
  const built = buildBillingPriceReader(gceAuth(settings, authClient), settings.endpoint);
  closer?.add(() => built.close());
  return built.read;
}
