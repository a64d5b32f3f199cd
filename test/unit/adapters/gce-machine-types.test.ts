// A machine type read from the Compute Engine API gets the allocatable GKE documents, worked out here by hand:
// kube-reserved CPU tiers (6% / 1% / 0.5% / 0.25%) plus kube-proxy's 100m, and memory as the provider's 7% VM
// overhead plus GKE's reservation tiers (25% of the first 4 GiB, 20% of the next 4, 10% of the next 8, 6% up
// to 128 GiB) plus the 100 MiB eviction threshold.
import { describe, expect, it } from 'vitest';
import { toInstanceTypeSpec } from '../../../shared/adapters/gcp-compute/machine-types.ts';

const MI = 1024 * 1024;

describe('GCE machine types', () => {
  it.each([
    // 4 vCPU: 60 + 10 + 10 = 80m (+100m); 16 GiB: trunc(0.07 × 16 GiB) + (1024 + 819 + 819 + 100) MiB
    ['g2-standard-4', 4, 16, '180m', 1_202_590_842 + 2762 * MI],
    // 8 vCPU: 60 + 10 + 10 + 10 = 90m (+100m); 32 GiB: trunc(0.07 × 32 GiB) + (1024 + 819 + 819 + 983 + 100) MiB
    ['n2-standard-8', 8, 32, '190m', 2_405_181_685 + 3745 * MI],
  ])('%s (%i vCPU, %i GiB) reserves what GKE documents', (name, cpus, gib, cpu, memoryBytes) => {
    const spec = toInstanceTypeSpec(
      { name, cpus, memoryMi: gib * 1024, zones: ['us-central1-a'] },
      { onDemand: () => 1, spot: () => undefined },
    );
    expect(spec?.overhead?.cpu).toBe(cpu);
    expect(String(spec?.overhead?.memory)).toBe(String(memoryBytes));
    expect(spec?.overhead?.['ephemeral-storage']).toBe('51Gi');
  });
});
