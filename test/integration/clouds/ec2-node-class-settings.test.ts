// An EC2NodeClass's launch settings reach EC2: block devices, metadata options, a public IP and detailed
// monitoring land in the launch template and on the instance (read back through the real SDK), the family's default
// root volume is used when none is given, and the emulator refuses block devices and options EC2 refuses.
import {
  CreateLaunchTemplateCommand,
  DescribeInstancesCommand,
  DescribeLaunchTemplateVersionsCommand,
  type RequestLaunchTemplateData,
} from '@aws-sdk/client-ec2';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ec2NodeClassSchema, type EC2NodeClass } from '../../../shared/model/nodeclass.ts';
import { claim } from '../../contracts/cloud-provider/contract.ts';
import { ec2NodeClass, startEc2Rig, type Ec2Rig } from './ec2-setup.ts';

const CA = Buffer.from('-----BEGIN CERTIFICATE-----\nMII\n-----END CERTIFICATE-----\n').toString('base64');

/** The rig's node class with `spec`, validated as kraftsman validates one read from the cluster. */
const nodeClass = (spec: Record<string, unknown>): EC2NodeClass =>
  ec2NodeClassSchema.parse({ ...ec2NodeClass(), spec: { ...ec2NodeClass().spec, ...spec } });

describe('EC2NodeClass launch settings reach the launch template and the instance', () => {
  let rig: Ec2Rig;
  let n = 0;
  beforeAll(async () => {
    rig = await startEc2Rig();
  });
  afterAll(() => rig.close());
  beforeEach(() => rig.reset());

  async function launch(nc: EC2NodeClass) {
    const types = await rig.provider.instanceTypes(nc);
    const { instance } = await rig.provider.create({
      claim: claim(`s-${++n}`),
      nodeClass: nc,
      instanceTypes: types,
    });
    const fleet = [...rig.emulator.world.requests].reverse().find((r) => r.action === 'CreateFleet');
    const name =
      fleet?.params.get('LaunchTemplateConfigs.1.LaunchTemplateSpecification.LaunchTemplateName') ?? '';
    const versions = await rig.ec2.send(
      new DescribeLaunchTemplateVersionsCommand({ LaunchTemplateName: name }),
    );
    const described = await rig.ec2.send(
      new DescribeInstancesCommand({ InstanceIds: [instance.providerId.split('/').pop() as string] }),
    );
    return {
      data: versions.LaunchTemplateVersions?.[0]?.LaunchTemplateData,
      ec2Instance: described.Reservations?.[0]?.Instances?.[0],
    };
  }

  it('sends the block devices (size as Karpenter asks EC2: 500Gi → 537), metadata options, public IP and monitoring', async () => {
    const { data, ec2Instance } = await launch(
      nodeClass({
        blockDeviceMappings: [
          {
            deviceName: '/dev/xvda',
            rootVolume: true,
            ebs: {
              volumeSize: '500Gi',
              volumeType: 'gp3',
              iops: 6000,
              throughput: 500,
              encrypted: true,
              kmsKeyID: 'arn:aws:kms:us-east-1:123456789012:key/abc',
              deleteOnTermination: true,
            },
          },
          { deviceName: '/dev/xvdb', ebs: { volumeSize: '1Ti', volumeType: 'io2', iops: 20000 } },
        ],
        metadataOptions: { httpPutResponseHopLimit: 2, httpProtocolIPv6: 'enabled' },
        associatePublicIPAddress: true,
        detailedMonitoring: true,
      }),
    );
    expect(data?.BlockDeviceMappings).toEqual([
      {
        DeviceName: '/dev/xvda',
        Ebs: {
          VolumeSize: 537,
          VolumeType: 'gp3',
          Iops: 6000,
          Throughput: 500,
          Encrypted: true,
          KmsKeyId: 'arn:aws:kms:us-east-1:123456789012:key/abc',
          DeleteOnTermination: true,
        },
      },
      { DeviceName: '/dev/xvdb', Ebs: { VolumeSize: 1100, VolumeType: 'io2', Iops: 20000 } },
    ]);
    // Karpenter's defaults fill what the node class leaves out; instance metadata tags stay off.
    expect(data?.MetadataOptions).toEqual({
      HttpEndpoint: 'enabled',
      HttpProtocolIpv6: 'enabled',
      HttpPutResponseHopLimit: 2,
      HttpTokens: 'required',
      InstanceMetadataTags: 'disabled',
    });
    expect(data?.Monitoring).toEqual({ Enabled: true });
    // The security groups move into the primary network interface, beside the public IP.
    expect(data?.NetworkInterfaces?.[0]).toMatchObject({ DeviceIndex: 0, AssociatePublicIpAddress: true });
    expect(data?.SecurityGroupIds ?? []).toEqual([]);
    expect(ec2Instance?.MetadataOptions).toMatchObject({
      HttpPutResponseHopLimit: 2,
      HttpTokens: 'required',
    });
    expect(ec2Instance?.Monitoring?.State).toBe('enabled');
    expect(ec2Instance?.BlockDeviceMappings?.map((b) => b.DeviceName)).toEqual(['/dev/xvda', '/dev/xvdb']);
    expect(ec2Instance?.PublicIpAddress).toMatch(/^203\.0\.113\.\d+$/);
    expect(ec2Instance?.SecurityGroups?.length).toBeGreaterThan(0);
  });

  it('gives an AL2023 node without mappings Karpenter’s default root volume, and IMDSv2 with hop limit 1', async () => {
    const { data, ec2Instance } = await launch(
      nodeClass({
        amiFamily: 'AL2023',
        userData: undefined,
        bootstrap: { apiServerEndpoint: 'https://10.0.0.1:6443', caBundle: CA, serviceCIDR: '10.100.0.0/16' },
      }),
    );
    expect(data?.BlockDeviceMappings).toEqual([
      { DeviceName: '/dev/xvda', Ebs: { VolumeSize: 22, VolumeType: 'gp3', Encrypted: true } },
    ]);
    expect(data?.MetadataOptions).toMatchObject({ HttpTokens: 'required', HttpPutResponseHopLimit: 1 });
    expect(data?.Monitoring).toEqual({ Enabled: false });
    expect(data?.SecurityGroupIds?.length).toBeGreaterThan(0);
    expect(ec2Instance?.PublicIpAddress).toBeUndefined();
  });
});

describe('the EC2 emulator refuses what EC2 refuses in a launch template', () => {
  let rig: Ec2Rig;
  let n = 0;
  beforeAll(async () => {
    rig = await startEc2Rig();
  });
  afterAll(() => rig.close());

  const create = (data: RequestLaunchTemplateData) =>
    rig.ec2.send(
      new CreateLaunchTemplateCommand({ LaunchTemplateName: `t-${++n}`, LaunchTemplateData: data }),
    );
  const ebs = (e: Record<string, unknown>) => ({
    BlockDeviceMappings: [{ DeviceName: '/dev/xvda', Ebs: e }],
  });

  it.each([
    [
      'io1 without iops',
      ebs({ VolumeSize: 100, VolumeType: 'io1' }),
      'InvalidParameterCombination',
      /must be specified for io1/,
    ],
    [
      'iops on gp2',
      ebs({ VolumeSize: 100, VolumeType: 'gp2', Iops: 300 }),
      'InvalidParameterCombination',
      /not supported for gp2/,
    ],
    [
      'gp3 iops above 16000',
      ebs({ VolumeSize: 100, VolumeType: 'gp3', Iops: 20000 }),
      'InvalidParameterValue',
      /between 3000 and 16000/,
    ],
    [
      'throughput on io2',
      ebs({ VolumeSize: 100, VolumeType: 'io2', Iops: 1000, Throughput: 200 }),
      'InvalidParameterCombination',
      /throughput is not supported for io2/,
    ],
    [
      'gp3 throughput 2000',
      ebs({ VolumeSize: 100, VolumeType: 'gp3', Throughput: 2000 }),
      'InvalidParameterValue',
      /125 to 1000/,
    ],
    ['a 20 000 GiB gp3', ebs({ VolumeSize: 20000, VolumeType: 'gp3' }), 'InvalidParameterValue', /too large/],
    ['a 10 GiB st1', ebs({ VolumeSize: 10, VolumeType: 'st1' }), 'InvalidParameterValue', /too small/],
    ['volume type gp9', ebs({ VolumeSize: 10, VolumeType: 'gp9' }), 'InvalidParameterValue', /volumeType/],
    [
      'a KMS key on an unencrypted volume',
      ebs({ VolumeSize: 10, KmsKeyId: 'k' }),
      'InvalidParameterDependency',
      /Encrypted/,
    ],
    [
      'hop limit 65',
      { MetadataOptions: { HttpPutResponseHopLimit: 65 } },
      'InvalidParameterValue',
      /1 to 64/,
    ],
    [
      'HttpTokens maybe',
      { MetadataOptions: { HttpTokens: 'maybe' as 'required' } },
      'InvalidParameterValue',
      /HttpTokens/,
    ],
    [
      'security groups beside a network interface',
      { SecurityGroupIds: ['sg-1'], NetworkInterfaces: [{ DeviceIndex: 0, AssociatePublicIpAddress: true }] },
      'InvalidParameterCombination',
      /Network interfaces/,
    ],
  ] as const)('refuses %s', async (_, data, code, message) => {
    const err = await create(data as RequestLaunchTemplateData).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(err?.name).toBe(code);
    expect(err?.message).toMatch(message);
  });

  it('accepts the same volume within EC2’s bounds', async () => {
    await expect(create(ebs({ VolumeSize: 100, VolumeType: 'io1', Iops: 3000 }))).resolves.toBeDefined();
  });
});
