// The Compute Engine clients both GCE builds need (the provider and the price source), made from one auth
// client: workload identity federation, or an injected client (the local emulator). The Cloud Billing client is
// the price source's alone (billing-client.ts): no other function bundles @google-cloud/billing.
import type { AuthClient } from 'google-auth-library';
import { workloadIdentityClient } from './auth.ts';
import { createComputeClients, type ComputeClients } from './clients.ts';

export interface GceAuth {
  /** The workload identity federation configuration (JSON), used when no `client` is given. */
  readonly credentials?: string;
  readonly client?: AuthClient;
}

/** Where the REST clients send: the emulator on 127.0.0.1 over plain HTTP, or Google's default endpoints. */
export type RestEndpoint = { host: string; port: number; protocol: 'http' };

export interface GceConnection {
  readonly compute: ComputeClients;
  /** The auth client the Compute clients use, for another client of the same caller (billing-client.ts). */
  readonly authClient: AuthClient;
  readonly rest?: RestEndpoint;
  close(): Promise<void>;
}

/** The injected client, else the workload identity federation client of the credentials (no network). */
export function authClientOf(auth: GceAuth): AuthClient {
  return auth.client ?? workloadIdentityClient(auth.credentials ?? '');
}

export function restEndpoint(endpoint?: { host: string; port: number }): RestEndpoint | undefined {
  return endpoint ? { ...endpoint, protocol: 'http' as const } : undefined;
}

/** `endpoint` is the emulator on 127.0.0.1 (plain HTTP); production uses the default API endpoints. */
export function connectGce(auth: GceAuth, endpoint?: { host: string; port: number }): GceConnection {
  const authClient = authClientOf(auth);
  const rest = restEndpoint(endpoint);
  const compute = createComputeClients(authClient, rest);
  return { compute, authClient, ...(rest ? { rest } : {}), close: () => compute.close() };
}
