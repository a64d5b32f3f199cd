// A launch template's block devices, metadata options, network interface and monitoring, read from
// CreateLaunchTemplate's LaunchTemplateData and checked as EC2 checks them (EC2 API Reference: EbsBlockDevice,
// LaunchTemplateInstanceMetadataOptionsRequest, CreateLaunchTemplate; README "Launch template data"), so the
// emulator refuses what EC2 would refuse at launch.
import { Ec2Fault } from './faults.ts';
import { listOf, membersOf, structOf, type Params } from './query.ts';

export interface EmuBlockDevice {
  readonly deviceName: string;
  readonly volumeSize?: number;
  readonly volumeType?: string;
  readonly iops?: number;
  readonly throughput?: number;
  readonly encrypted?: boolean;
  readonly kmsKeyId?: string;
  readonly deleteOnTermination?: boolean;
  readonly snapshotId?: string;
}
export interface EmuMetadataOptions {
  readonly httpEndpoint: string;
  readonly httpProtocolIpv6: string;
  readonly httpPutResponseHopLimit: number;
  readonly httpTokens: string;
  readonly instanceMetadataTags: string;
}
export interface EmuTemplateSettings {
  readonly blockDevices: readonly EmuBlockDevice[];
  readonly metadataOptions: EmuMetadataOptions;
  readonly associatePublicIpAddress?: boolean;
  readonly monitoring: boolean;
}

const VOLUME_TYPES = ['standard', 'io1', 'io2', 'gp2', 'sc1', 'st1', 'gp3'];
const SIZE_GIB: Record<string, [number, number]> = {
  gp2: [1, 16384],
  gp3: [1, 16384],
  io1: [4, 16384],
  io2: [4, 65536],
  st1: [125, 16384],
  sc1: [125, 16384],
  standard: [1, 1024],
};
const IOPS: Record<string, [number, number]> = { gp3: [3000, 16000], io1: [100, 64000], io2: [100, 256000] };

const bad = (message: string) => new Ec2Fault('InvalidParameterValue', message);
const combination = (message: string) => new Ec2Fault('InvalidParameterCombination', message);

function int(v: string | undefined, name: string): number | undefined {
  if (v === undefined) return undefined;
  if (!/^-?\d+$/.test(v)) throw bad(`Value (${v}) for parameter ${name} is invalid. Expected an integer.`);
  return Number(v);
}
const bool = (v: string | undefined): boolean | undefined => (v === undefined ? undefined : v === 'true');

function oneOf(v: string | undefined, name: string, allowed: readonly string[], fallback: string): string {
  if (v === undefined) return fallback;
  if (!allowed.includes(v))
    throw bad(`Value (${v}) for parameter ${name} is invalid. Valid values: ${allowed.join(', ')}`);
  return v;
}

/** One EBS mapping, refused with EC2's error codes where EC2 refuses it (the default type being gp2). */
function blockDevice(m: Map<string, string>): EmuBlockDevice {
  const deviceName = m.get('DeviceName');
  if (!deviceName)
    throw new Ec2Fault('MissingParameter', 'The request must contain the parameter deviceName');
  const e = structOf(m, 'Ebs');
  const type = oneOf(e.get('VolumeType'), 'volumeType', VOLUME_TYPES, 'gp2');
  const size = int(e.get('VolumeSize'), 'volumeSize');
  const iops = int(e.get('Iops'), 'iops');
  const throughput = int(e.get('Throughput'), 'throughput');
  const encrypted = bool(e.get('Encrypted'));
  const kmsKeyId = e.get('KmsKeyId');
  const snapshotId = e.get('SnapshotId');
  if (size === undefined && snapshotId === undefined)
    throw new Ec2Fault(
      'MissingParameter',
      `The request must contain the parameter size or snapshotId (${deviceName})`,
    );
  if (size !== undefined) {
    const [min, max] = SIZE_GIB[type] as [number, number];
    if (size < min) throw bad(`Volume of ${size}GiB is too small; minimum is ${min}GiB for ${type} volumes.`);
    if (size > max) throw bad(`Volume of ${size}GiB is too large; maximum is ${max}GiB for ${type} volumes.`);
  }
  const range = IOPS[type];
  if (!range && iops !== undefined)
    throw combination(`The parameter iops is not supported for ${type} volumes.`);
  if ((type === 'io1' || type === 'io2') && iops === undefined)
    throw combination(`The parameter iops must be specified for ${type} volumes.`);
  if (range && iops !== undefined && (iops < range[0] || iops > range[1]))
    throw bad(`IOPS rate must be between ${range[0]} and ${range[1]} when provisioning ${type} volumes.`);
  if (throughput !== undefined && type !== 'gp3')
    throw combination(`The parameter throughput is not supported for ${type} volumes.`);
  if (throughput !== undefined && (throughput < 125 || throughput > 1000))
    throw bad(`Throughput of ${throughput} MiB/s is invalid for gp3 volumes; valid values are 125 to 1000.`);
  if (kmsKeyId !== undefined && encrypted !== true)
    throw new Ec2Fault(
      'InvalidParameterDependency',
      'The parameter KmsKeyId requires the parameter Encrypted to be set.',
    );
  const deleteOnTermination = bool(e.get('DeleteOnTermination'));
  return {
    deviceName,
    volumeType: type,
    ...(size !== undefined ? { volumeSize: size } : {}),
    ...(iops !== undefined ? { iops } : {}),
    ...(throughput !== undefined ? { throughput } : {}),
    ...(encrypted !== undefined ? { encrypted } : {}),
    ...(kmsKeyId !== undefined ? { kmsKeyId } : {}),
    ...(deleteOnTermination !== undefined ? { deleteOnTermination } : {}),
    ...(snapshotId !== undefined ? { snapshotId } : {}),
  };
}

/** The settings of LaunchTemplateData, with EC2's defaults (IMDS enabled, tokens optional, hop limit 1). */
export function templateSettings(
  data: Params,
): EmuTemplateSettings & { readonly nicGroups?: readonly string[] } {
  const blockDevices = membersOf(data, 'BlockDeviceMapping').map(blockDevice);
  const names = blockDevices.map((b) => b.deviceName);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw bad(`The device name ${twice} is used more than once.`);
  const md = structOf(data, 'MetadataOptions');
  const hop = int(md.get('HttpPutResponseHopLimit'), 'HttpPutResponseHopLimit') ?? 1;
  if (hop < 1 || hop > 64)
    throw bad(`The HttpPutResponseHopLimit value ${hop} is invalid. Valid values: 1 to 64.`);
  const metadataOptions = {
    httpEndpoint: oneOf(md.get('HttpEndpoint'), 'HttpEndpoint', ['enabled', 'disabled'], 'enabled'),
    httpProtocolIpv6: oneOf(
      md.get('HttpProtocolIpv6'),
      'HttpProtocolIpv6',
      ['enabled', 'disabled'],
      'disabled',
    ),
    httpPutResponseHopLimit: hop,
    httpTokens: oneOf(md.get('HttpTokens'), 'HttpTokens', ['required', 'optional'], 'optional'),
    instanceMetadataTags: oneOf(
      md.get('InstanceMetadataTags'),
      'InstanceMetadataTags',
      ['enabled', 'disabled'],
      'disabled',
    ),
  };
  const nics = membersOf(data, 'NetworkInterface');
  if (nics.length > 0 && listOf(data, 'SecurityGroupId').length > 0)
    throw combination(
      'Network interfaces and an instance-level security groups may not be specified on the same request',
    );
  const primary = nics.find((n) => (n.get('DeviceIndex') ?? '0') === '0');
  const publicIp = bool(primary?.get('AssociatePublicIpAddress'));
  return {
    blockDevices,
    metadataOptions,
    ...(publicIp !== undefined ? { associatePublicIpAddress: publicIp } : {}),
    monitoring: bool(structOf(data, 'Monitoring').get('Enabled')) ?? false,
    ...(primary ? { nicGroups: listOf(primary, 'SecurityGroupId') } : {}),
  };
}

/** The settings as DescribeLaunchTemplateVersions' launchTemplateData writes them. */
export function settingsXml(s: EmuTemplateSettings) {
  return {
    blockDeviceMappingSet: s.blockDevices.map((b) => ({
      deviceName: b.deviceName,
      ebs: {
        volumeSize: b.volumeSize,
        volumeType: b.volumeType,
        iops: b.iops,
        throughput: b.throughput,
        encrypted: b.encrypted,
        kmsKeyId: b.kmsKeyId,
        deleteOnTermination: b.deleteOnTermination,
        snapshotId: b.snapshotId,
      },
    })),
    metadataOptions: { ...s.metadataOptions },
    monitoring: { enabled: s.monitoring },
  };
}
