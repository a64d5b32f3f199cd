// The cloud emulators' worlds for a local fleet: every instance type of the catalog the fleet is priced with
// (so what kraftsman can launch and what the report prices are the same offerings), the subnets, security
// group and image the fleet's node classes select, and large pages (a fleet of hundreds is not a unit test).
import type { Ec2World, EmuInstanceType } from '../ec2/world.ts';
import type { GceWorld } from '../gce/world.ts';
import type { InstanceTypeCatalog, InstanceTypeSpec } from '../../shared/model/catalog.ts';
import { quantityMilli } from '../../shared/model/quantity.ts';
import { catalogSkus } from './gce-skus.ts';

/** The discovery tag of the fleet's EC2NodeClasses (`karpenter.sh/discovery: <cluster>`). */
export const discoveryTag = (cluster: string) => ({ 'karpenter.sh/discovery': cluster });
/** The image every local GCE node boots: GCENodeClasses of the fleet are pointed at it. */
export const GCE_IMAGE = (project: string): string => `projects/${project}/global/images/gpu-node-local`;
const PAGE = 500;

const units = (q: string | number | undefined): number => quantityMilli(q ?? 0) / 1000;
const mib = (q: string | number | undefined): number => Math.round(units(q) / 1024 / 1024);

function zonesOf(t: InstanceTypeSpec, zones: readonly string[]): string[] {
  return zones.filter((z) => t.offerings.some((o) => o.zone === z));
}

function price(t: InstanceTypeSpec, capacityType: string): number | undefined {
  const prices = t.offerings.filter((o) => o.capacityType === capacityType).map((o) => o.price);
  return prices.length ? Math.min(...prices) : undefined;
}

function ec2Type(t: InstanceTypeSpec, zones: string[]): EmuInstanceType {
  const gpus = units(t.capacity['nvidia.com/gpu']);
  const model = t.labels?.['karpenter.k8s.aws/instance-gpu-name'] ?? 'gpu';
  const spot = price(t, 'spot');
  return {
    name: t.name,
    vcpu: units(t.capacity.cpu),
    memoryMiB: mib(t.capacity.memory),
    arch: t.arch === 'arm64' ? 'arm64' : 'x86_64',
    ...(gpus
      ? {
          gpu: {
            name: model.toUpperCase(),
            manufacturer: 'NVIDIA',
            count: gpus,
            memoryMiB: Number(t.labels?.['karpenter.k8s.aws/instance-gpu-memory'] ?? 16384),
          },
        }
      : {}),
    maxPods: units(t.capacity.pods) || 110,
    onDemandPrice: price(t, 'on-demand') ?? spot ?? 1,
    ...(spot !== undefined ? { spotPrice: spot } : {}),
    zones,
  };
}

export function seedEc2(world: Ec2World, catalog: InstanceTypeCatalog, cluster: string): void {
  const zones = [...new Set(world.subnets.map((s) => s.zone))];
  world.pageSize = PAGE;
  for (const t of catalog.instanceTypes.filter((x) => x.cloud === 'aws')) {
    const z = zonesOf(t, zones);
    if (z.length) world.types.set(t.name, ec2Type(t, z));
  }
  const tags = discoveryTag(cluster);
  for (const s of world.subnets) Object.assign(s.tags, tags);
  for (const g of world.securityGroups) Object.assign(g.tags, tags);
  // An `al2023@latest` alias selects Amazon-owned images named al2023-ami-* (the adapter's alias table).
  world.images.push({
    imageId: 'ami-0al2023local',
    name: 'al2023-ami-2026-local-x86_64',
    owner: 'amazon',
    creationDate: '2026-01-01T00:00:00.000Z',
    arch: 'x86_64',
    tags: {},
  });
}

export function seedGce(world: GceWorld, catalog: InstanceTypeCatalog, zones: readonly string[]): void {
  world.pageSize = PAGE;
  const gcp = catalog.instanceTypes.filter((x) => x.cloud === 'gcp');
  // The billing stand-in serves SKUs fitted to the catalog, so the adapter prices types as the report does.
  world.skus.splice(0, world.skus.length, ...catalogSkus(gcp, world.region));
  for (const t of gcp) {
    const z = zonesOf(t, zones);
    if (!z.length) continue;
    const accel = t.labels?.['cloud.google.com/gke-accelerator'];
    const count = Number(t.labels?.['cloud.google.com/gke-accelerator-count'] ?? 0);
    world.machineTypes.set(t.name, {
      name: t.name,
      guestCpus: units(t.capacity.cpu),
      memoryMb: mib(t.capacity.memory),
      ...(accel && count
        ? { accelerators: [{ guestAcceleratorType: accel, guestAcceleratorCount: count }] }
        : {}),
      zones: z,
    });
    if (accel && !world.acceleratorTypes.has(accel))
      world.acceleratorTypes.set(accel, {
        name: accel,
        description: accel,
        maximumCardsPerInstance: 16,
        zones: [...zones],
      });
  }
}

/** The IAM roles the fleet's EC2NodeClasses name (spec.role): the IAM emulator holds them. */
export function nodeRoles(objects: readonly unknown[]): string[] {
  const roles = new Set<string>();
  for (const o of objects) {
    const x = o as { kind?: unknown; spec?: { role?: unknown } };
    if (x.kind === 'EC2NodeClass' && typeof x.spec?.role === 'string')
      roles.add(x.spec.role.split('/').pop() ?? x.spec.role);
  }
  return [...roles].sort();
}
