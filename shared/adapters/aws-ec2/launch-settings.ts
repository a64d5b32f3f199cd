// What an EC2NodeClass asks of the launch template beyond image and user data, as Karpenter's launchtemplate.go
// writes it: block device mappings (the family's default root volume when none are given), metadata options with
// Karpenter's defaults, a public IP through the primary network interface, detailed monitoring (docs/node-classes.md).
import type {
  LaunchTemplateBlockDeviceMappingRequest,
  LaunchTemplateInstanceMetadataOptionsRequest,
  LaunchTemplateInstanceNetworkInterfaceSpecificationRequest,
} from '@aws-sdk/client-ec2';
import { bootstrapFamily } from '../../model/join-readiness.ts';
import type { EC2NodeClass } from '../../model/nodeclass.ts';
import { METADATA_DEFAULTS, volumeSizeGiB, type BlockDeviceMapping } from '../../model/nodeclass-ec2.ts';

/** The node class's launch settings, as plain data (hashed into the template's name, so a change makes a new one). */
export interface LaunchSettings {
  readonly blockDeviceMappings: readonly LaunchTemplateBlockDeviceMappingRequest[];
  readonly metadataOptions: LaunchTemplateInstanceMetadataOptionsRequest;
  readonly associatePublicIPAddress?: boolean;
  readonly detailedMonitoring: boolean;
}

/**
 * Karpenter's default volumes per family (amifamily/al2023.go, bottlerocket.go: DefaultEBS is gp3, 20Gi,
 * encrypted): AL2023's root /dev/xvda; Bottlerocket's 4Gi OS volume /dev/xvda and 20Gi data volume /dev/xvdb.
 * Custom and Kubeadm images keep the image's own mappings (Karpenter's Custom family sets none).
 */
const DEFAULT_EBS = { volumeSize: '20Gi', volumeType: 'gp3', encrypted: true } as const;
export const FAMILY_BLOCK_DEVICES: Readonly<Record<string, readonly BlockDeviceMapping[]>> = {
  AL2023: [{ deviceName: '/dev/xvda', ebs: DEFAULT_EBS }],
  Bottlerocket: [
    { deviceName: '/dev/xvda', ebs: { ...DEFAULT_EBS, volumeSize: '4Gi' } },
    { deviceName: '/dev/xvdb', ebs: DEFAULT_EBS },
  ],
};

/** One mapping as the EC2 API takes it; the size in GiB as Karpenter computes it (nodeclass-ec2.ts volumeSizeGiB). */
function mapping(m: BlockDeviceMapping): LaunchTemplateBlockDeviceMappingRequest {
  const e = m.ebs ?? {};
  return {
    DeviceName: m.deviceName,
    Ebs: {
      ...(e.volumeSize !== undefined ? { VolumeSize: volumeSizeGiB(e.volumeSize) } : {}),
      ...(e.volumeType !== undefined ? { VolumeType: e.volumeType } : {}),
      ...(e.iops !== undefined ? { Iops: e.iops } : {}),
      ...(e.throughput !== undefined ? { Throughput: e.throughput } : {}),
      ...(e.encrypted !== undefined ? { Encrypted: e.encrypted } : {}),
      ...(e.kmsKeyID !== undefined ? { KmsKeyId: e.kmsKeyID } : {}),
      ...(e.deleteOnTermination !== undefined ? { DeleteOnTermination: e.deleteOnTermination } : {}),
      ...(e.snapshotID !== undefined ? { SnapshotId: e.snapshotID } : {}),
    },
  };
}

export function launchSettings(nc: EC2NodeClass): LaunchSettings {
  const spec = nc.spec;
  const m = { ...METADATA_DEFAULTS, ...(spec.metadataOptions ?? {}) };
  const mappings = spec.blockDeviceMappings ?? FAMILY_BLOCK_DEVICES[bootstrapFamily(nc).family] ?? [];
  return {
    blockDeviceMappings: mappings.map(mapping),
    metadataOptions: {
      HttpEndpoint: m.httpEndpoint,
      HttpProtocolIpv6: m.httpProtocolIPv6,
      HttpPutResponseHopLimit: m.httpPutResponseHopLimit,
      HttpTokens: m.httpTokens,
      // Karpenter sets instance metadata tags off: it cannot propagate tag changes into the metadata service.
      InstanceMetadataTags: 'disabled',
    },
    ...(spec.associatePublicIPAddress !== undefined
      ? { associatePublicIPAddress: spec.associatePublicIPAddress }
      : {}),
    detailedMonitoring: spec.detailedMonitoring ?? false,
  };
}

/**
 * The primary network interface Karpenter writes when associatePublicIPAddress is set: the security groups move
 * into it (EC2 refuses SecurityGroupIds beside NetworkInterfaces); CreateFleet's override still picks the subnet.
 */
export function networkInterfaces(
  s: LaunchSettings | undefined,
  securityGroupIds: readonly string[],
): LaunchTemplateInstanceNetworkInterfaceSpecificationRequest[] | undefined {
  if (s?.associatePublicIPAddress === undefined) return undefined;
  return [
    { DeviceIndex: 0, AssociatePublicIpAddress: s.associatePublicIPAddress, Groups: [...securityGroupIds] },
  ];
}
