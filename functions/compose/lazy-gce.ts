// The Compute Engine provider of the functions that call it only when a GCP NodePool, claim or command exists
// (provision, consolidate, admit, census, orchestrate, lifecycle): the Google client (google-gax, grpc-js,
// protobufjs, @google-cloud/compute, about 1.7 MB) loads at the first call, from its own chunk
// (serverless.yml custom.esbuild splitting), not at cold start (docs/benchmarks.md, "bench:bundle").
import type { GceCloudProvider } from '../../shared/adapters/gcp-compute/provider.ts';
import type { PreemptionSource } from '../../shared/loop/lifecycle.ts';
import type { CloudProvider, DeploymentSource } from '../../shared/ports/cloud-provider/index.ts';
import type { Clock } from '../../shared/ports/clock.ts';
import type { Logger } from '../../shared/ports/logger.ts';
import { oncePerContainer } from './container.ts';
import { gceConfig, type GceSettings } from './gce-settings.ts';

/** What the functions call of the Compute Engine provider: the port, and lifecycle's preemption reads. */
/** Every method of the port, optional ones included (Required): a method the lazy provider forgot would silently be absent. */
export type LazyGceProvider = Required<CloudProvider> & PreemptionSource & { readonly cloud: 'gcp' };

/**
 * Settings are checked now (a bad zone or project fails the cold start, as before); the SDK is imported and its
 * clients built at the first method call, once per container (a failed import is retried at the next call).
 */
export function lazyGceProvider(
  settings: GceSettings,
  clock: Clock,
  logger: Logger,
  deployment?: DeploymentSource,
): LazyGceProvider {
  gceConfig(settings);
  const load = oncePerContainer(async (): Promise<GceCloudProvider> => {
    const { buildGceProvider } = await import('./gce.ts');
    return buildGceProvider(settings, clock, logger, undefined, undefined, undefined, deployment);
  });
  return {
    cloud: 'gcp',
    create: async (request) => (await load()).create(request),
    createGang: async (request) => (await load()).createGang(request),
    get: async (id) => (await load()).get(id),
    list: async () => (await load()).list(),
    delete: async (id, expect) => (await load()).delete(id, expect),
    instanceTypes: async (nodeClass, options) => (await load()).instanceTypes(nodeClass, options),
    isDrifted: async (claim, nodeClass) => (await load()).isDrifted(claim, nodeClass),
    interruptions: async (since) => (await load()).interruptions(since),
    // lifecycle's node-class status (docs/observability.md, "Node classes"): resolved from the spec, no call
    describeNodeClass: async (nodeClass) => (await load()).describeNodeClass(nodeClass),
  };
}
