// Launch templates named by a hash of their content, created once and reused (Karpenter's pattern):
// CreateFleet needs one, and identical claims of a pool share it.
import { createHash } from 'node:crypto';
import {
  CreateLaunchTemplateCommand,
  DescribeLaunchTemplatesCommand,
  type EC2Client,
} from '@aws-sdk/client-ec2';
import { networkInterfaces, type LaunchSettings } from './launch-settings.ts';

export interface TemplateContent {
  readonly cluster: string;
  readonly imageId: string;
  readonly securityGroupIds: readonly string[];
  readonly userData: string;
  readonly tags: Readonly<Record<string, string>>;
  readonly capacityReservationId?: string;
  /** The node's IAM instance profile: spec.instanceProfile, or the one made for spec.role (instance-profiles.ts). */
  readonly instanceProfile?: string;
  /** Block devices, metadata options, public IP, monitoring (launch-settings.ts); absent: EC2's defaults. */
  readonly settings?: LaunchSettings;
}

type Call = <T>(what: string, op: () => Promise<T>) => Promise<T>;

export function templateName(c: TemplateContent): string {
  const hash = createHash('sha256')
    .update(
      JSON.stringify([
        c.imageId,
        c.securityGroupIds,
        c.userData,
        c.tags,
        c.capacityReservationId ?? '',
        c.instanceProfile ?? '',
        c.settings ?? null,
      ]),
    )
    .digest('hex')
    .slice(0, 24);
  return `kraftsman/${c.cluster}/${hash}`;
}

const codeOf = (err: unknown): string => (err instanceof Error ? err.name : '');

/** Returns the name of a launch template with this content, creating it when it does not exist yet. */
export async function ensureLaunchTemplate(
  ec2: EC2Client,
  call: Call,
  content: TemplateContent,
): Promise<string> {
  const name = templateName(content);
  try {
    await call('DescribeLaunchTemplates', () =>
      ec2.send(new DescribeLaunchTemplatesCommand({ LaunchTemplateNames: [name] })),
    );
    return name;
  } catch (err) {
    if (
      codeOf(err) !== 'InvalidLaunchTemplateName.NotFoundException' &&
      !(err instanceof Error && codeOf(err.cause) === 'InvalidLaunchTemplateName.NotFoundException')
    )
      throw err;
  }
  const tags = Object.entries(content.tags).map(([Key, Value]) => ({ Key, Value }));
  const nics = networkInterfaces(content.settings, content.securityGroupIds);
  try {
    await call('CreateLaunchTemplate', () =>
      ec2.send(
        new CreateLaunchTemplateCommand({
          LaunchTemplateName: name,
          LaunchTemplateData: {
            ImageId: content.imageId,
            // With a network interface the security groups are named in it, never beside it (EC2 refuses both).
            ...(nics ? { NetworkInterfaces: nics } : { SecurityGroupIds: [...content.securityGroupIds] }),
            UserData: Buffer.from(content.userData, 'utf8').toString('base64'),
            MetadataOptions: content.settings?.metadataOptions ?? {
              HttpTokens: 'required',
              HttpPutResponseHopLimit: 1,
            },
            ...(content.settings
              ? {
                  BlockDeviceMappings: [...content.settings.blockDeviceMappings],
                  Monitoring: { Enabled: content.settings.detailedMonitoring },
                }
              : {}),
            TagSpecifications: [
              { ResourceType: 'volume', Tags: tags },
              ...(content.settings ? [{ ResourceType: 'network-interface' as const, Tags: tags }] : []),
            ],
            ...(content.instanceProfile ? { IamInstanceProfile: { Name: content.instanceProfile } } : {}),
            ...(content.capacityReservationId
              ? {
                  CapacityReservationSpecification: {
                    CapacityReservationTarget: { CapacityReservationId: content.capacityReservationId },
                  },
                }
              : {}),
          },
          TagSpecifications: [{ ResourceType: 'launch-template', Tags: tags }],
        }),
      ),
    );
  } catch (err) {
    // Another launcher created the same template first: its content is the same by construction.
    const already = (e: unknown): boolean => codeOf(e) === 'InvalidLaunchTemplateName.AlreadyExistsException';
    if (!already(err) && !(err instanceof Error && already(err.cause))) throw err;
  }
  return name;
}
