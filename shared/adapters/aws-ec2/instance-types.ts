// Instance types a node class can launch: shapes from DescribeInstanceTypes, zones from
// DescribeInstanceTypeOfferings ∩ the node class's subnets, prices from the caller's price lookup; capacity and
// overhead computed as the built-in catalog computes them (shared/catalog/overhead.ts), so a type read live
// and the same type in the catalog have one allocatable.
import type { InstanceTypeInfo } from '@aws-sdk/client-ec2';
import { AWS_EPHEMERAL_GI, awsOverhead } from '../../catalog/overhead.ts';
import type { InstanceTypeSpec, Offering } from '../../model/catalog.ts';
import type { PriceLookup } from '../../ports/price-store.ts';
import type { ResolvedNodeClass } from './node-class-resolver.ts';

/** ENI-limited pod density, as the VPC CNI computes it (Karpenter's default without maxPods). */
export function eniLimitedPods(info: InstanceTypeInfo): number {
  const enis = info.NetworkInfo?.MaximumNetworkInterfaces ?? 1;
  const ips = info.NetworkInfo?.Ipv4AddressesPerInterface ?? 2;
  return enis * (ips - 1) + 2;
}

/** GPUs sold in several memory sizes are told apart by it, as the built-in catalog and Compute Engine name them. */
const SIZED_GPUS = new Set(['a100', 'h100', 'h200', 'b200']);

/** The cloud-neutral model label: `a100-40gb`, `h100-80gb`, `h200-141gb`; `l4`, `a10g`, `l40s` as they are. */
export const gpuModel = (name: string, memoryMiB: number): string =>
  SIZED_GPUS.has(name) && memoryMiB > 0 ? `${name}-${Math.round(memoryMiB / 1024)}gb` : name;

/** Neuron devices and cores (Inferentia, Trainium): DescribeInstanceTypes' NeuronInfo. */
export function neuronOf(info: InstanceTypeInfo): { devices: number; cores: number; name?: string } {
  const devices = info.NeuronInfo?.NeuronDevices ?? [];
  return {
    devices: devices.reduce((n, d) => n + (d.Count ?? 0), 0),
    cores: devices.reduce((n, d) => n + (d.Count ?? 0) * (d.CoreInfo?.Count ?? 0), 0),
    ...(devices[0]?.Name ? { name: devices[0].Name.toLowerCase() } : {}),
  };
}

function labelsOf(
  info: InstanceTypeInfo,
  name: string,
  vcpu: number,
  memoryMiB: number,
): Record<string, string> {
  const [family = '', size = ''] = name.split('.');
  const labels: Record<string, string> = {
    'karpenter.k8s.aws/instance-family': family,
    'karpenter.k8s.aws/instance-size': size,
    'karpenter.k8s.aws/instance-category': family.replace(/[0-9].*$/, ''),
    'karpenter.k8s.aws/instance-generation': /[0-9]+/.exec(family)?.[0] ?? '',
    'karpenter.k8s.aws/instance-cpu': String(vcpu),
    'karpenter.k8s.aws/instance-memory': String(memoryMiB),
  };
  const gpu = info.GpuInfo?.Gpus?.[0];
  if (gpu) {
    const name = (gpu.Name ?? '').toLowerCase();
    const memoryMiB = gpu.MemoryInfo?.SizeInMiB ?? 0;
    Object.assign(labels, {
      'karpenter.k8s.aws/instance-gpu-name': name,
      'karpenter.k8s.aws/instance-gpu-manufacturer': (gpu.Manufacturer ?? '').toLowerCase(),
      'karpenter.k8s.aws/instance-gpu-count': String(gpu.Count ?? 0),
      'karpenter.k8s.aws/instance-gpu-memory': String(memoryMiB),
      'kraftsman.dev/gpu-model': gpuModel(name, memoryMiB),
      'kraftsman.dev/gpu-count': String(gpu.Count ?? 0),
    });
  }
  const neuron = neuronOf(info);
  if (neuron.devices > 0)
    Object.assign(labels, {
      'karpenter.k8s.aws/instance-accelerator-name': neuron.name ?? '',
      'karpenter.k8s.aws/instance-accelerator-manufacturer': 'aws',
      'karpenter.k8s.aws/instance-accelerator-count': String(neuron.devices),
    });
  return labels;
}

export function toInstanceTypeSpec(args: {
  info: InstanceTypeInfo;
  zones: readonly string[];
  resolved: ResolvedNodeClass;
  prices: PriceLookup;
  maxPods?: number;
}): InstanceTypeSpec | undefined {
  const { info } = args;
  const name = String(info.InstanceType ?? '');
  const vcpu = info.VCpuInfo?.DefaultVCpus ?? 0;
  const memoryMiB = info.MemoryInfo?.SizeInMiB ?? 0;
  const pods = args.maxPods ?? eniLimitedPods(info);
  const gpu = info.GpuInfo?.Gpus?.[0];
  const maker = (gpu?.Manufacturer ?? '').toUpperCase();
  const nvidia = gpu && maker === 'NVIDIA' ? (gpu.Count ?? 0) : 0;
  // AMD GPUs and Neuron devices as Karpenter's AWS provider names them (amd.com/gpu, aws.amazon.com/neuron)
  const amd = gpu && maker === 'AMD' ? (gpu.Count ?? 0) : 0;
  const neuron = neuronOf(info);
  const spotOk = (info.SupportedUsageClasses ?? []).includes('spot');
  const offerings: Offering[] = [];
  for (const zone of args.zones) {
    const od = args.prices.onDemand(name, zone);
    if (od !== undefined) offerings.push({ zone, capacityType: 'on-demand', price: od, available: true });
    const sp = spotOk ? args.prices.spot(name, zone) : undefined;
    if (sp !== undefined) offerings.push({ zone, capacityType: 'spot', price: sp, available: true });
  }
  for (const r of args.resolved.reservations) {
    // Reserved capacity is already paid for: Karpenter prices it near zero so it is always chosen first.
    if (r.instanceType === name && args.zones.includes(r.zone))
      offerings.push({
        zone: r.zone,
        capacityType: 'reserved',
        price: 0,
        available: r.available > 0,
        reservationId: r.id,
        reservationCapacity: r.available,
      });
  }
  if (offerings.length === 0) return undefined;
  const capacity: Record<string, string> = {
    cpu: String(vcpu),
    memory: `${memoryMiB}Mi`,
    pods: String(pods),
    'ephemeral-storage': `${AWS_EPHEMERAL_GI}Gi`,
    ...(nvidia > 0 ? { 'nvidia.com/gpu': String(nvidia) } : {}),
    ...(amd > 0 ? { 'amd.com/gpu': String(amd) } : {}),
    ...(neuron.devices > 0 ? { 'aws.amazon.com/neuron': String(neuron.devices) } : {}),
    ...(neuron.cores > 0 ? { 'aws.amazon.com/neuroncore': String(neuron.cores) } : {}),
  };
  return {
    name,
    cloud: 'aws',
    arch: (info.ProcessorInfo?.SupportedArchitectures ?? []).includes('arm64') ? 'arm64' : 'amd64',
    capacity,
    overhead: { ...awsOverhead({ vcpus: vcpu, memoryMiB, maxPods: pods }) },
    labels: labelsOf(info, name, vcpu, memoryMiB),
    offerings,
  };
}
