// The Compute Engine emulator's default world: G2, A2 and N1 machine types and their GPUs.
import type { GceWorld } from './world.ts';

export function seedWorld(world: GceWorld, zones: readonly string[]): void {
  const l4 = (n: number) => [{ guestAcceleratorType: 'nvidia-l4', guestAcceleratorCount: n }];
  const a100 = (n: number) => [{ guestAcceleratorType: 'nvidia-tesla-a100', guestAcceleratorCount: n }];
  for (const t of [
    { name: 'g2-standard-4', guestCpus: 4, memoryMb: 16384, accelerators: l4(1), zones },
    { name: 'g2-standard-8', guestCpus: 8, memoryMb: 32768, accelerators: l4(1), zones },
    { name: 'g2-standard-24', guestCpus: 24, memoryMb: 98304, accelerators: l4(2), zones },
    {
      name: 'a2-highgpu-1g',
      guestCpus: 12,
      memoryMb: 87040,
      accelerators: a100(1),
      zones: zones.slice(0, 1),
    },
    { name: 'n1-standard-8', guestCpus: 8, memoryMb: 30720, zones },
  ])
    world.machineTypes.set(t.name, t);
  for (const a of [
    { name: 'nvidia-l4', description: 'NVIDIA L4', maximumCardsPerInstance: 8, zones },
    {
      name: 'nvidia-tesla-a100',
      description: 'NVIDIA A100 40GB',
      maximumCardsPerInstance: 16,
      zones: zones.slice(0, 1),
    },
    { name: 'nvidia-tesla-t4', description: 'NVIDIA T4', maximumCardsPerInstance: 4, zones },
  ])
    world.acceleratorTypes.set(a.name, a);
}
