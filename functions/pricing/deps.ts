// The pricing function's dependencies, built once per container: config from process.env, the price sources
// of both clouds (EC2 + Price List, Compute Engine + Cloud Billing), the price store, logs and metrics.
import { pricingConfig, type PricingConfig } from '../../shared/config/pricing.ts';
import type { PricingDeps } from '../../shared/loop/pricing.ts';
// Direct imports, not the compose/index.ts barrel: a dynamic import anywhere in the import graph (lazy-gce.ts) puts
// its chunk in this function's zip.
import { oncePerContainer } from '../compose/container.ts';
import type { InvocationObservability } from '../compose/invocation.ts';
import { buildObservability } from '../compose/observability.ts';
import { buildPriceStore } from '../compose/price-store.ts';
import { buildTime } from '../compose/time.ts';
import { buildEc2PriceSource, buildGcePriceSourceFrom } from '../compose/price-sources.ts';

export interface PricingHandlerDeps {
  readonly loop: PricingDeps;
  readonly settings: Pick<PricingConfig, 'clusterName'>;
  readonly obs: InvocationObservability;
}

export function buildPricingDeps(env: Readonly<Record<string, string | undefined>>): PricingHandlerDeps {
  const config = pricingConfig(env);
  const time = buildTime();
  const obs = buildObservability(config.observability);
  return {
    loop: {
      sources: [
        buildEc2PriceSource(config.ec2, time.clock),
        ...(config.gce ? [buildGcePriceSourceFrom(config.gce)] : []),
      ],
      store: buildPriceStore(config.store),
      clock: time.clock,
      logger: obs.logger,
      metrics: obs.metrics,
    },
    settings: config,
    obs,
  };
}

export const pricingDeps = oncePerContainer(() => buildPricingDeps(process.env));
