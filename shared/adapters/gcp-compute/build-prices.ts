// Builds the Compute Engine price source with its REST clients (machine and accelerator types) and the Cloud
// Billing catalog client, authenticated as buildGce is (connect.ts). The pricing function's alone: only it
// calls a price API (docs/functions/pricing.md).
import type { GceProviderConfig } from '../../config/gcp-compute.ts';
import { billingPriceReader } from './billing.ts';
import { createCatalogClient } from './billing-client.ts';
import { authClientOf, connectGce, restEndpoint, type GceAuth } from './connect.ts';
import type { GcePriceBook, TypeShape } from './machine-types.ts';
import { GcePriceSource } from './price-source.ts';

export function buildGcePriceSource(
  config: GceProviderConfig,
  auth: GceAuth,
  endpoint?: { host: string; port: number },
): { readonly source: GcePriceSource; close(): Promise<void> } {
  const gce = connectGce(auth, endpoint);
  const billing = createCatalogClient(gce.authClient, gce.rest);
  return {
    source: new GcePriceSource({ clients: gce.compute, billing, config }),
    close: async () => {
      await gce.close();
      await billing.close();
    },
  };
}

/**
 * The billing catalog read afresh on every call, as a provider's own prices: for tests and local tools that build
 * a provider without a stored book (no deployed function uses it: they read the book).
 */
export function buildBillingPriceReader(
  auth: GceAuth,
  endpoint?: { host: string; port: number },
): { readonly read: (shapes: readonly TypeShape[]) => Promise<GcePriceBook>; close(): Promise<void> } {
  const billing = createCatalogClient(authClientOf(auth), restEndpoint(endpoint));
  return { read: billingPriceReader(billing), close: () => billing.close() };
}
