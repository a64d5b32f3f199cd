// Allocatable overhead (capacity − allocatable) as Karpenter's cloud providers compute it, per cloud: the one
// formula of the built-in catalog and of the EC2 and Compute Engine adapters' live instance types.
// AWS: aws/karpenter-provider-aws pkg/providers/instancetype/types.go; GCP: cloudpilot-ai/karpenter-provider-gcp
// pkg/utils/utils.go + pkg/providers/instancetype/types.go (GKE's documented reservation tiers).

const MI = 1024 * 1024;
const GI = 1024 * MI;

/** Karpenter's default --vm-memory-overhead-percent on AWS (memory the hypervisor and kernel keep). */
export const AWS_VM_MEMORY_OVERHEAD_PERCENT = 0.075;
/** The GCP provider's default --vm-memory-overhead-percent. */
export const GCP_VM_MEMORY_OVERHEAD_PERCENT = 0.07;
/** kube-proxy runs as a mirror pod on GKE nodes; the GCP provider reserves its request as system-reserved. */
export const GCP_KUBE_PROXY_CPU_MILLI = 100;
/** Both providers' default memory.available eviction threshold. */
export const EVICTION_MEMORY_MI = 100;
/** AWS root volume Karpenter assumes without blockDeviceMappings (AL2023), and GCP's default boot disk. */
export const AWS_EPHEMERAL_GI = 20;
export const GCP_BOOT_DISK_GI = 100;

/**
 * kube-reserved CPU, the same tiers on both clouds (Bottlerocket's and GKE's formula): 6% of the first
 * core, 1% of the second, 0.5% of cores 3–4, 0.25% of every core above 4; each tier truncated to whole millicores.
 */
export function reservedCpuMilli(vcpus: number): number {
  const cpu = vcpus * 1000;
  const tiers: ReadonlyArray<readonly [number, number, number]> = [
    [0, 1000, 0.06],
    [1000, 2000, 0.01],
    [2000, 4000, 0.005],
    [4000, Number.POSITIVE_INFINITY, 0.0025],
  ];
  let reserved = 0;
  for (const [start, end, pct] of tiers) {
    if (cpu <= start) break;
    reserved += Math.trunc((Math.min(cpu, end) - start) * pct);
  }
  return reserved;
}

/** GKE's memory reservation: 25% of the first 4 GiB, 20% of the next 4, 10% of the next 8, 6% up to 128 GiB, 2% above; 255 MiB under 1 GiB. */
export function gkeReservedMemoryMiB(memoryMiB: number): number {
  if (memoryMiB <= 1024) return 255;
  const tiers: ReadonlyArray<readonly [number, number]> = [
    [4096, 0.25],
    [4096, 0.2],
    [8192, 0.1],
    [114688, 0.06],
    [Number.POSITIVE_INFINITY, 0.02],
  ];
  let left = memoryMiB;
  let reserved = 0;
  for (const [size, pct] of tiers) {
    if (left <= 0) break;
    reserved += Math.trunc(Math.min(left, size) * pct);
    left -= size;
  }
  return reserved;
}

export interface Overhead {
  readonly cpu: string;
  readonly memory: string;
  readonly 'ephemeral-storage': string;
}

/**
 * AWS: VM overhead ceil(7.5% of memory) (Karpenter subtracts it from capacity; we fold it into overhead so
 * capacity stays the instance's nominal size), kube-reserved memory 11 MiB × ENI-limited max pods + 255 MiB,
 * eviction 100 MiB; ephemeral-storage 1 GiB kube-reserved + 10% of the 20 GiB root volume.
 */
export function awsOverhead(shape: { vcpus: number; memoryMiB: number; maxPods: number }): Overhead {
  const vmMi = Math.ceil(shape.memoryMiB * AWS_VM_MEMORY_OVERHEAD_PERCENT);
  const kubeReservedMi = 11 * shape.maxPods + 255;
  const ephemeral = 1 * GI + Math.ceil(((AWS_EPHEMERAL_GI * GI) / 100) * 10);
  return {
    cpu: `${reservedCpuMilli(shape.vcpus)}m`,
    memory: `${vmMi + kubeReservedMi + EVICTION_MEMORY_MI}Mi`,
    'ephemeral-storage': `${ephemeral / GI}Gi`,
  };
}

/**
 * GCP: VM overhead trunc(7% of memory bytes), GKE kube-reserved tiers, eviction 100 MiB; CPU tiers plus
 * kube-proxy's 100m; ephemeral-storage on a 100 GiB boot disk: 10% eviction + min(50%, 35% + 6 GiB, 100 GiB).
 */
export function gcpOverhead(shape: { vcpus: number; memoryMiB: number }): Overhead {
  const bytes = shape.memoryMiB * MI;
  const vmBytes = Math.trunc(bytes * GCP_VM_MEMORY_OVERHEAD_PERCENT); // int64(float64(total) × percent), as the provider
  const memory = vmBytes + (gkeReservedMemoryMiB(shape.memoryMiB) + EVICTION_MEMORY_MI) * MI;
  const evictionGi = Math.trunc(GCP_BOOT_DISK_GI * 0.1);
  const systemGi = Math.min(Math.round(GCP_BOOT_DISK_GI * 0.5), Math.round(GCP_BOOT_DISK_GI * 0.35 + 6), 100);
  return {
    cpu: `${reservedCpuMilli(shape.vcpus) + GCP_KUBE_PROXY_CPU_MILLI}m`,
    memory: memory % MI === 0 ? `${memory / MI}Mi` : memory % 1024 === 0 ? `${memory / 1024}Ki` : `${memory}`,
    'ephemeral-storage': `${evictionGi + systemGi}Gi`,
  };
}
