// Compute Engine's current prices for the pricing function: the machine and accelerator types of every
// configured zone (machineTypes.list, acceleratorTypes.list) priced from the Cloud Billing catalog's SKUs
// (listSkus), on-demand and Spot, per type and zone.
import type { CloudCatalogClient } from '@google-cloud/billing';
import type { GceProviderConfig } from '../../config/gcp-compute.ts';
import { PriceReadError, type PriceRow, type PriceSource } from '../../ports/price-store.ts';
import { realSleep, type Sleep } from '../backoff.ts';
import { COMPUTE_ENGINE_SERVICE, billingPriceBook, skuPrices } from './billing.ts';
import type { ComputeClients } from './clients.ts';
import { shapesOf } from './machine-types.ts';
import { withThrottleRetry } from './retry.ts';

export interface GcePriceSourceDeps {
  readonly clients: Pick<ComputeClients, 'machineTypes' | 'acceleratorTypes'>;
  readonly billing: CloudCatalogClient;
  readonly config: GceProviderConfig;
  readonly sleep?: Sleep;
}

type ZoneTypes = Parameters<typeof shapesOf>[0] extends ReadonlyMap<string, infer V> ? V : never;

export class GcePriceSource implements PriceSource {
  readonly cloud = 'gcp' as const;
  constructor(private readonly deps: GcePriceSourceDeps) {}

  async prices(): Promise<PriceRow[]> {
    const { project, zones } = this.deps.config;
    const byZone = new Map<string, ZoneTypes>();
    for (const zone of zones) {
      const [machineTypes] = await this.call('machineTypes.list', () =>
        this.deps.clients.machineTypes.list({ project, zone }),
      );
      const [accelerators] = await this.call('acceleratorTypes.list', () =>
        this.deps.clients.acceleratorTypes.list({ project, zone }),
      );
      byZone.set(zone, { machineTypes, accelerators });
    }
    const [skus] = await this.call('cloudbilling.services.skus.list', () =>
      this.deps.billing.listSkus({ parent: COMPUTE_ENGINE_SERVICE, currencyCode: 'USD' }),
    );
    const shapes = shapesOf(byZone);
    const book = billingPriceBook(skuPrices(skus), shapes);
    const rows: PriceRow[] = [];
    for (const s of shapes)
      for (const zone of s.zones) {
        const od = book.onDemand(s.name, zone);
        if (od !== undefined)
          rows.push({ cloud: 'gcp', instanceType: s.name, zone, capacityType: 'on-demand', price: od });
        const sp = book.spot(s.name, zone);
        if (sp !== undefined)
          rows.push({ cloud: 'gcp', instanceType: s.name, zone, capacityType: 'spot', price: sp });
      }
    return rows;
  }

  private async call<T>(what: string, op: () => Promise<T>): Promise<T> {
    try {
      return await withThrottleRetry(op, this.deps.config.retry, this.deps.sleep ?? realSleep);
    } catch (cause: unknown) {
      throw new PriceReadError('gcp', what, { cause });
    }
  }
}
