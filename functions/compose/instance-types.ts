// The one builder of instance types for every pass (provision, consolidate, admit, census): the clouds'
// providers, the per-container InstanceTypeCache and the stored price book over the catalog, built together.
import {
  PricedInstanceTypes,
  type PricedProvider,
  type PricedProviders,
} from '../../shared/loop/priced-instance-types.ts';
import { StoredPrices, type StoredPricesDeps } from '../../shared/loop/prices.ts';
import { withCloudProviderMetrics } from '../../shared/observability/index.ts';
import type { Clock } from '../../shared/ports/clock.ts';
import type { Logger } from '../../shared/ports/logger.ts';
import type { Metrics } from '../../shared/ports/metrics.ts';
import type { PriceStore } from '../../shared/ports/price-store.ts';
import { buildEc2Provider, type Ec2Settings } from './ec2.ts';
import type { GceSettings } from './gce-settings.ts';
import { lazyGceProvider } from './lazy-gce.ts';
import { buildPriceStore } from './price-store.ts';
import type { StateStoreSettings } from './state-store.ts';

export interface InstanceTypesArgs {
  readonly clusterName: string;
  /** Each cloud this function reads instance types from (built by buildEc2Provider / lazyGceProvider). */
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

/** What every pass function's config carries for its instance types (provision, consolidate, admit, census). */
export interface PassTypesConfig {
  readonly clusterName: string;
  readonly ec2: Ec2Settings;
  readonly gce?: GceSettings | undefined;
  readonly store: StateStoreSettings;
  readonly instanceTypesTtlMs: number;
}

/** How the parts are built: the deployed SDK clients by default; a local fleet points them at its servers. */
export interface PassTypesParts {
  ec2(settings: Ec2Settings): PricedProvider;
  gce(settings: GceSettings): PricedProvider;
  prices(settings: StateStoreSettings): PriceStore;
}

/** A pass function's instance types from its config, as its deps.ts builds them once per container. */
export function passInstanceTypes(
  config: PassTypesConfig,
  clock: Clock,
  obs: { readonly metrics: Metrics; readonly logger: Logger; readonly service?: string },
  parts: PassTypesParts = {
    ec2: (s) => buildEc2Provider(s, clock, obs.logger),
    // The Google client loads at the first GCP read (lazy-gce.ts): an AWS-only pass never loads it.
    gce: (s) => lazyGceProvider(s, clock, obs.logger),
    prices: (s) => buildPriceStore(s),
  },
): PricedInstanceTypes {
  const instrument = (p: PricedProvider, cloud: 'aws' | 'gcp') =>
    withCloudProviderMetrics(p, obs.metrics, clock, obs.service ?? 'unknown', cloud);
  return buildInstanceTypes({
    clusterName: config.clusterName,
    providers: {
      aws: instrument(parts.ec2(config.ec2), 'aws'),
      ...(config.gce ? { gcp: instrument(parts.gce(config.gce), 'gcp') } : {}),
    },
    prices: parts.prices(config.store),
    ttlMs: config.instanceTypesTtlMs,
    clock,
    metrics: obs.metrics,
    logger: obs.logger,
  });
}
