// The EC2 adapter shapes AMD GPUs and Neuron devices (Inferentia, Trainium) as Karpenter's AWS provider and the
// built-in catalog do: amd.com/gpu, aws.amazon.com/neuron and aws.amazon.com/neuroncore, with their labels.
import type { InstanceTypeInfo } from '@aws-sdk/client-ec2';
import { describe, expect, it } from 'vitest';
import { toInstanceTypeSpec } from '../../../shared/adapters/aws-ec2/instance-types.ts';
import { builtinType } from '../../../shared/catalog/builtin.ts';

const read = (info: InstanceTypeInfo) =>
  toInstanceTypeSpec({
    info,
    zones: ['us-east-1a'],
    resolved: { imageId: 'ami-1', subnets: [], securityGroupIds: [], reservations: [] },
    prices: { onDemand: () => 1, spot: () => undefined },
  });

describe('accelerators read live', () => {
  it('gives inf2.xlarge one Neuron device with two cores, as the built-in catalog does', () => {
    const spec = read({
      InstanceType: 'inf2.xlarge',
      VCpuInfo: { DefaultVCpus: 4 },
      MemoryInfo: { SizeInMiB: 16384 },
      NetworkInfo: { MaximumNetworkInterfaces: 4, Ipv4AddressesPerInterface: 15 },
      NeuronInfo: {
        NeuronDevices: [{ Count: 1, Name: 'Inferentia2', CoreInfo: { Count: 2, Version: 2 } }],
      },
      ProcessorInfo: { SupportedArchitectures: ['x86_64'] },
      SupportedUsageClasses: ['on-demand', 'spot'],
    });
    const builtin = builtinType('inf2.xlarge');
    for (const r of ['aws.amazon.com/neuron', 'aws.amazon.com/neuroncore', 'cpu', 'memory', 'pods'])
      expect(spec?.capacity[r], r).toBe(builtin?.capacity[r]);
    for (const l of [
      'karpenter.k8s.aws/instance-accelerator-name',
      'karpenter.k8s.aws/instance-accelerator-count',
      'karpenter.k8s.aws/instance-accelerator-manufacturer',
    ])
      expect(spec?.labels?.[l], l).toBe(builtin?.labels?.[l]);
    expect(spec?.capacity['nvidia.com/gpu']).toBeUndefined();
  });

  it('counts an AMD GPU as amd.com/gpu, never nvidia.com/gpu', () => {
    const spec = read({
      InstanceType: 'g4ad.xlarge',
      VCpuInfo: { DefaultVCpus: 4 },
      MemoryInfo: { SizeInMiB: 16384 },
      NetworkInfo: { MaximumNetworkInterfaces: 2, Ipv4AddressesPerInterface: 4 },
      GpuInfo: {
        Gpus: [{ Name: 'Radeon Pro V520', Manufacturer: 'AMD', Count: 1, MemoryInfo: { SizeInMiB: 8192 } }],
      },
      ProcessorInfo: { SupportedArchitectures: ['x86_64'] },
      SupportedUsageClasses: ['on-demand'],
    });
    expect(spec?.capacity['amd.com/gpu']).toBe('1');
    expect(spec?.capacity['nvidia.com/gpu']).toBeUndefined();
    expect(spec?.capacity.pods).toBe(builtinType('g4ad.xlarge')?.capacity.pods);
  });
});
