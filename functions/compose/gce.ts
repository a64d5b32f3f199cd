// Builds the Compute Engine CloudProvider: REST clients once per container, authenticated by workload
// identity federation (no key files), or by an injected auth client against the local emulator. No billing
// client: that is the pricing function's (price-sources.ts). launch-gcp builds it at cold start; every other function
// through lazy-gce.ts, at its first Compute Engine call.
import { buildGce } from '../../shared/adapters/gcp-compute/build.ts';
import type { GceCloudProvider } from '../../shared/adapters/gcp-compute/provider.ts';
import type { DeploymentSource } from '../../shared/ports/cloud-provider/index.ts';
import type { Clock } from '../../shared/ports/clock.ts';
import type { Logger } from '../../shared/ports/logger.ts';
import { gceAuth, gceConfig, type AuthClient, type GceSettings } from './gce-settings.ts';
import type { Closer } from './local.ts';

export { gceAuth, gceConfig, type GceSettings };

/**
 * It calls no price API: a pass or a launcher hands it the stored price book (instance-types.ts,
 * launch-handler.ts). `prices` prices an instance-type read that brings none (tests: liveGcePrices).
 * `deployment` (functions/compose/deployment.ts) is what launches are labelled with and deletes are checked against.
 */
export function buildGceProvider(
  settings: GceSettings,
  clock: Clock,
  logger: Logger,
  authClient?: AuthClient,
  closer?: Closer,
  prices?: Parameters<typeof buildGce>[5],
  deployment?: DeploymentSource,
): GceCloudProvider {
  const built = buildGce(
    gceConfig(settings),
    clock,
    logger,
    gceAuth(settings, authClient),
    settings.endpoint,
    prices,
    deployment,
  );
  closer?.add(() => built.close());
  return built.provider;
}
