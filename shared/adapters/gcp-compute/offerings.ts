// Reads what a GCE node class can launch: machine and accelerator types of every configured zone,
// priced by the Cloud Billing reader layered over the built-in catalog.
import type { protos } from '@google-cloud/compute';
import type { InstanceTypeCatalog, InstanceTypeSpec } from '../../model/catalog.ts';
import type { GCENodeClass } from '../../model/nodeclass.ts';
import type { Logger } from '../../ports/logger.ts';
import type { GceContext } from './gce-context.ts';
import { shapesOf, toInstanceTypeSpec, type GcePriceBook, type TypeShape } from './machine-types.ts';
import { catalogPriceBook, layeredPriceBook } from './pricing.ts';

type ZoneTypes = {
  machineTypes: protos.google.cloud.compute.v1.IMachineType[];
  accelerators: protos.google.cloud.compute.v1.IAcceleratorType[];
};

export async function readInstanceTypes(
  ctx: GceContext,
  nc: GCENodeClass,
  prices: {
    readPrices?: (shapes: readonly TypeShape[]) => Promise<GcePriceBook>;
    fallbackCatalog?: InstanceTypeCatalog;
    logger?: Logger;
  },
): Promise<InstanceTypeSpec[]> {
  const project = ctx.config.project;
  const byZone = new Map<string, ZoneTypes>();
  for (const zone of ctx.config.zones) {
    const [machineTypes] = await ctx.call('machineTypes.list', () =>
      ctx.clients.machineTypes.list({ project, zone }),
    );
    const [accelerators] = await ctx.call('acceleratorTypes.list', () =>
      ctx.clients.acceleratorTypes.list({ project, zone }),
    );
    byZone.set(zone, { machineTypes, accelerators });
  }
  const shapes = shapesOf(byZone);
  let primary: GcePriceBook | undefined;
  if (prices.readPrices) {
    primary = await prices.readPrices(shapes).catch((err: unknown) => {
      prices.logger?.warn('GCE prices fell back to the built-in catalog', { error: String(err) });
      return undefined;
    });
  }
  const book = layeredPriceBook(primary, catalogPriceBook(prices.fallbackCatalog));
  const disk = nc.spec.disks?.find((d) => d.boot)?.sizeGiB ?? 100;
  return shapes
    .map((s) => toInstanceTypeSpec(s, book, nc.spec.kubeletConfiguration?.maxPods ?? 110, disk))
    .filter((t): t is InstanceTypeSpec => t !== undefined);
}
