// Builds the Compute Engine price source with its REST clients (machine and accelerator types) and the Cloud
// Billing catalog client, authenticated as buildGce is: workload identity federation, or an injected client.
import { CloudCatalogClient } from '@google-cloud/billing';
import type { AuthClient } from 'google-auth-library';
import type { GceProviderConfig } from '../../config/gcp-compute.ts';
import { workloadIdentityClient } from './auth.ts';
import { createComputeClients } from './clients.ts';
import { GcePriceSource } from './price-source.ts';

export function buildGcePriceSource(
  config: GceProviderConfig,
  auth: { credentials?: string; client?: AuthClient },
  endpoint?: { host: string; port: number },
): { readonly source: GcePriceSource; close(): Promise<void> } {
  const authClient = auth.client ?? workloadIdentityClient(auth.credentials ?? '');
  const rest = endpoint ? { ...endpoint, protocol: 'http' as const } : undefined;
  const clients = createComputeClients(authClient, rest);
  const billing = new CloudCatalogClient({
    fallback: true,
    authClient,
    ...(rest ? { apiEndpoint: rest.host, port: rest.port, protocol: rest.protocol } : {}),
  } as unknown as ConstructorParameters<typeof CloudCatalogClient>[0]);
  return {
    source: new GcePriceSource({ clients, billing, config }),
    close: async () => {
      await clients.close();
      await billing.close();
    },
  };
}
