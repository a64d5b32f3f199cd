// The Cloud Billing catalog client, made for the pricing function's price source only (build-prices.ts): it is
// the one importer of @google-cloud/billing, so no other function's bundle carries it (npm run bench:bundle).
import { CloudCatalogClient } from '@google-cloud/billing';
import type { AuthClient } from 'google-auth-library';
import type { RestEndpoint } from './connect.ts';

export function createCatalogClient(authClient: AuthClient, rest?: RestEndpoint): CloudCatalogClient {
  return new CloudCatalogClient({
    fallback: true,
    authClient,
    ...(rest ? { apiEndpoint: rest.host, port: rest.port, protocol: rest.protocol } : {}),
  } as unknown as ConstructorParameters<typeof CloudCatalogClient>[0]);
}
