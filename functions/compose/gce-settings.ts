// The Compute Engine provider's settings and their parse into the adapter's config: no Google SDK here, so a
// function can check its settings at cold start and load the client later (lazy-gce.ts).
import type { buildGce } from '../../shared/adapters/gcp-compute/build.ts';
import { parseGceProviderConfig, type GceProviderConfig } from '../../shared/config/gcp-compute.ts';

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

export type AuthClient = NonNullable<Parameters<typeof buildGce>[3]['client']>;

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
