// EC2's price APIs, read only by the pricing function's price source (price-source.ts): on-demand from the
// Price List Query API (GetProducts), spot from DescribeSpotPriceHistory. The CloudProvider never imports this
// file, so no other function's bundle carries the Pricing client or its role the two actions (infra/iam/calls.yml).
import { DescribeSpotPriceHistoryCommand, type EC2Client, type _InstanceType } from '@aws-sdk/client-ec2';
import { GetProductsCommand, PricingClient } from '@aws-sdk/client-pricing';
import { z } from 'zod';
import type { Ec2ProviderConfig } from '../../config/aws-ec2.ts';
import { SDK_CLIENT_SETTINGS, type LocalEndpoint } from './clients.ts';

/** The Price List client, in the region of its endpoint; retries are the price source's (maxAttempts 1). */
export function createPricingClient(config: Ec2ProviderConfig, local?: LocalEndpoint): PricingClient {
  return new PricingClient({ region: config.pricingRegion, ...SDK_CLIENT_SETTINGS, ...(local ?? {}) });
}

const priceListItem = z.object({
  product: z.object({ attributes: z.object({ instanceType: z.string() }).loose() }).loose(),
  terms: z
    .object({
      OnDemand: z.record(
        z.string(),
        z
          .object({
            priceDimensions: z.record(
              z.string(),
              z.object({ pricePerUnit: z.object({ USD: z.string() }).loose() }).loose(),
            ),
          })
          .loose(),
      ),
    })
    .loose(),
});

/** On-demand Linux/shared-tenancy prices of the region by instance type (the filters Karpenter uses). */
export async function readOnDemandPrices(
  pricing: PricingClient,
  region: string,
): Promise<Map<string, number>> {
  const prices = new Map<string, number>();
  const filters = Object.entries({
    regionCode: region,
    operatingSystem: 'Linux',
    tenancy: 'Shared',
    preInstalledSw: 'NA',
    capacitystatus: 'Used',
  }).map(([Field, Value]) => ({ Type: 'TERM_MATCH' as const, Field, Value }));
  let token: string | undefined;
  do {
    const page = await pricing.send(
      new GetProductsCommand({
        ServiceCode: 'AmazonEC2',
        Filters: filters,
        FormatVersion: 'aws_v1',
        MaxResults: 100,
        NextToken: token,
      }),
    );
    for (const text of page.PriceList ?? []) {
      // The SDK hands each entry over as a LazyJsonString; String() yields the JSON text either way.
      const item = priceListItem.safeParse(JSON.parse(String(text)));
      if (!item.success) continue;
      for (const term of Object.values(item.data.terms.OnDemand)) {
        for (const dim of Object.values(term.priceDimensions)) {
          const usd = Number(dim.pricePerUnit.USD);
          if (Number.isFinite(usd) && usd > 0) prices.set(item.data.product.attributes.instanceType, usd);
        }
      }
    }
    token = page.NextToken;
  } while (token);
  return prices;
}

/** Latest spot price per type and zone. */
export async function readSpotPrices(
  ec2: EC2Client,
  types: readonly string[],
  now: Date,
): Promise<Map<string, number>> {
  const latest = new Map<string, { price: number; at: number }>();
  let token: string | undefined;
  do {
    const page = await ec2.send(
      new DescribeSpotPriceHistoryCommand({
        InstanceTypes: types as _InstanceType[],
        ProductDescriptions: ['Linux/UNIX'],
        StartTime: now,
        NextToken: token,
      }),
    );
    for (const p of page.SpotPriceHistory ?? []) {
      const key = `${p.InstanceType}|${p.AvailabilityZone}`;
      const at = p.Timestamp?.getTime() ?? 0;
      const price = Number(p.SpotPrice);
      if (Number.isFinite(price) && (latest.get(key)?.at ?? -1) <= at) latest.set(key, { price, at });
    }
    token = page.NextToken || undefined;
  } while (token);
  return new Map([...latest].map(([k, v]) => [k, v.price]));
}
