// Instance types a GCE node class can launch: machine types per zone (bundled GPUs on A2/A3/G2)
// plus N1 machine types with attachable accelerators, priced from the price book; capacity and
// overhead computed as the built-in catalog computes it (GKE's node allocatable plus VM overhead).
import type { protos } from '@google-cloud/compute';
import { gcpOverhead } from '../../catalog/overhead.ts';
import { machineArch } from '../../model/gce-images.ts';
import type { InstanceTypeSpec, Offering } from '../../model/catalog.ts';

type MachineType = protos.google.cloud.compute.v1.IMachineType;
type AcceleratorType = protos.google.cloud.compute.v1.IAcceleratorType;

export interface GcePriceBook {
  onDemand(instanceType: string, zone: string): number | undefined;
  spot(instanceType: string, zone: string): number | undefined;
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
    arch: machineArch(shape.name),
    capacity: {
      cpu: String(shape.cpus),
      memory: `${shape.memoryMi}Mi`,
      pods: String(maxPods),
      'ephemeral-storage': `${diskGiB}Gi`,
      ...(shape.gpu ? { 'nvidia.com/gpu': String(shape.gpu.count) } : {}),
    },
    // the same formula as the built-in catalog, so a type prices and fits alike from either source
    overhead: { ...gcpOverhead({ vcpus: shape.cpus, memoryMiB: shape.memoryMi }) },
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
