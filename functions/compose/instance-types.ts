// The one builder of instance types for every pass (provision, consolidate, admit, census): the clouds'
// providers, the per-container InstanceTypeCache and the stored price book over the catalog, built together.
import { PricedInstanceTypes, type PricedProviders } from '../../shared/loop/priced-instance-types.ts';
import { StoredPrices, type StoredPricesDeps } from '../../shared/loop/prices.ts';
import type { Clock } from '../../shared/ports/clock.ts';
import type { Logger } from '../../shared/ports/logger.ts';
import type { Metrics } from '../../shared/ports/metrics.ts';
import type { PriceStore } from '../../shared/ports/price-store.ts';

export interface InstanceTypesArgs {
  readonly clusterName: string;
  /** Each cloud this function reads instance types from (built by buildEc2Provider / buildGceProvider). */
  readonly providers: PricedProviders;
  readonly prices: PriceStore;
  /** How long a warm container reuses a node class's instance types (KRAFTSMAN_INSTANCE_TYPES_TTL). */
  readonly ttlMs: number;
  readonly clock: Clock;
  readonly metrics: Metrics;
  readonly logger?: Logger;
  /** The prices of last resort; the built-in catalog unless a test names another. */
  readonly catalog?: StoredPricesDeps['catalog'];
}

/**
 * `get(cloud, nodeClass)` for provision, `forPools(objects)` for the disruption passes. Census calls it the
 * same way: `buildInstanceTypes({ ..., providers: { aws, gcp } }).forPools`.
 */
export function buildInstanceTypes(args: InstanceTypesArgs): PricedInstanceTypes {
  const prices = new StoredPrices({
    store: args.prices,
    clusterName: args.clusterName,
    ...(args.catalog ? { catalog: args.catalog } : {}),
    clock: args.clock,
    metrics: args.metrics,
    ...(args.logger ? { logger: args.logger } : {}),
  });
  return new PricedInstanceTypes(args.providers, prices, args.clock, args.ttlMs);
}
