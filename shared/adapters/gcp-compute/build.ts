// Builds the Compute Engine provider with its REST clients and the Cloud Billing price reader, authenticated
// by workload identity federation or by an injected auth client (the local emulator): the SDK wiring stays
// inside the adapter; functions/compose passes settings in.
import { CloudCatalogClient } from '@google-cloud/billing';
import type { AuthClient } from 'google-auth-library';
import type { GceProviderConfig } from '../../config/gcp-compute.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Logger } from '../../ports/logger.ts';
import { workloadIdentityClient } from './auth.ts';
import { billingPriceReader } from './billing.ts';
import { createComputeClients } from './clients.ts';
import { GceCloudProvider } from './provider.ts';

export interface GceBuild {
  readonly provider: GceCloudProvider;
  close(): Promise<void>;
}

export function buildGce(
  config: GceProviderConfig,
  clock: Clock,
  logger: Logger,
  auth: { credentials?: string; client?: AuthClient },
  endpoint?: { host: string; port: number },
): GceBuild {
  const authClient = auth.client ?? workloadIdentityClient(auth.credentials ?? '');
  const rest = endpoint ? { ...endpoint, protocol: 'http' as const } : undefined;
  const clients = createComputeClients(authClient, rest);
  const billing = new CloudCatalogClient({
    fallback: true,
    authClient,
    ...(rest ? { apiEndpoint: rest.host, port: rest.port, protocol: rest.protocol } : {}),
  } as unknown as ConstructorParameters<typeof CloudCatalogClient>[0]);
  const provider = new GceCloudProvider({
    clients,
    config,
    clock,
    logger,
    readPrices: billingPriceReader(billing),
  });
  return {
    provider,
    close: async () => {
      await clients.close();
      await billing.close();
    },
  };
}
