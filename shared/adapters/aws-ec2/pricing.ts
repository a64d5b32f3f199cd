// Prices for EC2 offerings: on-demand from the Price List Query API (GetProducts), spot from
// DescribeSpotPriceHistory; whatever cannot be read falls back to the built-in catalog's price.
import { DescribeSpotPriceHistoryCommand, type EC2Client, type _InstanceType } from '@aws-sdk/client-ec2';
import { GetProductsCommand, type PricingClient } from '@aws-sdk/client-pricing';
import { z } from 'zod';
import type { InstanceTypeCatalog } from '../../model/catalog.ts';

export interface PriceBook {
  onDemand(type: string, zone: string): number | undefined;
  spot(type: string, zone: string): number | undefined;
  /** Where the prices came from, for logs: "api", "catalog" or "api+catalog". */
  readonly source: string;
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

function catalogPrice(
  catalog: InstanceTypeCatalog | undefined,
  type: string,
  zone: string,
  ct: 'on-demand' | 'spot',
): number | undefined {
  const offerings = catalog?.instanceTypes.find((t) => t.cloud === 'aws' && t.name === type)?.offerings ?? [];
  return (
    offerings.find((o) => o.zone === zone && o.capacityType === ct) ??
    offerings.find((o) => o.capacityType === ct)
  )?.price;
}

/** Reads both price sources; a source that fails leaves its prices to the catalog (the reason is returned). */
export async function readPriceBook(args: {
  ec2: EC2Client;
  pricing?: PricingClient;
  region: string;
  types: readonly string[];
  now: Date;
  fallback?: InstanceTypeCatalog;
}): Promise<{ book: PriceBook; failures: string[] }> {
  const failures: string[] = [];
  const onDemand = args.pricing
    ? await readOnDemandPrices(args.pricing, args.region).catch(
        (e: unknown) => (failures.push(`GetProducts: ${String(e)}`), new Map<string, number>()),
      )
    : new Map<string, number>();
  const spot = await readSpotPrices(args.ec2, args.types, args.now).catch(
    (e: unknown) => (failures.push(`DescribeSpotPriceHistory: ${String(e)}`), new Map<string, number>()),
  );
  let fromCatalog = false;
  const fromApi = onDemand.size > 0 || spot.size > 0;
  const pick = (
    api: number | undefined,
    type: string,
    zone: string,
    ct: 'on-demand' | 'spot',
  ): number | undefined => {
    if (api !== undefined) return api;
    const c = catalogPrice(args.fallback, type, zone, ct);
    if (c !== undefined) fromCatalog = true;
    return c;
  };
  const book: PriceBook = {
    onDemand: (type, zone) => pick(onDemand.get(type), type, zone, 'on-demand'),
    spot: (type, zone) => pick(spot.get(`${type}|${zone}`), type, zone, 'spot'),
    get source() {
      return fromCatalog ? (fromApi ? 'api+catalog' : 'catalog') : 'api';
    },
  };
  return { book, failures };
}
