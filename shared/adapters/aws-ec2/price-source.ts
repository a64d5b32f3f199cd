// EC2's current prices for the pricing function: the zones each type is offered in
// (DescribeInstanceTypeOfferings), on-demand $/h per type from the Price List API (GetProducts, regional, so
// every offered zone gets it) and the latest spot $/h per type and zone (DescribeSpotPriceHistory).
import {
  DescribeInstanceTypeOfferingsCommand,
  type DescribeInstanceTypeOfferingsCommandOutput,
  type EC2Client,
} from '@aws-sdk/client-ec2';
import type { PricingClient } from '@aws-sdk/client-pricing';
import type { Ec2ProviderConfig } from '../../config/aws-ec2.ts';
import type { Clock } from '../../ports/clock.ts';
import { PriceReadError, type PriceRow, type PriceSource } from '../../ports/price-store.ts';
import { realSleep, type Sleep } from '../backoff.ts';
import { readOnDemandPrices, readSpotPrices } from './pricing.ts';
import { withThrottleRetry } from './retry.ts';

export interface Ec2PriceSourceDeps {
  readonly ec2: EC2Client;
  readonly pricing: PricingClient;
  readonly config: Ec2ProviderConfig;
  readonly clock: Clock;
  readonly sleep?: Sleep;
}

export class Ec2PriceSource implements PriceSource {
  readonly cloud = 'aws' as const;
  constructor(private readonly deps: Ec2PriceSourceDeps) {}

  async prices(): Promise<PriceRow[]> {
    const zones = await this.call('DescribeInstanceTypeOfferings', () => this.offeredZones());
    const types = [...zones.keys()].sort();
    const onDemand = await this.call('GetProducts', () =>
      readOnDemandPrices(this.deps.pricing, this.deps.config.region),
    );
    const spot = await this.call('DescribeSpotPriceHistory', () =>
      readSpotPrices(this.deps.ec2, types, this.deps.clock.now()),
    );
    const rows: PriceRow[] = [];
    for (const type of types)
      for (const zone of zones.get(type) ?? []) {
        const od = onDemand.get(type);
        if (od !== undefined)
          rows.push({ cloud: 'aws', instanceType: type, zone, capacityType: 'on-demand', price: od });
        const sp = spot.get(`${type}|${zone}`);
        if (sp !== undefined)
          rows.push({ cloud: 'aws', instanceType: type, zone, capacityType: 'spot', price: sp });
      }
    return rows;
  }

  private async offeredZones(): Promise<Map<string, string[]>> {
    const zones = new Map<string, string[]>();
    let token: string | undefined;
    do {
      const page: DescribeInstanceTypeOfferingsCommandOutput = await this.deps.ec2.send(
        new DescribeInstanceTypeOfferingsCommand({ LocationType: 'availability-zone', NextToken: token }),
      );
      for (const o of page.InstanceTypeOfferings ?? []) {
        if (!o.InstanceType || !o.Location) continue;
        zones.set(o.InstanceType, [...(zones.get(o.InstanceType) ?? []), o.Location]);
      }
      token = page.NextToken || undefined;
    } while (token);
    return zones;
  }

  private async call<T>(what: string, op: () => Promise<T>): Promise<T> {
    try {
      return await withThrottleRetry(op, this.deps.config.retry, this.deps.sleep ?? realSleep);
    } catch (cause: unknown) {
      throw new PriceReadError('aws', what, { cause });
    }
  }
}
