// EC2NodeClass's launch settings as Karpenter v1.14 names and bounds them: block device mappings (EBS volumes) and
// instance metadata options, checked against EC2's own rules (EbsBlockDevice, InstanceMetadataOptionsRequest in the
// EC2 API Reference) so a node class EC2 would refuse at every launch is refused here (docs/node-classes.md).
import { z } from 'zod';
import { implementedObject } from './nodeclass-fields.ts';
import { parseQuantity } from './quantity.ts';

export const VOLUME_TYPES = ['standard', 'io1', 'io2', 'gp2', 'sc1', 'st1', 'gp3'] as const;
export type VolumeType = (typeof VOLUME_TYPES)[number];

/** Sizes in GiB per volume type (EC2 API Reference, EbsBlockDevice.VolumeSize). */
export const VOLUME_SIZE_GIB: Readonly<Record<VolumeType, readonly [number, number]>> = {
  gp2: [1, 16384],
  gp3: [1, 16384],
  io1: [4, 16384],
  io2: [4, 65536],
  st1: [125, 16384],
  sc1: [125, 16384],
  standard: [1, 1024],
};
/** IOPS per volume type (EbsBlockDevice.Iops); other types take none. */
export const VOLUME_IOPS: Readonly<Partial<Record<VolumeType, readonly [number, number]>>> = {
  gp3: [3000, 16000],
  io1: [100, 64000],
  io2: [100, 256000],
};
/** gp3 throughput in MiB/s (EbsBlockDevice.Throughput); no other type takes it. */
export const GP3_THROUGHPUT: readonly [number, number] = [125, 1000];

// Karpenter's CRD pattern for volumeSize: Gi, G, Ti or T, at most 64 TB.
const VOLUME_SIZE =
  /^((?:[1-9][0-9]{0,3}|[1-4][0-9]{4}|[5][0-8][0-9]{3}|59000)Gi|(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|[6][0-3][0-9]{3}|64000)G|([1-9]|[1-5][0-7]|58)Ti|([1-9]|[1-5][0-9]|6[0-3]|64)T)$/;

/**
 * The GiB EC2 is asked for: Karpenter sends `VolumeSize.ScaledValue(resource.Giga)` (launchtemplate.go), the size in
 * units of 10^9 bytes rounded up — so `500Gi` asks for 537 — and kraftsman sends the same.
 */
export function volumeSizeGiB(size: string): number {
  const bytes = parseQuantity(size) / 1000n;
  return Number((bytes + 999_999_999n) / 1_000_000_000n);
}

const ebsSchema = implementedObject({
  volumeSize: z
    .string()
    .regex(VOLUME_SIZE, 'must be a size in Gi, G, Ti or T such as 100Gi (at most 64T)')
    .optional(),
  volumeType: z.enum(VOLUME_TYPES, { error: `must be one of ${VOLUME_TYPES.join(', ')}` }).optional(),
  iops: z.number().int().optional(),
  throughput: z.number().int().optional(),
  encrypted: z.boolean().optional(),
  kmsKeyID: z.string().min(1).optional(),
  deleteOnTermination: z.boolean().optional(),
  snapshotID: z.string().min(1).optional(),
}).superRefine((e, ctx) => {
  const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
  if (e.volumeSize === undefined && e.snapshotID === undefined)
    issue('volumeSize', 'snapshotID or volumeSize must be defined');
  const type = e.volumeType;
  if (e.iops !== undefined || e.throughput !== undefined)
    if (!type)
      issue('volumeType', 'must be set when iops or throughput is (EC2 would apply its default type)');
  if (e.kmsKeyID !== undefined && e.encrypted !== true)
    issue('encrypted', 'must be true when kmsKeyID is set (EC2 refuses a KMS key on an unencrypted volume)');
  if (!type) return;
  const iops = VOLUME_IOPS[type];
  if (!iops && e.iops !== undefined) issue('iops', `${type} volumes take no iops (only gp3, io1, io2)`);
  if (iops && e.iops === undefined && (type === 'io1' || type === 'io2'))
    issue('iops', `is required for ${type} volumes`);
  if (iops && e.iops !== undefined && (e.iops < iops[0] || e.iops > iops[1]))
    issue('iops', `must be ${iops[0]}–${iops[1]} for ${type}`);
  if (e.throughput !== undefined && type !== 'gp3') issue('throughput', 'is only for gp3 volumes');
  if (type === 'gp3' && e.throughput !== undefined)
    if (e.throughput < GP3_THROUGHPUT[0] || e.throughput > GP3_THROUGHPUT[1])
      issue('throughput', `must be ${GP3_THROUGHPUT[0]}–${GP3_THROUGHPUT[1]} MiB/s for gp3`);
  if (e.volumeSize !== undefined && VOLUME_SIZE.test(e.volumeSize)) {
    const gib = volumeSizeGiB(e.volumeSize);
    const [min, max] = VOLUME_SIZE_GIB[type];
    if (gib < min || gib > max)
      issue('volumeSize', `${type} volumes are ${min}–${max} GiB; ${e.volumeSize} asks EC2 for ${gib}`);
  }
});

export const blockDeviceMappingSchema = implementedObject({
  deviceName: z.string().min(1).optional(),
  rootVolume: z.boolean().optional(),
  ebs: ebsSchema.optional(),
});
export type BlockDeviceMapping = z.infer<typeof blockDeviceMappingSchema>;

export const blockDeviceMappingsSchema = z
  .array(blockDeviceMappingSchema)
  .max(50)
  .superRefine((list, ctx) => {
    if (list.filter((m) => m.rootVolume).length > 1)
      ctx.addIssue({ code: 'custom', message: 'must have only one blockDeviceMappings with rootVolume' });
    list.forEach((m, i) => {
      if (!m.deviceName) ctx.addIssue({ code: 'custom', path: [i, 'deviceName'], message: 'is required' });
      if (!m.ebs) ctx.addIssue({ code: 'custom', path: [i, 'ebs'], message: 'is required' });
    });
  });

/** Karpenter's defaults (ec2nodeclass.go +kubebuilder:default): IMDS on, IPv6 endpoint off, hop limit 1, IMDSv2 only. */
export const METADATA_DEFAULTS = {
  httpEndpoint: 'enabled',
  httpProtocolIPv6: 'disabled',
  httpPutResponseHopLimit: 1,
  httpTokens: 'required',
} as const;

export const metadataOptionsSchema = implementedObject({
  httpEndpoint: z.enum(['enabled', 'disabled']).optional(),
  httpProtocolIPv6: z.enum(['enabled', 'disabled']).optional(),
  httpPutResponseHopLimit: z.number().int().min(1).max(64).optional(),
  httpTokens: z.enum(['required', 'optional']).optional(),
});
export type MetadataOptions = z.infer<typeof metadataOptionsSchema>;
