// The EC2 adapter labels a GPU type's model as the built-in catalog and Compute Engine do (h100-80gb, not
// h100), so a pod selecting `kraftsman.dev/gpu-model` can land on either cloud whichever source the types
// come from: every AWS GPU type of the catalog, described as DescribeInstanceTypes would, gets its label.
import type { InstanceTypeInfo } from '@aws-sdk/client-ec2';
import { describe, expect, it } from 'vitest';
import { gpuModel, toInstanceTypeSpec } from '../../../shared/adapters/aws-ec2/instance-types.ts';
import { builtinCatalog } from '../../../shared/catalog/builtin.ts';

const gpuTypes = builtinCatalog().instanceTypes.filter(
  (t) => t.cloud === 'aws' && t.labels?.['kraftsman.dev/gpu-model'] !== undefined,
);

function described(labels: Readonly<Record<string, string>>, name: string): InstanceTypeInfo {
  return {
    InstanceType: name as InstanceTypeInfo['InstanceType'],
    VCpuInfo: { DefaultVCpus: Number(labels['karpenter.k8s.aws/instance-cpu']) },
    MemoryInfo: { SizeInMiB: Number(labels['karpenter.k8s.aws/instance-memory']) },
    GpuInfo: {
      Gpus: [
        {
          // DescribeInstanceTypes spells the name in capitals (H100, A10G, L40S).
          Name: String(labels['karpenter.k8s.aws/instance-gpu-name']).toUpperCase(),
          Manufacturer: 'NVIDIA',
          Count: Number(labels['karpenter.k8s.aws/instance-gpu-count']),
          MemoryInfo: { SizeInMiB: Number(labels['karpenter.k8s.aws/instance-gpu-memory']) },
        },
      ],
    },
    ProcessorInfo: { SupportedArchitectures: ['x86_64'] },
    SupportedUsageClasses: ['on-demand'],
  };
}

describe('the EC2 adapter names GPU models as the catalog does', () => {
  it('covers the sized and the unsized models', () => {
    const models = new Set(gpuTypes.map((t) => t.labels?.['kraftsman.dev/gpu-model']));
    for (const m of ['h100-80gb', 'a100-40gb', 'a100-80gb', 'l4', 'a10g']) expect(models).toContain(m);
  });

  it.each(gpuTypes.map((t) => [t.name, t] as const))('%s', (_name, t) => {
    const labels = t.labels ?? {};
    const spec = toInstanceTypeSpec({
      info: described(labels, t.name),
      zones: ['us-east-1a'],
      resolved: { imageId: 'ami-1', subnets: [], securityGroupIds: [], reservations: [] },
      prices: { onDemand: () => 1, spot: () => undefined },
      maxPods: 110,
    });
    expect(spec?.labels?.['kraftsman.dev/gpu-model']).toBe(labels['kraftsman.dev/gpu-model']);
    expect(spec?.labels?.['karpenter.k8s.aws/instance-gpu-name']).toBe(
      labels['karpenter.k8s.aws/instance-gpu-name'],
    );
  });

  it('leaves a model without a memory size as it is', () => {
    expect(gpuModel('h100', 0)).toBe('h100');
    expect(gpuModel('t4', 16384)).toBe('t4');
  });
});
