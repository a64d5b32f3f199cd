// A GCENodeClass's disks as Compute Engine attaches them: the boot disk of the category and size asked for (the GCP
// provider's pd-balanced 100 GiB otherwise), persistent data disks, and local SSDs as NVMe scratch disks
// (docs/node-classes.md#gcenodeclass).
import type { protos } from '@google-cloud/compute';
import { bootDisk, LOCAL_SSD_GIB, type GceDisk } from '../../model/nodeclass-gce.ts';

type AttachedDisk = protos.google.cloud.compute.v1.IAttachedDisk;

const diskType = (zone: string, category: string): string => `zones/${zone}/diskTypes/${category}`;

export function attachedDisks(
  disks: readonly GceDisk[] | undefined,
  zone: string,
  image: string,
): AttachedDisk[] {
  const boot = bootDisk(disks);
  const bootEntry =
    disks?.find((d) => d.boot) ?? disks?.find((d) => d.category !== 'local-ssd' && d.boot !== false);
  const out: AttachedDisk[] = [
    {
      boot: true,
      autoDelete: true,
      initializeParams: {
        sourceImage: image,
        diskSizeGb: String(boot.sizeGiB),
        diskType: diskType(zone, boot.category),
      },
    },
  ];
  for (const d of disks ?? []) {
    if (d === bootEntry) continue;
    if (d.category === 'local-ssd')
      out.push({
        type: 'SCRATCH',
        interface: 'NVME',
        autoDelete: true,
        initializeParams: { diskType: diskType(zone, 'local-ssd'), diskSizeGb: String(LOCAL_SSD_GIB) },
      });
    else
      out.push({
        boot: false,
        autoDelete: true,
        initializeParams: {
          diskSizeGb: String(d.sizeGiB ?? 100),
          diskType: diskType(zone, d.category ?? 'pd-balanced'),
        },
      });
  }
  return out;
}
