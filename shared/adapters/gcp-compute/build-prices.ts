// Builds the Compute Engine price source with its REST clients (machine and accelerator types) and the Cloud
// Billing catalog client, authenticated as buildGce is (connect.ts).
import type { GceProviderConfig } from '../../config/gcp-compute.ts';
import { connectGce, type GceAuth } from './connect.ts';
import { GcePriceSource } from './price-source.ts';

export function buildGcePriceSource(
  config: GceProviderConfig,
  auth: GceAuth,
  endpoint?: { host: string; port: number },
): { readonly source: GcePriceSource; close(): Promise<void> } {
  const gce = connectGce(auth, endpoint);
  return {
    source: new GcePriceSource({ clients: gce.compute, billing: gce.billing, config }),
    close: () => gce.close(),
  };
}
