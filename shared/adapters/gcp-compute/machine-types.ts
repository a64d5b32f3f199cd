// Instance types a GCE node class can launch: machine types per zone (bundled GPUs on A2/A3/G2)
// plus N1 machine types with attachable accelerators, priced from the price book; capacity and
// overhead computed like GKE's node allocatable.
import type { protos } from '@google-cloud/compute';
import type { InstanceTypeSpec, Offering } from '../../model/catalog.ts';

type MachineType = protos.google.cloud.compute.v1.IMachineType;
type AcceleratorType = protos.google.cloud.compute.v1.IAcceleratorType;

export interface GcePriceBook {
  onDemand(instanceType: string, zone: string): number | undefined;
  spot(instanceType: string, zone: string): number | undefined;
}

/** GKE's kube-reserved memory: 25% of the first 4 GiB, 20% of the next 4, 10% of the next 8, 6% of the next 112, 2% above; plus 100Mi eviction. */
export function gkeReservedMemoryMi(memoryMi: number): number {
  const steps: [number, number][] = [
    [4096, 0.25],
    [4096, 0.2],
    [8192, 0.1],
    [114688, 0.06],
    [Number.POSITIVE_INFINITY, 0.02],
  ];
  let left = memoryMi;
  let reserved = 0;
  for (const [size, share] of steps) {
    const n = Math.min(left, size);
    reserved += n * share;
    left -= n;
    if (left <= 0) break;
  }
  return Math.ceil(reserved) + 100;
}

/** GKE's kube-reserved CPU: 6% of the first core, 1% of the next, 0.5% of the next two, 0.25% above four. */
export function gkeReservedCpuMilli(cpus: number): number {
  const steps: [number, number][] = [
    [1, 0.06],
    [1, 0.01],
    [2, 0.005],
    [Number.POSITIVE_INFINITY, 0.0025],
  ];
  let left = cpus;
  let milli = 0;
  for (const [n, share] of steps) {
    const take = Math.min(left, n);
    milli += take * 1000 * share;
    left -= take;
    if (left <= 0) break;
  }
  return Math.round(milli);
}

/** Attachable GPUs (N1 only); bundled ones come with their machine type. */
const ATTACHABLE = /^nvidia-tesla-(t4|v100|p4|p100)$/;

export interface TypeShape {
  readonly name: string;
  readonly cpus: number;
  readonly memoryMi: number;
  readonly gpu?: { readonly type: string; readonly count: number };
  readonly zones: string[];
}

/** Shapes across zones: every machine type, and n1-standard × attachable GPU × 1/2/4 cards. */
export function shapesOf(
  byZone: ReadonlyMap<string, { machineTypes: MachineType[]; accelerators: AcceleratorType[] }>,
): TypeShape[] {
  const shapes = new Map<string, TypeShape>();
  const add = (s: Omit<TypeShape, 'zones'>, zone: string): void => {
    const seen = shapes.get(s.name) ?? { ...s, zones: [] };
    seen.zones.push(zone);
    shapes.set(s.name, seen);
  };
  for (const [zone, { machineTypes, accelerators }] of byZone) {
    for (const m of machineTypes) {
      const bundled = m.accelerators?.[0];
      add(
        {
          name: m.name ?? '',
          cpus: m.guestCpus ?? 0,
          memoryMi: m.memoryMb ?? 0,
          ...(bundled
            ? { gpu: { type: bundled.guestAcceleratorType ?? '', count: bundled.guestAcceleratorCount ?? 0 } }
            : {}),
        },
        zone,
      );
      if (!m.name?.startsWith('n1-standard-')) continue;
      for (const a of accelerators.filter((x) => ATTACHABLE.test(x.name ?? ''))) {
        for (const count of [1, 2, 4].filter((c) => c <= (a.maximumCardsPerInstance ?? 0))) {
          add(
            {
              name: `${m.name}_${a.name}_${count}`,
              cpus: m.guestCpus ?? 0,
              memoryMi: m.memoryMb ?? 0,
              gpu: { type: a.name ?? '', count },
            },
            zone,
          );
        }
      }
    }
  }
  return [...shapes.values()];
}

export function toInstanceTypeSpec(
  shape: TypeShape,
  prices: GcePriceBook,
  maxPods = 110,
  diskGiB = 100,
): InstanceTypeSpec | undefined {
  const offerings: Offering[] = [];
  for (const zone of [...shape.zones].sort()) {
    const od = prices.onDemand(shape.name, zone);
    if (od !== undefined) offerings.push({ zone, capacityType: 'on-demand', price: od, available: true });
    const sp = prices.spot(shape.name, zone);
    if (sp !== undefined) offerings.push({ zone, capacityType: 'spot', price: sp, available: true });
  }
  if (offerings.length === 0) return undefined;
  const family = shape.name.split('-')[0] ?? '';
  const model = shape.gpu?.type.replace(/^nvidia-(tesla-)?/, '') ?? '';
  return {
    name: shape.name,
    cloud: 'gcp',
    arch: /^(t2a|c4a)-/.test(shape.name) ? 'arm64' : 'amd64',
    capacity: {
      cpu: String(shape.cpus),
      memory: `${shape.memoryMi}Mi`,
      pods: String(maxPods),
      'ephemeral-storage': `${diskGiB}Gi`,
      ...(shape.gpu ? { 'nvidia.com/gpu': String(shape.gpu.count) } : {}),
    },
    overhead: {
      cpu: `${gkeReservedCpuMilli(shape.cpus)}m`,
      memory: `${gkeReservedMemoryMi(shape.memoryMi)}Mi`,
    },
    labels: {
      'cloud.google.com/machine-family': family,
      ...(shape.gpu
        ? {
            'cloud.google.com/gke-accelerator': shape.gpu.type,
            'kraftsman.dev/gpu-model': model,
            'kraftsman.dev/gpu-count': String(shape.gpu.count),
          }
        : {}),
    },
    offerings,
  };
}
