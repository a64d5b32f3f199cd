// Builds the Compute Engine CloudProvider: REST clients once per container, authenticated by workload
// identity federation (no key files), or by an injected auth client against the local emulator. No billing
// client: that is the pricing function's (price-sources.ts).
import { buildGce } from '../../shared/adapters/gcp-compute/build.ts';
import type { GceCloudProvider } from '../../shared/adapters/gcp-compute/provider.ts';
import { parseGceProviderConfig, type GceProviderConfig } from '../../shared/config/gcp-compute.ts';
import type { DeploymentSource } from '../../shared/ports/cloud-provider/index.ts';
import type { Clock } from '../../shared/ports/clock.ts';
import type { Logger } from '../../shared/ports/logger.ts';
import type { Closer } from './local.ts';

export interface GceSettings {
  readonly clusterName: string;
  readonly project: string;
  readonly region: string;
  readonly zones: readonly string[];
  /** The external_account JSON of the workload identity pool (ignored when an auth client is injected). */
  readonly credentials?: string;
  /** host:port of a local endpoint (the Compute Engine emulator), spoken over plain http. */
  readonly endpoint?: { readonly host: string; readonly port: number };
  readonly operationTimeoutMs?: number;
  readonly retry?: { attempts: number; baseDelayMs: number; maxDelayMs: number };
  /** The Resource Manager tag bound to every launch (KRAFTSMAN_GCP_TAG_KEY / _VALUE). */
  readonly deploymentTag?: { readonly key: string; readonly value: string };
}

type AuthClient = NonNullable<Parameters<typeof buildGce>[3]['client']>;

/** The adapter's config from the settings (the provider and the price source parse it alike). */
export function gceConfig(settings: GceSettings): GceProviderConfig {
  return parseGceProviderConfig({
    clusterName: settings.clusterName,
    project: settings.project,
    region: settings.region,
    zones: [...settings.zones],
    ...(settings.operationTimeoutMs ? { operationTimeoutMs: settings.operationTimeoutMs } : {}),
    ...(settings.retry ? { retry: settings.retry } : {}),
    ...(settings.deploymentTag ? { deploymentTag: { ...settings.deploymentTag } } : {}),
  });
}

/** An injected auth client (the local emulator) wins; else the workload identity credentials; else none. */
export function gceAuth(
  settings: GceSettings,
  authClient?: AuthClient,
): { credentials?: string; client?: AuthClient } {
  if (authClient) return { client: authClient };
  return settings.credentials ? { credentials: settings.credentials } : {};
}

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
