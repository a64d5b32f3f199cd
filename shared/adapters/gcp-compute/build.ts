// Builds the Compute Engine provider with its REST clients and the Cloud Billing price reader, authenticated
// by workload identity federation or by an injected auth client (the local emulator): the SDK wiring stays
// inside the adapter; functions/compose passes settings in.
import type { GceProviderConfig } from '../../config/gcp-compute.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Logger } from '../../ports/logger.ts';
import { billingPriceReader } from './billing.ts';
import { connectGce, type GceAuth } from './connect.ts';
import { GceCloudProvider } from './provider.ts';

export interface GceBuild {
  readonly provider: GceCloudProvider;
  close(): Promise<void>;
}

export function buildGce(
  config: GceProviderConfig,
  clock: Clock,
  logger: Logger,
  auth: GceAuth,
  endpoint?: { host: string; port: number },
): GceBuild {
  const gce = connectGce(auth, endpoint);
  const provider = new GceCloudProvider({
    clients: gce.compute,
    config,
    clock,
    logger,
    readPrices: billingPriceReader(gce.billing),
  });
  return { provider, close: () => gce.close() };
}
