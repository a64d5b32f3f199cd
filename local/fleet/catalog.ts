// The local fleet's catalog: a fixed selection of the built-in catalog (the families and regions the fleet's
// scenarios were written for), so that the emulators stay small and a fleet report stays comparable across
// catalog updates (docs/catalog.md, "The local fleet"). Prices and shapes are the built-in catalog's.
import { builtinCatalog } from '../../shared/catalog/builtin.ts';
import type { InstanceTypeCatalog } from '../../shared/model/catalog.ts';

/** The regions the fleet's worlds and scenarios use. */
export const FLEET_REGIONS: ReadonlySet<string> = new Set([
  'us-east-1',
  'us-west-2',
  'us-central1',
  'europe-west4',
]);

const SIZES = ['large', 'xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', '24xlarge'];
const GPU_SIZES = ['xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', '24xlarge', '48xlarge'];
/** AWS families and sizes of the selection. */
const AWS_SELECTION: Readonly<Record<string, readonly string[]>> = {
  g4dn: ['xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', 'metal'],
  g5: GPU_SIZES,
  g6: GPU_SIZES,
  g6e: GPU_SIZES,
  p4d: ['24xlarge'],
  p4de: ['24xlarge'],
  p5: ['4xlarge', '48xlarge'],
  p5en: ['48xlarge'],
  m7i: SIZES,
  c7i: SIZES,
  r7i: SIZES,
};
/** Compute Engine machine types of the selection. */
const GCP_SELECTION =
  /^(a2-highgpu-\d+g|a2-ultragpu-\d+g|a3-highgpu-\d+g|a3-megagpu-8g|g2-standard-\d+|n2-standard-\d+|n2-highmem-\d+|c3-standard-\d+)$/;

let cached: InstanceTypeCatalog | undefined;

export function fleetCatalog(): InstanceTypeCatalog {
  if (cached) return cached;
  const all = builtinCatalog(FLEET_REGIONS);
  const instanceTypes = all.instanceTypes.filter((t) => {
    if (t.cloud === 'gcp') return GCP_SELECTION.test(t.name);
    const [family = '', size = ''] = t.name.split('.');
    return AWS_SELECTION[family]?.includes(size) ?? false;
  });
  cached = { ...all, metadata: { name: 'fleet' }, instanceTypes };
  return cached;
}
