// The one handler of launch-aws and launch-gcp (they differ only in their deps.ts): validates the async
// invoke payload, checks it is for this cluster, runs the launch use case and returns its counts.
import { withCloudProviderMetrics } from '../../shared/observability/index.ts';
import type { CloudProvider } from '../../shared/ports/cloud-provider/index.ts';
import { StoredPrices } from '../../shared/loop/prices.ts';
import { launch, type LaunchCounts, type LaunchDeps, type LaunchSettings } from '../../shared/loop/launch.ts';
import { launchRequestSchema } from '../../shared/loop/launch-request.ts';
import { InvalidEventError, parseEvent } from './events.ts';
import { composeDeps, type FunctionBase, type FunctionConfig } from './function-deps.ts';
import { invocation, parseContext, type InvocationObservability } from './invocation.ts';
import { buildPriceStore } from './price-store.ts';

export interface LaunchHandlerDeps {
  readonly loop: LaunchDeps;
  readonly settings: LaunchSettings & { readonly clusterName: string };
  readonly obs: InvocationObservability;
}

export function createLaunchHandler(name: string, deps: () => Promise<LaunchHandlerDeps>) {
  return async (event: unknown, context: unknown): Promise<LaunchCounts> => {
    const request = parseEvent(launchRequestSchema, event, `${name} payload`);
    const ctx = parseContext(context);
    const d = await deps();
    if (request.fence.cluster !== d.settings.clusterName)
      throw new InvalidEventError(
        `${name} payload: fence.cluster: ${request.fence.cluster} is not this function's cluster ${d.settings.clusterName}`,
      );
    const keys = {
      requestId: ctx.awsRequestId,
      claims: request.claims.join(','),
      ...(request.gang ? { gang: request.gang } : {}),
    };
    return invocation(d.obs, keys, () => launch(d.loop, d.settings, request));
  };
}

/**
 * The deps of a launch function: the shared base, its one cloud's provider (its role may call no other) and
 * the stored price book over the built-in catalog, read as every pass reads it (docs/functions/pricing.md).
 */
export function composeLaunchDeps(
  config: FunctionConfig & LaunchHandlerDeps['settings'],
  provider: (base: FunctionBase) => CloudProvider,
): LaunchHandlerDeps {
  return composeDeps(config, (base) => {
    const cloud = withCloudProviderMetrics(
      provider(base),
      base.obs.metrics,
      base.time.clock,
      base.obs.service,
    );
    const prices = new StoredPrices({
      store: buildPriceStore(config.store),
      clusterName: config.clusterName,
      clock: base.time.clock,
      metrics: base.obs.metrics,
      logger: base.obs.logger,
    });
    return {
      cluster: base.cluster,
      store: base.store,
      provider: cloud,
      clock: base.time.clock,
      logger: base.obs.logger,
      metrics: base.obs.metrics,
      prices: () => prices.lookup(cloud.cloud),
    };
  });
}
