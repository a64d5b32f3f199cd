// Instance types as every pass reads them: each cloud's provider read through the InstanceTypeCache, priced
// from the stored price book (shared/loop/prices.ts) instead of the price APIs; a new book (or a switch to
// the catalog) drops the cache, so the next pass prices with it without waiting out the cache's TTL.
import type { InstanceTypeSpec } from '../model/catalog.ts';
import type { Cloud } from '../model/labels.ts';
import type { NodeClass } from '../model/nodeclass.ts';
import type { Clock } from '../ports/clock.ts';
import type { InstanceTypeReadOptions } from '../ports/price-store.ts';
import type { InstanceType } from '../scheduling/instance-type.ts';
import type { ClusterObjects } from '../state/objects.ts';
import { InstanceTypeCache, type InstanceTypeSource } from './instance-types.ts';
import { poolInstanceTypes, poolSpecs } from './pool-instance-types.ts';
import type { StoredPrices } from './prices.ts';

/** A cloud provider's instance-type read, which can take its prices from outside. */
export interface PricedProvider {
  instanceTypes(
    nodeClass: NodeClass,
    options?: InstanceTypeReadOptions,
  ): Promise<readonly InstanceTypeSpec[]>;
}
export type PricedProviders = Readonly<Partial<Record<Cloud, PricedProvider>>>;

export class PricedInstanceTypes {
  private readonly sources: Partial<Record<Cloud, InstanceTypeSource>> = {};
  private cache: InstanceTypeCache | undefined;
  private version: string | undefined;
  constructor(
    providers: PricedProviders,
    private readonly prices: StoredPrices,
    private readonly clock: Clock,
    private readonly ttlMs: number,
  ) {
    for (const [cloud, p] of Object.entries(providers) as [Cloud, PricedProvider][])
      this.sources[cloud] = {
        instanceTypes: (nc) => p.instanceTypes(nc, { prices: () => prices.lookup(cloud) }),
      };
  }

  /** Undefined when this function has no provider for the node class's cloud. */
  async get(cloud: Cloud, nodeClass: NodeClass): Promise<readonly InstanceTypeSpec[] | undefined> {
    const version = await this.prices.version();
    if (!this.cache || version !== this.version) {
      this.cache = new InstanceTypeCache(this.sources, this.clock, this.ttlMs);
      this.version = version;
    }
    return this.cache.get(cloud, nodeClass);
  }

  /** The instance types of every NodePool's node class, merged: what a disruption pass replaces with. */
  readonly forPools = (objects: ClusterObjects): Promise<InstanceType[]> => poolInstanceTypes(this, objects);
  /** The same, as the specs they are built from: what a discovery worker rebuilds them from. */
  readonly specsForPools = (objects: ClusterObjects): Promise<InstanceTypeSpec[]> => poolSpecs(this, objects);
}
