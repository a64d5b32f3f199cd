// GCENodeClass's disks as the GCP provider names them (category, sizeGiB, boot) plus local SSDs, checked against
// Compute Engine's documented disk types and sizes (docs/node-classes.md#gcenodeclass), and its scopes.
import { z } from 'zod';
import { implementedObject } from './nodeclass-fields.ts';

/** Persistent disk and Hyperdisk types a boot or data disk may be, and `local-ssd` (a 375 GiB scratch disk). */
export const DISK_CATEGORIES = [
  'pd-standard',
  'pd-balanced',
  'pd-ssd',
  'pd-extreme',
  'hyperdisk-balanced',
  'hyperdisk-extreme',
  'hyperdisk-throughput',
  'local-ssd',
] as const;
export type DiskCategory = (typeof DISK_CATEGORIES)[number];

/** Every local SSD partition is 375 GiB (Compute Engine: "About Local SSD disks"). */
export const LOCAL_SSD_GIB = 375;
/** The GCP provider's boot disk when the node class names none (pd-balanced, 100 GiB). */
export const DEFAULT_BOOT_DISK = { category: 'pd-balanced', sizeGiB: 100 } as const;

export const gceDiskSchema = implementedObject({
  category: z.enum(DISK_CATEGORIES, { error: `must be one of ${DISK_CATEGORIES.join(', ')}` }).optional(),
  // The GCP provider's CEL rule: size >= 10 GiB.
  sizeGiB: z.number().int().min(10, 'size invalid: at least 10 GiB').max(65536).optional(),
  boot: z.boolean().optional(),
});
export type GceDisk = z.infer<typeof gceDiskSchema>;

export const gceDisksSchema = z
  .array(gceDiskSchema)
  .max(10)
  .superRefine((disks, ctx) => {
    if (disks.filter((d) => d.boot).length > 1)
      ctx.addIssue({ code: 'custom', message: 'at most one disk may be the boot disk' });
    disks.forEach((d, i) => {
      if (d.category !== 'local-ssd') return;
      if (d.boot)
        ctx.addIssue({ code: 'custom', path: [i, 'boot'], message: 'a local SSD cannot be the boot disk' });
      if (d.sizeGiB !== undefined && d.sizeGiB !== LOCAL_SSD_GIB)
        ctx.addIssue({
          code: 'custom',
          path: [i, 'sizeGiB'],
          message: `a local SSD is ${LOCAL_SSD_GIB} GiB (omit sizeGiB or give ${LOCAL_SSD_GIB})`,
        });
    });
  });

/** The boot disk a node class asks for: the one marked `boot`, else the first non-local disk, else the default. */
export function bootDisk(disks: readonly GceDisk[] | undefined): { category: DiskCategory; sizeGiB: number } {
  const d = disks?.find((x) => x.boot) ?? disks?.find((x) => x.category !== 'local-ssd' && x.boot !== false);
  return {
    category: d?.category ?? DEFAULT_BOOT_DISK.category,
    sizeGiB: d?.sizeGiB ?? DEFAULT_BOOT_DISK.sizeGiB,
  };
}

/** An OAuth scope URL (or Compute Engine's short alias such as `cloud-platform`). */
export const scopesSchema = z
  .array(
    z
      .string()
      .regex(
        /^(https:\/\/www\.googleapis\.com\/auth\/[a-z0-9._-]+|[a-z0-9._-]+)$/,
        'must be an OAuth scope URL',
      ),
  )
  .min(1);
export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
