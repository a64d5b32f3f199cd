// Builds the Compute Engine provider with its REST clients, authenticated by workload identity federation or by
// an injected auth client (the local emulator): the SDK wiring stays inside the adapter; functions/compose
// passes settings in. It reads no prices: every function hands its instance-type reads the stored book
// (docs/functions/pricing.md); `readPrices` is for tests and local tools that price without one.
import type { GceProviderConfig } from '../../config/gcp-compute.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Logger } from '../../ports/logger.ts';
import type { DeploymentSource } from '../../ports/cloud-provider/index.ts';
import { connectGce, type GceAuth } from './connect.ts';
import { GceCloudProvider, type GceProviderDeps } from './provider.ts';

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
  readPrices?: GceProviderDeps['readPrices'],
  deployment?: DeploymentSource,
): GceBuild {
  const gce = connectGce(auth, endpoint);
  const provider = new GceCloudProvider({
    clients: gce.compute,
    config,
    clock,
    logger,
    ...(readPrices ? { readPrices } : {}),
    ...(deployment ? { deployment } : {}),
  });
  return { provider, close: () => gce.close() };
}
