// A node class's kubelet settings and root volume in an instance type's capacity and allocatable, as Karpenter's
// NewInstanceType computes them (aws/karpenter-provider-aws pkg/providers/instancetype/types.go): pods from maxPods
// and podsPerCore, kube-reserved per resource overriding the default, system-reserved added, eviction thresholds the
// larger of evictionHard and evictionSoft, ephemeral-storage the root volume (docs/node-classes.md#allocatable).
import { quantityMilli } from '../model/quantity.ts';
import type { KubeletConfiguration } from '../model/nodeclass-fields.ts';
import type { MutableResourceList, ResourceList } from '../model/resources.ts';
import {
  AWS_VM_MEMORY_OVERHEAD_PERCENT,
  EVICTION_MEMORY_MI,
  GCP_KUBE_PROXY_CPU_MILLI,
  GCP_VM_MEMORY_OVERHEAD_PERCENT,
  gkeReservedMemoryMiB,
  reservedCpuMilli,
} from './overhead.ts';

const MI = 1024 * 1024 * 1000; // one MiB in milli-units
const GI = 1024 * MI;
const KEYS = ['cpu', 'memory', 'ephemeral-storage'] as const;
type Triple = Record<(typeof KEYS)[number], number>;

export interface KubeletShape {
  readonly cloud: 'aws' | 'gcp';
  /** Bottlerocket ignores podsPerCore and evictionSoft in the allocatable (Karpenter's FeatureFlags). */
  readonly family: string;
  readonly kubelet: KubeletConfiguration;
  /** The root volume (or boot disk) in milli-bytes, when the node class names one. */
  readonly storage?: number;
}

/** The kubelet's reading of a threshold: a percentage of capacity (100% disables it), else a quantity. */
function signal(capacity: number, value: string): number {
  if (!value.endsWith('%')) return quantityMilli(value);
  const p = Number(value.slice(0, -1));
  return p === 100 ? 0 : Math.ceil((capacity / 1000 / 100) * p) * 1000;
}

/** The defaults a catalog's overhead holds, per cloud (overhead.ts): kube-reserved, system-reserved, eviction. */
function defaults(cloud: 'aws' | 'gcp', cap: ResourceList, pods: number, storage: number) {
  const vcpus = (cap.cpu ?? 0) / 1000;
  const memMi = Math.floor((cap.memory ?? 0) / MI);
  if (cloud === 'aws')
    return {
      kube: { cpu: reservedCpuMilli(vcpus), memory: (11 * pods + 255) * MI, 'ephemeral-storage': GI },
      system: { cpu: 0, memory: 0, 'ephemeral-storage': 0 },
      evict: {
        cpu: 0,
        memory: EVICTION_MEMORY_MI * MI,
        'ephemeral-storage': Math.ceil(storage / 1000 / 10) * 1000,
      },
      evictionMemory: (cap.memory ?? 0) - Math.ceil(memMi * AWS_VM_MEMORY_OVERHEAD_PERCENT) * MI,
    };
  const gi = Math.floor(storage / GI);
  return {
    kube: { cpu: reservedCpuMilli(vcpus), memory: gkeReservedMemoryMiB(memMi) * MI, 'ephemeral-storage': 0 },
    system: {
      cpu: GCP_KUBE_PROXY_CPU_MILLI,
      memory: 0,
      'ephemeral-storage': Math.min(Math.round(gi * 0.5), Math.round(gi * 0.35 + 6), 100) * GI,
    },
    evict: { cpu: 0, memory: EVICTION_MEMORY_MI * MI, 'ephemeral-storage': Math.trunc(gi * 0.1) * GI },
    evictionMemory: (cap.memory ?? 0) - Math.trunc((cap.memory ?? 0) * GCP_VM_MEMORY_OVERHEAD_PERCENT),
  };
}

const sum = (...xs: Triple[]): Triple => {
  const out: Triple = { cpu: 0, memory: 0, 'ephemeral-storage': 0 };
  for (const x of xs) for (const k of KEYS) out[k] += x[k];
  return out;
};

/**
 * Capacity and allocatable of one instance type under the node class. Whatever else the catalog's overhead holds
 * (the VM's memory, a user catalog's own figures) is kept: only the default reservations are exchanged for the node
 * class's, so a node class without kubelet settings or volumes leaves the type as it was.
 */
export function kubeletAdjusted(
  shape: KubeletShape,
  capacity: ResourceList,
  allocatable: ResourceList,
): { capacity: MutableResourceList; allocatable: MutableResourceList } {
  const k = shape.kubelet;
  const vcpus = (capacity.cpu ?? 0) / 1000;
  const oldPods = Math.round((capacity.pods ?? 0) / 1000);
  let pods = k.maxPods ?? oldPods;
  if ((k.podsPerCore ?? 0) > 0 && shape.family !== 'Bottlerocket')
    pods = Math.min(pods, (k.podsPerCore as number) * Math.trunc(vcpus));
  const oldStorage = capacity['ephemeral-storage'] ?? 0;
  const storage = shape.storage ?? oldStorage;
  const was = defaults(shape.cloud, capacity, oldPods, oldStorage);
  const now = defaults(shape.cloud, capacity, pods, storage);
  const reservedOf = (given: Readonly<Record<string, string>> | undefined, base: Triple): Triple => {
    const out = { ...base };
    for (const key of KEYS) if (given?.[key] !== undefined) out[key] = quantityMilli(given[key]);
    return out;
  };
  const kube = reservedOf(k.kubeReserved, now.kube);
  // AWS adds systemReserved (its default is none); GCP's default is kube-proxy's CPU, which a given value replaces.
  const system =
    shape.cloud === 'aws'
      ? sum(now.system, reservedOf(k.systemReserved, sum()))
      : reservedOf(k.systemReserved, now.system);
  const evict = { ...now.evict };
  const maps = [k.evictionHard, shape.family !== 'Bottlerocket' ? k.evictionSoft : undefined];
  const override: Partial<Triple> = {};
  for (const m of maps) {
    if (!m) continue;
    const mem = m['memory.available'];
    const fs = m['nodefs.available'];
    if (mem !== undefined) override.memory = Math.max(override.memory ?? 0, signal(now.evictionMemory, mem));
    if (fs !== undefined)
      override['ephemeral-storage'] = Math.max(override['ephemeral-storage'] ?? 0, signal(storage, fs));
  }
  Object.assign(evict, override);
  // A catalog type without a pod count keeps none unless the node class sets maxPods.
  const podCount: ResourceList =
    capacity.pods !== undefined || k.maxPods !== undefined ? { pods: pods * 1000 } : {};
  const cap: MutableResourceList = { ...capacity, ...podCount };
  if (capacity['ephemeral-storage'] !== undefined) cap['ephemeral-storage'] = storage;
  const alloc: MutableResourceList = { ...allocatable, ...podCount };
  const before = sum(was.kube, was.system, was.evict);
  const after = sum(kube, system, evict);
  for (const key of KEYS) {
    if (capacity[key] === undefined) continue;
    const other = Math.max(0, (capacity[key] ?? 0) - (allocatable[key] ?? 0) - before[key]);
    alloc[key] = Math.max(0, (cap[key] ?? 0) - other - after[key]);
  }
  return { capacity: cap, allocatable: alloc };
}
