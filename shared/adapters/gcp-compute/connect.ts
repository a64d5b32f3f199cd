// The Compute Engine and Cloud Billing clients both GCE builds need (the provider and the price source), made
// from one auth client: workload identity federation, or an injected client (the local emulator).
import { CloudCatalogClient } from '@google-cloud/billing';
import type { AuthClient } from 'google-auth-library';
import { workloadIdentityClient } from './auth.ts';
import { createComputeClients, type ComputeClients } from './clients.ts';

export interface GceAuth {
  /** The workload identity federation configuration (JSON), used when no `client` is given. */
  readonly credentials?: string;
  readonly client?: AuthClient;
}

export interface GceConnection {
  readonly compute: ComputeClients;
  readonly billing: CloudCatalogClient;
  close(): Promise<void>;
}

/** `endpoint` is the emulator on 127.0.0.1 (plain HTTP); production uses the default API endpoints. */
export function connectGce(auth: GceAuth, endpoint?: { host: string; port: number }): GceConnection {
  const authClient = auth.client ?? workloadIdentityClient(auth.credentials ?? '');
  const rest = endpoint ? { ...endpoint, protocol: 'http' as const } : undefined;
  const compute = createComputeClients(authClient, rest);
  const billing = new CloudCatalogClient({
    fallback: true,
    authClient,
    ...(rest ? { apiEndpoint: rest.host, port: rest.port, protocol: rest.protocol } : {}),
  } as unknown as ConstructorParameters<typeof CloudCatalogClient>[0]);
  return {
    compute,
    billing,
    close: async () => {
      await compute.close();
      await billing.close();
    },
  };
}
