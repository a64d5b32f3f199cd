// The EC2 emulator's default world: GPU types in three zones with prices, one subnet and security
// group per zone tagged for discovery, two node images, and the public EKS-optimized AL2023 and Bottlerocket
// images the SSM emulator's public parameters name (local/ssm/seed.ts), owned by `amazon`.
import { publicImageParameters } from '../ssm/seed.ts';
import type { Ec2World, EmuInstanceType } from './world.ts';

export const DISCOVERY_TAG = { key: 'kraftsman.dev/discovery', value: 'local' } as const;

const A10G = { name: 'A10G', manufacturer: 'NVIDIA', memoryMiB: 24576 };
const A100 = { name: 'A100', manufacturer: 'NVIDIA', memoryMiB: 40960 };

export function defaultTypes(zones: readonly string[]): EmuInstanceType[] {
  return [
    {
      name: 'g5.xlarge',
      vcpu: 4,
      memoryMiB: 16384,
      gpu: { ...A10G, count: 1 },
      maxPods: 58,
      onDemandPrice: 1.006,
      spotPrice: 0.4532,
      zones,
    },
    {
      name: 'g5.2xlarge',
      vcpu: 8,
      memoryMiB: 32768,
      gpu: { ...A10G, count: 1 },
      maxPods: 58,
      onDemandPrice: 1.212,
      spotPrice: 0.5071,
      zones,
    },
    {
      name: 'g5.12xlarge',
      vcpu: 48,
      memoryMiB: 196608,
      gpu: { ...A10G, count: 4 },
      maxPods: 234,
      onDemandPrice: 5.672,
      spotPrice: 2.2688,
      zones,
    },
    {
      name: 'p4d.24xlarge',
      vcpu: 96,
      memoryMiB: 1179648,
      gpu: { ...A100, count: 8 },
      maxPods: 737,
      onDemandPrice: 32.7726,
      spotPrice: 12.0,
      zones: zones.slice(0, 2),
    },
    {
      name: 'm5.large',
      vcpu: 2,
      memoryMiB: 8192,
      maxPods: 29,
      onDemandPrice: 0.096,
      spotPrice: 0.0361,
      zones,
    },
  ];
}

/** A zone ID in AWS's shape: `us-east-1a`, the first zone → `use1-az1`. */
const zoneIdOf = (zone: string, n: number): string =>
  `${zone.replace(/^([a-z]{2})-([a-z])[a-z]*-(\d+)[a-z]$/, '$1$2$3')}-az${n + 1}`;

export function seedWorld(world: Ec2World, zones: readonly string[]): void {
  for (const t of defaultTypes(zones)) world.types.set(t.name, t);
  const tags = { [DISCOVERY_TAG.key]: DISCOVERY_TAG.value };
  zones.forEach((zone, n) => {
    world.subnets.push({
      subnetId: `subnet-${zone}`,
      zone,
      zoneId: zoneIdOf(zone, n),
      availableIps: 4000 - n,
      tags: { ...tags, Name: `private-${zone}` },
    });
  });
  world.securityGroups.push({ groupId: 'sg-0node', groupName: 'kraftsman-nodes', tags });
  world.images.push(
    {
      imageId: 'ami-0gpu20261001',
      name: 'kraftsman-gpu-node-2026-10-01',
      owner: '123456789012',
      creationDate: '2026-10-01T00:00:00.000Z',
      arch: 'x86_64',
      tags,
    },
    {
      imageId: 'ami-0gpu20261101',
      name: 'kraftsman-gpu-node-2026-11-01',
      owner: '123456789012',
      creationDate: '2026-11-01T00:00:00.000Z',
      arch: 'x86_64',
      tags,
    },
  );
  for (const i of publicImageParameters().images) world.images.push({ ...i, owner: 'amazon', tags: {} });
}
