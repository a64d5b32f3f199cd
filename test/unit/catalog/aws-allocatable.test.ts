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

/** name, vCPUs, MiB, pods, GPUs, allocatable cpu and memory; ENIs × IPv4 per ENI where they give the pods. */
const ref = (
  name: string,
  [vcpus, memoryMiB, pods, gpus]: readonly [number, number, number, number],
  [cpu, memory]: readonly [string, string],
  enis?: readonly [number, number],
): Reference => ({
  name,
  vcpus,
  memoryMiB,
  pods,
  gpus,
  allocatable: { cpu, memory },
  ...(enis ? { enis } : {}),
});

const REFERENCE: readonly Reference[] = [
  ref('g5.xlarge', [4, 16384, 58, 1], ['3920m', '14162Mi'], [4, 15]),
  ref('c3.xlarge', [4, 7680, 58, 0], ['3920m', '6111Mi'], [4, 15]),
  ref('i7ie.3xlarge', [12, 98304, 58, 0], ['11900m', '89938Mi'], [4, 15]),
  ref('g6e.12xlarge', [48, 393216, 292, 4], ['47810m', '360157Mi']),
  ref('g6e.48xlarge', [192, 1572864, 492, 8], ['191450m', '1449132Mi']),
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
      prices: { onDemand: () => 1, spot: () => undefined },
      ...(r.enis ? {} : { maxPods: r.pods }),
    });
    expect(spec?.capacity.pods).toBe(String(r.pods));
    expect(spec && allocatableOf(spec)).toEqual(expected(r));
  });
});
