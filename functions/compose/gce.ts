// Builds the Compute Engine CloudProvider: REST clients once per container, authenticated by workload
// identity federation (no key files), or by an injected auth client against the local emulator.
import { CloudCatalogClient } from '@google-cloud/billing';
import type { AuthClient } from 'google-auth-library';
import { workloadIdentityClient } from '../../shared/adapters/gcp-compute/auth.ts';
import { billingPriceReader } from '../../shared/adapters/gcp-compute/billing.ts';
import { createComputeClients } from '../../shared/adapters/gcp-compute/clients.ts';
import { parseGceProviderConfig } from '../../shared/config/gcp-compute.ts';
import { GceCloudProvider } from '../../shared/adapters/gcp-compute/provider.ts';
import { builtinCatalog } from '../../shared/catalog/builtin.ts';
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
}

export function buildGceProvider(
  settings: GceSettings,
  clock: Clock,
  logger: Logger,
  authClient?: AuthClient,
  closer?: Closer,
): GceCloudProvider {
  const auth = authClient ?? workloadIdentityClient(settings.credentials ?? '');
  const endpoint = settings.endpoint ? { ...settings.endpoint, protocol: 'http' as const } : undefined;
  const clients = createComputeClients(auth, endpoint);
  const billing = new CloudCatalogClient({
    fallback: true,
    authClient: auth,
    ...(endpoint ? { apiEndpoint: endpoint.host, port: endpoint.port, protocol: endpoint.protocol } : {}),
  } as unknown as ConstructorParameters<typeof CloudCatalogClient>[0]);
  closer?.add(async () => {
    await clients.close();
    await billing.close();
  });
  const config = parseGceProviderConfig({
    clusterName: settings.clusterName,
    project: settings.project,
    region: settings.region,
    zones: [...settings.zones],
    ...(settings.operationTimeoutMs ? { operationTimeoutMs: settings.operationTimeoutMs } : {}),
    ...(settings.retry ? { retry: settings.retry } : {}),
  });
  return new GceCloudProvider({
    clients,
    config,
    clock,
    logger,
    fallbackCatalog: builtinCatalog(),
    readPrices: billingPriceReader(billing),
  });
}
