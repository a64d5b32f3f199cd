// Both AWS sources of instance types, the built-in catalog's formula and the EC2 adapter reading
// DescribeInstanceTypes, give the allocatable Karpenter publishes for the same type. Reference values are
// copied from aws/karpenter-provider-aws website/content/en/docs/reference/instance-types.md (AL2023, no
// blockDeviceMappings), not computed: cpu, memory and ephemeral-storage under "Resources".
import type { InstanceTypeInfo } from '@aws-sdk/client-ec2';
import { describe, expect, it } from 'vitest';
import { toInstanceTypeSpec } from '../../../shared/adapters/aws-ec2/instance-types.ts';
import { awsOverhead } from '../../../shared/catalog/overhead.ts';
import { fromQuantities } from '../../../shared/model/resources.ts';
import { buildInstanceTypes } from '../../../shared/scheduling/instance-type.ts';

interface Reference {
  readonly name: string;
  readonly vcpus: number;
  readonly memoryMiB: number;
  /** Published pod density; `enis` × `ipsPerEni` gives it where the ENI limits are the well-known ones. */
  readonly pods: number;
  readonly enis?: readonly [number, number];
  readonly gpus: number;
  readonly allocatable: { readonly cpu: string; readonly memory: string };
}

const REFERENCE: readonly Reference[] = [
  {
    name: 'g5.xlarge',
    vcpus: 4,
    memoryMiB: 16384,
    pods: 58,
    enis: [4, 15],
    gpus: 1,
    allocatable: { cpu: '3920m', memory: '14162Mi' },
  },
  {
    name: 'c3.xlarge',
    vcpus: 4,
    memoryMiB: 7680,
    pods: 58,
    enis: [4, 15],
    gpus: 0,
    allocatable: { cpu: '3920m', memory: '6111Mi' },
  },
  {
    name: 'i7ie.3xlarge',
    vcpus: 12,
    memoryMiB: 98304,
    pods: 58,
    enis: [4, 15],
    gpus: 0,
    allocatable: { cpu: '11900m', memory: '89938Mi' },
  },
  {
    name: 'g6e.12xlarge',
    vcpus: 48,
    memoryMiB: 393216,
    pods: 292,
    gpus: 4,
    allocatable: { cpu: '47810m', memory: '360157Mi' },
  },
  {
    name: 'g6e.48xlarge',
    vcpus: 192,
    memoryMiB: 1572864,
    pods: 492,
    gpus: 8,
    allocatable: { cpu: '191450m', memory: '1449132Mi' },
  },
];
/** Every type above: 20 GiB root volume less 1 GiB kube-reserved and the 10% eviction threshold. */
const EPHEMERAL = '17Gi';

const expected = (r: Reference) =>
  fromQuantities({ cpu: r.allocatable.cpu, memory: r.allocatable.memory, 'ephemeral-storage': EPHEMERAL });
const allocatableOf = (spec: Parameters<typeof buildInstanceTypes>[0][number]) => {
  const [type] = buildInstanceTypes([spec]);
  const a = type?.allocatable ?? {};
  return { cpu: a.cpu, memory: a.memory, 'ephemeral-storage': a['ephemeral-storage'] };
};

function describeInstanceType(r: Reference): InstanceTypeInfo {
  return {
    InstanceType: r.name as InstanceTypeInfo['InstanceType'],
    VCpuInfo: { DefaultVCpus: r.vcpus },
    MemoryInfo: { SizeInMiB: r.memoryMiB },
    ...(r.enis
      ? { NetworkInfo: { MaximumNetworkInterfaces: r.enis[0], Ipv4AddressesPerInterface: r.enis[1] } }
      : {}),
    ...(r.gpus > 0
      ? {
          GpuInfo: {
            Gpus: [{ Name: 'L40S', Manufacturer: 'NVIDIA', Count: r.gpus, MemoryInfo: { SizeInMiB: 45776 } }],
          },
        }
      : {}),
    ProcessorInfo: { SupportedArchitectures: ['x86_64'] },
    SupportedUsageClasses: ['on-demand'],
  };
}

describe("AWS allocatable matches Karpenter's published figures", () => {
  it.each(REFERENCE)('built-in catalog formula: $name', (r) => {
    const spec = {
      name: r.name,
      cloud: 'aws' as const,
      arch: 'amd64' as const,
      capacity: {
        cpu: String(r.vcpus),
        memory: `${r.memoryMiB}Mi`,
        'ephemeral-storage': '20Gi',
        pods: String(r.pods),
      },
      overhead: { ...awsOverhead({ vcpus: r.vcpus, memoryMiB: r.memoryMiB, maxPods: r.pods }) },
      offerings: [{ zone: 'us-east-1a', capacityType: 'on-demand' as const, price: 1, available: true }],
    };
    expect(allocatableOf(spec)).toEqual(expected(r));
  });

  it.each(REFERENCE)('EC2 adapter from DescribeInstanceTypes: $name', (r) => {
    const spec = toInstanceTypeSpec({
      info: describeInstanceType(r),
      zones: ['us-east-1a'],
      resolved: { imageId: 'ami-1', subnets: [], securityGroupIds: [], reservations: [] },
      prices: { onDemand: () => 1, spot: () => undefined, source: 'test' },
      ...(r.enis ? {} : { maxPods: r.pods }),
    });
    expect(spec?.capacity.pods).toBe(String(r.pods));
    expect(spec && allocatableOf(spec)).toEqual(expected(r));
  });
});
