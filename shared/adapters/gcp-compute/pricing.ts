// GCE prices: a price book read from the Cloud Billing catalog (billing.ts) layered over the built-in
// catalog, so that a type the billing SKUs cannot price, or a billing outage, falls back to it.
import type { InstanceTypeCatalog } from '../../model/catalog.ts';
import type { GcePriceBook } from './machine-types.ts';

export function catalogPriceBook(catalog: InstanceTypeCatalog | undefined): GcePriceBook {
  const find = (type: string, zone: string, ct: 'on-demand' | 'spot'): number | undefined => {
    const offerings =
      catalog?.instanceTypes.find((t) => t.cloud === 'gcp' && t.name === type)?.offerings ?? [];
    return (
      offerings.find((o) => o.zone === zone && o.capacityType === ct) ??
      offerings.find((o) => o.capacityType === ct)
    )?.price;
  };
  return { onDemand: (t, z) => find(t, z, 'on-demand'), spot: (t, z) => find(t, z, 'spot') };
}

export function layeredPriceBook(primary: GcePriceBook | undefined, fallback: GcePriceBook): GcePriceBook {
  return {
    onDemand: (t, z) => primary?.onDemand(t, z) ?? fallback.onDemand(t, z),
    spot: (t, z) => primary?.spot(t, z) ?? fallback.spot(t, z),
  };
}
