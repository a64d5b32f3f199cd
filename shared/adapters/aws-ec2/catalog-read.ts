// One region of an AWS account as catalog instance types (`kraftsman catalog --cloud aws`, docs/catalog.md):
// shapes from DescribeInstanceTypes (paged), zones from DescribeInstanceTypeOfferings, on-demand prices from the
// Price List API and spot from DescribeSpotPriceHistory (the pricing function's reads, price-source.ts), each
// type shaped as the provider shapes a live read (instance-types.ts). Offerings with no price are left out.
import { DescribeInstanceTypesCommand, type EC2Client, type InstanceTypeInfo } from '@aws-sdk/client-ec2';
import type { PricingClient } from '@aws-sdk/client-pricing';
import type { Ec2ProviderConfig } from '../../config/aws-ec2.ts';
import type { InstanceTypeSpec } from '../../model/catalog.ts';
import type { Clock } from '../../ports/clock.ts';
import type { PriceRow } from '../../ports/price-store.ts';
import { realSleep } from '../backoff.ts';
import { toInstanceTypeSpec } from './instance-types.ts';
import { allPages } from './pages.ts';
import { Ec2PriceSource } from './price-source.ts';
import { withThrottleRetry } from './retry.ts';

export interface Ec2CatalogDeps {
  readonly ec2: EC2Client;
  readonly pricing: PricingClient;
  readonly config: Ec2ProviderConfig;
  readonly clock: Clock;
}

export async function readEc2Catalog(deps: Ec2CatalogDeps): Promise<InstanceTypeSpec[]> {
  const call = <T>(_what: string, op: () => Promise<T>): Promise<T> =>
    withThrottleRetry(op, deps.config.retry, realSleep);
  const infos: InstanceTypeInfo[] = await allPages(
    call,
    'DescribeInstanceTypes',
    (NextToken) => deps.ec2.send(new DescribeInstanceTypesCommand({ NextToken, MaxResults: 100 })),
    (p) => p.InstanceTypes,
  );
  const rows = await new Ec2PriceSource(deps).prices();
  const zones = new Map<string, Set<string>>();
  const price = new Map<string, number>();
  for (const r of rows) {
    zones.set(r.instanceType, (zones.get(r.instanceType) ?? new Set()).add(r.zone));
    price.set(key(r.instanceType, r.zone, r.capacityType), r.price);
  }
  const prices = {
    onDemand: (t: string, z: string) => price.get(key(t, z, 'on-demand')),
    spot: (t: string, z: string) => price.get(key(t, z, 'spot')),
  };
  const resolved = { imageId: '', subnets: [], securityGroupIds: [], reservations: [] };
  return infos
    .flatMap((info) => {
      const typeZones = [...(zones.get(String(info.InstanceType)) ?? [])].sort();
      return toInstanceTypeSpec({ info, zones: typeZones, resolved, prices }) ?? [];
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

const key = (type: string, zone: string, ct: PriceRow['capacityType']): string => `${type}|${zone}|${ct}`;
