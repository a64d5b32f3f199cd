// GCE prices from the Cloud Billing catalog (CloudCatalogClient.listSkus for Compute Engine): a
// machine type costs cores × core SKU + GiB × RAM SKU + GPUs × GPU SKU of its family and region;
// Spot uses the "Spot Preemptible" SKUs. A type whose SKUs are missing stays unpriced (catalog fallback).
import type { CloudCatalogClient } from '@google-cloud/billing';
import { z } from 'zod';
import type { GcePriceBook, TypeShape } from './machine-types.ts';

export const COMPUTE_ENGINE_SERVICE = 'services/6F81-5844-456A';

const money = z
  .object({ units: z.union([z.string(), z.number()]).nullish(), nanos: z.number().nullish() })
  .loose();
export const skuSchema = z
  .object({
    description: z.string(),
    category: z.object({ usageType: z.string().nullish() }).loose().nullish(),
    serviceRegions: z.array(z.string()).default([]),
    pricingInfo: z
      .array(
        z
          .object({
            pricingExpression: z
              .object({ tieredRates: z.array(z.object({ unitPrice: money.nullish() }).loose()).default([]) })
              .loose()
              .nullish(),
          })
          .loose(),
      )
      .default([]),
  })
  .loose();
export type Sku = z.infer<typeof skuSchema>;

export interface SkuPrice {
  readonly description: string;
  readonly spot: boolean;
  readonly regions: readonly string[];
  readonly usd: number;
}

export function skuPrices(raw: readonly unknown[]): SkuPrice[] {
  const out: SkuPrice[] = [];
  for (const r of raw) {
    const sku = skuSchema.safeParse(r);
    if (!sku.success) continue;
    // The last tier is the steady-state rate (the first may be a free tier).
    const rates = sku.data.pricingInfo[0]?.pricingExpression?.tieredRates ?? [];
    const price = rates[rates.length - 1]?.unitPrice;
    if (!price) continue;
    const usage = sku.data.category?.usageType;
    // Committed-use SKUs price commitments, not what a launch costs: only on-demand and Spot count.
    if (usage !== 'OnDemand' && usage !== 'Preemptible') continue;
    const usd = Number(price.units ?? 0) + (price.nanos ?? 0) / 1e9;
    out.push({
      description: sku.data.description,
      spot: usage === 'Preemptible',
      regions: sku.data.serviceRegions,
      usd,
    });
  }
  return out;
}

/** `nvidia-tesla-t4` → `Tesla T4`, `nvidia-h100-80gb` → `H100 80GB`: how the billing SKUs name GPUs. */
export function gpuSkuName(acceleratorType: string): string {
  return acceleratorType
    .replace(/^nvidia-/, '')
    .split('-')
    .map((w) => (w === 'tesla' ? 'Tesla' : w.toUpperCase()))
    .join(' ');
}

export function billingPriceBook(prices: readonly SkuPrice[], shapes: readonly TypeShape[]): GcePriceBook {
  const find = (pattern: RegExp, region: string, spot: boolean): number | undefined =>
    prices.find((p) => p.spot === spot && p.regions.includes(region) && pattern.test(p.description))?.usd;
  const price = (type: string, zone: string, spot: boolean): number | undefined => {
    const shape = shapes.find((s) => s.name === type);
    if (!shape) return undefined;
    const region = zone.replace(/-[a-z]$/, '');
    const family = (shape.name.split('-')[0] ?? '').toUpperCase();
    const prefix = spot ? '^Spot Preemptible ' : '^';
    const core = find(
      new RegExp(`${prefix}${family} (Predefined )?Instance Core running in`, 'i'),
      region,
      spot,
    );
    const ram = find(
      new RegExp(`${prefix}${family} (Predefined )?Instance Ram running in`, 'i'),
      region,
      spot,
    );
    if (core === undefined || ram === undefined) return undefined;
    let total = shape.cpus * core + (shape.memoryMi / 1024) * ram;
    if (shape.gpu) {
      const gpu = find(
        new RegExp(`${prefix}Nvidia ${gpuSkuName(shape.gpu.type)} GPU running in`, 'i'),
        region,
        spot,
      );
      if (gpu === undefined) return undefined;
      total += shape.gpu.count * gpu;
    }
    return Math.round(total * 1e6) / 1e6;
  };
  return { onDemand: (t, z) => price(t, z, false), spot: (t, z) => price(t, z, true) };
}

/**
 * Reads every Compute Engine SKU, and reuses them in a warm container for `ttlMs` (the pricing
 * function refreshes every 12 hours; SKU prices change rarely). A failed read is not cached.
 */
export function billingPriceReader(
  catalog: CloudCatalogClient,
  cache: { now: () => number; ttlMs: number } = { now: () => 0, ttlMs: 0 },
): (shapes: readonly TypeShape[]) => Promise<GcePriceBook> {
  let held: { at: number; prices: SkuPrice[] } | undefined;
  return async (shapes) => {
    const now = cache.now();
    if (!held || now - held.at >= cache.ttlMs) {
      const [skus] = await catalog.listSkus({ parent: COMPUTE_ENGINE_SERVICE, currencyCode: 'USD' });
      held = { at: now, prices: skuPrices(skus) };
    }
    return billingPriceBook(held.prices, shapes);
  };
}
