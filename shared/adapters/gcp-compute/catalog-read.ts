// One region of a Google Cloud project as catalog instance types (`kraftsman catalog --cloud gcp`,
// docs/catalog.md): the region's zones (regions.get), machine and accelerator types of each zone (paged lists),
// N1 with attachable GPUs, priced by the Cloud Billing catalog's SKUs, shaped as the provider shapes a live read
// (machine-types.ts). A type with no price in any zone is left out.
import type { protos } from '@google-cloud/compute';
import type { AuthClient } from 'google-auth-library';
import { RegionsClient } from '@google-cloud/compute/build/src/v1/regions_client.js';
import type { InstanceTypeSpec } from '../../model/catalog.ts';
import { billingPriceReader } from './billing.ts';
import { createCatalogClient } from './billing-client.ts';
import { createComputeClients } from './clients.ts';
import type { RestEndpoint } from './connect.ts';
import { shapesOf, toInstanceTypeSpec } from './machine-types.ts';

type ZoneTypes = {
  machineTypes: protos.google.cloud.compute.v1.IMachineType[];
  accelerators: protos.google.cloud.compute.v1.IAcceleratorType[];
};

/** What failed, for the CLI's one-line error (`gcp machineTypes.list failed: …`). */
export class GceCatalogReadError extends Error {
  override name = 'GceCatalogReadError';
  constructor(call: string, options: { cause: unknown }) {
    const c = options.cause;
    super(`gcp ${call} failed: ${c instanceof Error ? c.message : String(c)}`, options);
  }
}

async function step<T>(call: string, op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (cause: unknown) {
    throw new GceCatalogReadError(call, { cause });
  }
}

export async function readGceCatalog(args: {
  readonly authClient: AuthClient;
  readonly project: string;
  readonly region: string;
  readonly rest?: RestEndpoint;
}): Promise<InstanceTypeSpec[]> {
  const { authClient, project, region, rest } = args;
  const options = {
    fallback: true,
    authClient,
    ...(rest ? { apiEndpoint: rest.host, port: rest.port, protocol: rest.protocol } : {}),
  } as unknown as ConstructorParameters<typeof RegionsClient>[0];
  const regions = new RegionsClient(options);
  const compute = createComputeClients(authClient, rest);
  const billing = createCatalogClient(authClient, rest);
  try {
    const [r] = await step('regions.get', () => regions.get({ project, region }));
    const zones = (r.zones ?? []).map((z) => z.split('/').pop() ?? '').sort();
    const byZone = new Map<string, ZoneTypes>();
    for (const zone of zones) {
      const [machineTypes] = await step('machineTypes.list', () =>
        compute.machineTypes.list({ project, zone }),
      );
      const [accelerators] = await step('acceleratorTypes.list', () =>
        compute.acceleratorTypes.list({ project, zone }),
      );
      byZone.set(zone, { machineTypes, accelerators });
    }
    const shapes = shapesOf(byZone);
    const book = await step('cloudbilling services.skus.list', () => billingPriceReader(billing)(shapes));
    return shapes
      .flatMap((s) => toInstanceTypeSpec(s, book) ?? [])
      .sort((a, b) => a.name.localeCompare(b.name));
  } finally {
    await Promise.all([regions.close(), compute.close(), billing.close()]);
  }
}
