// Stand-in for the Cloud Billing catalog (GET /v1/services/6F81-5844-456A/skus): Compute Engine SKUs
// for cores, RAM and GPUs in one region, on-demand, Spot and a committed-use decoy.
export interface SeedSku {
  readonly description: string;
  readonly usageType: 'OnDemand' | 'Preemptible' | 'Commit1Yr';
  readonly usd: number;
  readonly unit: 'h' | 'GiBy.h';
}

export function defaultSkus(): SeedSku[] {
  const rows: [string, number, number, 'h' | 'GiBy.h'][] = [
    ['G2 Instance Core', 0.024988, 0.009995, 'h'],
    ['G2 Instance Ram', 0.002927, 0.001171, 'GiBy.h'],
    ['A2 Instance Core', 0.031611, 0.012644, 'h'],
    ['A2 Instance Ram', 0.004237, 0.001695, 'GiBy.h'],
    ['N1 Predefined Instance Core', 0.031611, 0.006655, 'h'],
    ['N1 Predefined Instance Ram', 0.004237, 0.000892, 'GiBy.h'],
    ['Nvidia L4 GPU', 0.560321, 0.224128, 'h'],
    ['Nvidia Tesla A100 GPU', 2.933908, 1.173563, 'h'],
    ['Nvidia Tesla T4 GPU', 0.35, 0.14, 'h'],
  ];
  return rows.flatMap(([name, od, spot, unit]) => [
    { description: `${name} running in Americas`, usageType: 'OnDemand' as const, usd: od, unit },
    {
      description: `Spot Preemptible ${name} running in Americas`,
      usageType: 'Preemptible' as const,
      usd: spot,
      unit,
    },
    {
      description: `Commitment v1: ${name} in Americas for 1 Year`,
      usageType: 'Commit1Yr' as const,
      usd: od * 0.63,
      unit,
    },
  ]);
}

export function skusResponse(skus: readonly SeedSku[], region: string): unknown {
  return {
    skus: skus.map((s, i) => ({
      name: `services/6F81-5844-456A/skus/SKU-${i}`,
      skuId: `SKU-${i}`,
      description: s.description,
      category: {
        serviceDisplayName: 'Compute Engine',
        resourceFamily: 'Compute',
        resourceGroup: s.unit === 'h' ? 'CPU' : 'RAM',
        usageType: s.usageType,
      },
      serviceRegions: [region],
      pricingInfo: [
        {
          pricingExpression: {
            usageUnit: s.unit,
            tieredRates: [
              {
                startUsageAmount: 0,
                unitPrice: {
                  currencyCode: 'USD',
                  units: String(Math.floor(s.usd)),
                  nanos: Math.round((s.usd % 1) * 1e9),
                },
              },
            ],
          },
        },
      ],
    })),
  };
}
