// Stand-in for the AWS Price List Query API (JSON 1.1, X-Amz-Target AWSPriceListService.GetProducts):
// one Linux/Shared and one Windows product per instance type, filtered by TERM_MATCH, paginated.
import type { Ec2World } from './world.ts';

interface Product {
  readonly attributes: Record<string, string>;
  readonly usd: number;
}

function productsOf(world: Ec2World): Product[] {
  return [...world.types.values()].flatMap((t) =>
    (['Linux', 'Windows'] as const).map((os) => ({
      attributes: {
        instanceType: t.name,
        regionCode: world.region,
        operatingSystem: os,
        tenancy: 'Shared',
        preInstalledSw: 'NA',
        capacitystatus: 'Used',
        servicecode: 'AmazonEC2',
      },
      usd: os === 'Linux' ? t.onDemandPrice : t.onDemandPrice * 1.5,
    })),
  );
}

function priceListItem(p: Product, sku: string): string {
  const term = `${sku}.JRTCKXETXF`;
  return JSON.stringify({
    product: { productFamily: 'Compute Instance', attributes: p.attributes, sku },
    serviceCode: 'AmazonEC2',
    terms: {
      OnDemand: {
        [term]: {
          offerTermCode: 'JRTCKXETXF',
          sku,
          priceDimensions: {
            [`${term}.6YS6EN2CT7`]: { unit: 'Hrs', pricePerUnit: { USD: p.usd.toFixed(10) } },
          },
        },
      },
    },
  });
}

export interface JsonReply {
  readonly status: number;
  readonly body: unknown;
}

export function getProducts(world: Ec2World, input: unknown): JsonReply {
  const req = (input ?? {}) as {
    ServiceCode?: string;
    Filters?: { Type?: string; Field?: string; Value?: string }[];
    NextToken?: string;
    MaxResults?: number;
  };
  if (req.ServiceCode !== 'AmazonEC2')
    return {
      status: 400,
      body: {
        __type: 'InvalidParameterException',
        message: `unknown service code ${String(req.ServiceCode)}`,
      },
    };
  const filters = req.Filters ?? [];
  const matching = productsOf(world).filter((p) =>
    filters.every((f) => f.Type === 'TERM_MATCH' && p.attributes[f.Field ?? ''] === f.Value),
  );
  const start = Number(req.NextToken ?? '0');
  const size = Math.min(req.MaxResults ?? 100, 100);
  const page = matching.slice(start, start + size);
  return {
    status: 200,
    body: {
      FormatVersion: 'aws_v1',
      PriceList: page.map((p, i) => priceListItem(p, `SKU${start + i}`)),
      ...(start + size < matching.length ? { NextToken: String(start + size) } : {}),
    },
  };
}
