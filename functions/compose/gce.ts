// Builds the Compute Engine CloudProvider: REST clients once per container, authenticated by workload
// identity federation (no key files), or by an injected auth client against the local emulator.
import { buildGce } from '../../shared/adapters/gcp-compute/build.ts';
import type { GceCloudProvider } from '../../shared/adapters/gcp-compute/provider.ts';
import { parseGceProviderConfig } from '../../shared/config/gcp-compute.ts';
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
  authClient?: Parameters<typeof buildGce>[3]['client'],
  closer?: Closer,
): GceCloudProvider {
  const config = parseGceProviderConfig({
    clusterName: settings.clusterName,
    project: settings.project,
    region: settings.region,
    zones: [...settings.zones],
    ...(settings.operationTimeoutMs ? { operationTimeoutMs: settings.operationTimeoutMs } : {}),
    ...(settings.retry ? { retry: settings.retry } : {}),
  });
  const auth = authClient
    ? { client: authClient }
    : settings.credentials
      ? { credentials: settings.credentials }
      : {};
  const built = buildGce(config, clock, logger, auth, settings.endpoint);
  closer?.add(() => built.close());
  return built.provider;
}
