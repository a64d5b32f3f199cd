// Builds the pricing function's price sources: EC2 (EC2 + Pricing clients) and, when configured, Compute
// Engine (Compute REST + Cloud Billing clients), each once per container with the adapters' own retries.
import { createEc2Clients } from '../../shared/adapters/aws-ec2/clients.ts';
import { Ec2PriceSource } from '../../shared/adapters/aws-ec2/price-source.ts';
import { buildGcePriceSource } from '../../shared/adapters/gcp-compute/build-prices.ts';
import { parseEc2ProviderConfig } from '../../shared/config/aws-ec2.ts';
import { parseGceProviderConfig } from '../../shared/config/gcp-compute.ts';
import type { Clock } from '../../shared/ports/clock.ts';
import type { PriceSource } from '../../shared/ports/price-store.ts';
import type { Ec2Settings } from './ec2.ts';
import type { GceSettings } from './gce.ts';
import type { Closer, Credentials } from './local.ts';

export function buildEc2PriceSource(
  settings: Ec2Settings,
  clock: Clock,
  credentials?: Credentials,
  closer?: Closer,
): PriceSource {
  const config = parseEc2ProviderConfig({
    clusterName: settings.clusterName,
    region: settings.region,
    ...(settings.retry ? { retry: settings.retry } : {}),
  });
  const local = settings.endpoint && credentials ? { endpoint: settings.endpoint, credentials } : undefined;
  const { ec2, pricing, destroy } = createEc2Clients(config, local);
  closer?.add(destroy);
  return new Ec2PriceSource({ ec2, pricing, config, clock });
}

export function buildGcePriceSourceFrom(
  settings: GceSettings,
  authClient?: Parameters<typeof buildGcePriceSource>[1]['client'],
  closer?: Closer,
): PriceSource {
  const config = parseGceProviderConfig({
    clusterName: settings.clusterName,
    project: settings.project,
    region: settings.region,
    zones: [...settings.zones],
    ...(settings.retry ? { retry: settings.retry } : {}),
  });
  const auth = authClient
    ? { client: authClient }
    : settings.credentials
      ? { credentials: settings.credentials }
      : {};
  const built = buildGcePriceSource(config, auth, settings.endpoint);
  closer?.add(() => built.close());
  return built.source;
}
