// The overhead formulas of Karpenter's AWS provider and of GKE (as the Karpenter GCP provider applies them).
import { describe, expect, it } from 'vitest';
import {
  awsOverhead,
  gcpOverhead,
  gkeReservedMemoryMiB,
  reservedCpuMilli,
} from '../../../shared/catalog/overhead.ts';

describe('reserved CPU tiers', () => {
  it.each([
    [1, 60],
    [2, 70],
    [4, 80],
    [8, 90],
    [96, 310],
    [192, 550],
  ])('reserves for %i vCPU %i millicores (6%% / 1%% / 0.5%% / 0.25%%)', (vcpus, milli) => {
    expect(reservedCpuMilli(vcpus)).toBe(milli);
  });
});

describe("GKE's memory reservation", () => {
  it('reserves 255 MiB on machines with at most 1 GiB', () => {
    expect(gkeReservedMemoryMiB(1024)).toBe(255);
  });
  it("matches GKE's worked example for 150 GiB (about 9.76 GiB before eviction)", () => {
    expect(gkeReservedMemoryMiB(150 * 1024)).toBe(1024 + 819 + 819 + 6881 + 450);
  });
  it('reserves 25% of a 4 GiB machine', () => {
    expect(gkeReservedMemoryMiB(4096)).toBe(1024);
  });
});

describe('per-cloud overhead', () => {
  it('folds AWS VM overhead, kube-reserved by max pods and eviction into memory', () => {
    // g5.xlarge: ceil(16384 × 7.5%) = 1229, 11 × 58 + 255 = 893, + 100.
    expect(awsOverhead({ vcpus: 4, memoryMiB: 16384, maxPods: 58 })).toEqual({
      cpu: '80m',
      memory: '2222Mi',
      'ephemeral-storage': '3Gi',
    });
  });
  it('adds kube-proxy to GCP CPU and reserves 51 GiB of the 100 GiB boot disk', () => {
    const o = gcpOverhead({ vcpus: 208, memoryMiB: 1872 * 1024 });
    expect(o.cpu).toBe(`${reservedCpuMilli(208) + 100}m`);
    expect(o['ephemeral-storage']).toBe('51Gi');
  });
});
