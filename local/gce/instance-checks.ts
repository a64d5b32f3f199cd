// What Compute Engine refuses in an instance body before it creates anything (400 on the insert call): disks of an
// unknown type or size, a local SSD that is not a 375 GB NVMe/SCSI scratch disk, and live migration for an instance
// with GPUs — "Instances with guest accelerators do not support live migration." (README "Instance bodies").
import { GceHttpError } from './resources.ts';
import type { GceWorld } from './world.ts';

/** Disk types this emulator offers in every zone (Compute Engine: "Choose a disk type"), with their size bounds in GB. */
export const DISK_TYPES: Readonly<Record<string, readonly [number, number]>> = {
  'pd-standard': [10, 65536],
  'pd-balanced': [10, 65536],
  'pd-ssd': [10, 65536],
  'pd-extreme': [500, 65536],
  'hyperdisk-balanced': [4, 65536],
  'hyperdisk-extreme': [64, 65536],
  'hyperdisk-throughput': [2048, 32768],
  'local-ssd': [375, 375],
};

const invalid = (field: string, value: unknown, why: string) =>
  new GceHttpError(400, 'invalid', `Invalid value for field '${field}': '${String(value)}'. ${why}`);

interface Disk {
  boot?: boolean;
  type?: string;
  interface?: string;
  initializeParams?: { diskType?: string; diskSizeGb?: string | number; sourceImage?: string };
}

/** Every disk of the body (`resource` for insert, `resource.instanceProperties` for bulkInsert). */
export function checkDisks(disks: unknown, zone: string, field: string): void {
  const list = (Array.isArray(disks) ? disks : []) as Disk[];
  if (list.filter((d) => d.boot).length !== 1)
    throw new GceHttpError(
      400,
      'invalid',
      `Invalid value for field '${field}': exactly one boot disk is required.`,
    );
  list.forEach((d, i) => {
    const at = `${field}[${i}]`;
    const typeUrl = d.initializeParams?.diskType;
    const typeName = typeUrl === undefined ? 'pd-standard' : (typeUrl.split('/').pop() ?? '');
    // insert names it by zonal URL; bulkInsert's instanceProperties (an instance template's shape) by name.
    const located =
      !typeUrl?.includes('/') || new RegExp(`(^|/)zones/${zone}/diskTypes/[^/]+$`).test(typeUrl);
    if (typeUrl !== undefined && (!DISK_TYPES[typeName] || !located))
      throw invalid(
        `${at}.initializeParams.diskType`,
        typeUrl,
        'The referenced diskType resource cannot be found.',
      );
    const scratch = d.type === 'SCRATCH';
    if (scratch !== (typeName === 'local-ssd'))
      throw invalid(
        `${at}.type`,
        d.type ?? 'PERSISTENT',
        'A local-ssd disk must be a SCRATCH disk, and only it.',
      );
    if (scratch && d.boot) throw invalid(`${at}.boot`, true, 'A SCRATCH disk cannot be a boot disk.');
    if (scratch && d.interface !== 'NVME' && d.interface !== 'SCSI')
      throw invalid(`${at}.interface`, d.interface, 'A local SSD is attached over NVME or SCSI.');
    const size = d.initializeParams?.diskSizeGb;
    if (size === undefined) return;
    const gb = Number(size);
    const [min, max] = DISK_TYPES[typeName] as readonly [number, number];
    if (!Number.isInteger(gb) || gb < min || gb > max)
      throw invalid(`${at}.initializeParams.diskSizeGb`, size, `A ${typeName} disk is ${min} to ${max} GB.`);
  });
}

/** GPUs, attached or bundled with the machine type, cannot live-migrate: onHostMaintenance must be TERMINATE. */
export function checkMaintenance(world: GceWorld, machineType: string, body: Record<string, unknown>): void {
  const attached = ((body.guestAccelerators ?? []) as unknown[]).length > 0;
  const bundled = (world.machineTypes.get(machineType)?.accelerators ?? []).length > 0;
  const scheduling = (body.scheduling ?? {}) as { onHostMaintenance?: string };
  if ((attached || bundled) && (scheduling.onHostMaintenance ?? 'MIGRATE') !== 'TERMINATE')
    throw new GceHttpError(
      400,
      'badRequest',
      'Instances with guest accelerators do not support live migration.',
    );
}
