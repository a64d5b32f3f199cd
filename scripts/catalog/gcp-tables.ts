// The hand-kept part of the Compute Engine catalog: machine shapes of the GPU families and of the two CPU
// families kept from before (Google's machine-family docs), the attachable N1 GPUs with their documented limits,
// regions and list prices, and zone letters per region. Prices of machine types come from the file generate.ts
// reads; docs/catalog.md says what is derived from what.

export interface GcpMachine {
  readonly name: string;
  readonly vcpus: number;
  readonly memoryGiB: number;
  readonly gpus: number;
}
export interface GcpFamily {
  readonly machineFamily: string;
  readonly accelerator?: string;
  readonly gpuModel?: string;
  /** Zones known from the earlier catalog (its published GPU zone lists); other regions get all their zones. */
  readonly knownZones?: Readonly<Record<string, readonly string[]>>;
  readonly machines: readonly GcpMachine[];
}

const gpuMachines = (
  prefix: string,
  vcpusPerGpu: number,
  memPerGpu: number,
  counts: readonly number[],
): GcpMachine[] =>
  counts.map((n) => ({ name: `${prefix}-${n}g`, vcpus: vcpusPerGpu * n, memoryGiB: memPerGpu * n, gpus: n }));
const cpuMachines = (prefix: string, memPerCpu: number, sizes: readonly number[]): GcpMachine[] =>
  sizes.map((n) => ({ name: `${prefix}-${n}`, vcpus: n, memoryGiB: memPerCpu * n, gpus: 0 }));

const UC1 = ['us-central1-a', 'us-central1-b', 'us-central1-c', 'us-central1-f'];
const EW4 = ['europe-west4-a', 'europe-west4-b', 'europe-west4-c'];

/** Machine types with bundled GPUs (cloud.google.com/compute/docs/accelerator-optimized-machines), plus n2/c3. */
export const GCP_FAMILIES: readonly GcpFamily[] = [
  {
    machineFamily: 'a2',
    accelerator: 'nvidia-tesla-a100',
    gpuModel: 'a100-40gb',
    knownZones: { 'us-central1': UC1, 'europe-west4': ['europe-west4-a', 'europe-west4-b'] },
    machines: [
      ...gpuMachines('a2-highgpu', 12, 85, [1, 2, 4, 8]),
      { name: 'a2-megagpu-16g', vcpus: 96, memoryGiB: 1360, gpus: 16 },
    ],
  },
  {
    machineFamily: 'a2',
    accelerator: 'nvidia-a100-80gb',
    gpuModel: 'a100-80gb',
    knownZones: { 'us-central1': ['us-central1-a', 'us-central1-c'], 'europe-west4': ['europe-west4-a'] },
    machines: gpuMachines('a2-ultragpu', 12, 170, [1, 2, 4, 8]),
  },
  {
    machineFamily: 'a3',
    accelerator: 'nvidia-h100-80gb',
    gpuModel: 'h100-80gb',
    knownZones: { 'us-central1': ['us-central1-a', 'us-central1-b', 'us-central1-c'], 'europe-west4': EW4 },
    machines: gpuMachines('a3-highgpu', 26, 234, [1, 2, 4, 8]),
  },
  {
    machineFamily: 'a3',
    accelerator: 'nvidia-h100-mega-80gb',
    gpuModel: 'h100-80gb',
    knownZones: { 'europe-west4': ['europe-west4-b', 'europe-west4-c'] },
    machines: [{ name: 'a3-megagpu-8g', vcpus: 208, memoryGiB: 1872, gpus: 8 }],
  },
  {
    machineFamily: 'g2',
    accelerator: 'nvidia-l4',
    gpuModel: 'l4',
    knownZones: { 'us-central1': ['us-central1-a', 'us-central1-b', 'us-central1-c'], 'europe-west4': EW4 },
    machines: [
      ...[4, 8, 12, 16].map((n) => ({ name: `g2-standard-${n}`, vcpus: n, memoryGiB: 4 * n, gpus: 1 })),
      { name: 'g2-standard-24', vcpus: 24, memoryGiB: 96, gpus: 2 },
      { name: 'g2-standard-32', vcpus: 32, memoryGiB: 128, gpus: 1 },
      { name: 'g2-standard-48', vcpus: 48, memoryGiB: 192, gpus: 4 },
      { name: 'g2-standard-96', vcpus: 96, memoryGiB: 384, gpus: 8 },
    ],
  },
  {
    // Whole-GPU G4 shapes only (one RTX PRO 6000 per 48 vCPUs); the fractional g4-standard-6/12/24 are left out.
    machineFamily: 'g4',
    accelerator: 'nvidia-rtx-pro-6000',
    gpuModel: 'rtx-pro-6000',
    machines: [
      { name: 'g4-standard-48', vcpus: 48, memoryGiB: 180, gpus: 1 },
      { name: 'g4-standard-96', vcpus: 96, memoryGiB: 360, gpus: 2 },
      { name: 'g4-standard-192', vcpus: 192, memoryGiB: 720, gpus: 4 },
      { name: 'g4-standard-384', vcpus: 384, memoryGiB: 1440, gpus: 8 },
    ],
  },
  {
    machineFamily: 'n2',
    knownZones: { 'us-central1': UC1, 'europe-west4': EW4 },
    machines: [
      ...cpuMachines('n2-standard', 4, [4, 8, 16, 32, 64]),
      ...cpuMachines('n2-highmem', 8, [4, 8, 16, 32]),
    ],
  },
  {
    machineFamily: 'c3',
    knownZones: { 'us-central1': UC1, 'europe-west4': EW4 },
    machines: cpuMachines('c3-standard', 4, [4, 8, 22, 44, 88]),
  },
];

/**
 * GPUs attached to N1 machine types (cloud.google.com/compute/docs/gpus, retrieved 2026-12-07): the regions that
 * offer each, its on-demand list price per GPU-hour in us-central1 (used for every region: an ESTIMATE outside
 * it), and the most vCPUs an N1 machine may have for 1, 2, 4 (and 8) of them.
 */
export interface AttachableGpu {
  readonly name: string;
  readonly model: string;
  readonly pricePerGpu: number;
  readonly maxVcpus: Readonly<Record<number, number>>;
  readonly regions: readonly string[];
}
export const ATTACHABLE_GPUS: readonly AttachableGpu[] = [
  {
    name: 'nvidia-tesla-t4',
    model: 't4',
    pricePerGpu: 0.35,
    maxVcpus: { 1: 48, 2: 48, 4: 96 },
    regions: [
      'us-central1',
      'us-east1',
      'us-east4',
      'us-west1',
      'us-west2',
      'us-west3',
      'us-west4',
      'northamerica-northeast1',
      'southamerica-east1',
      'europe-central2',
      'europe-west1',
      'europe-west2',
      'europe-west3',
      'europe-west4',
      'asia-east1',
      'asia-east2',
      'asia-northeast1',
      'asia-northeast3',
      'asia-south1',
      'asia-southeast1',
      'asia-southeast2',
      'australia-southeast1',
      'me-west1',
    ],
  },
  {
    name: 'nvidia-tesla-v100',
    model: 'v100',
    pricePerGpu: 2.48,
    maxVcpus: { 1: 12, 2: 24, 4: 48, 8: 96 },
    regions: ['us-central1', 'us-east1', 'us-west1', 'europe-west4', 'asia-east1'],
  },
  {
    name: 'nvidia-tesla-p100',
    model: 'p100',
    pricePerGpu: 1.46,
    maxVcpus: { 1: 16, 2: 32, 4: 64 },
    regions: [
      'us-central1',
      'us-east1',
      'us-west1',
      'europe-west1',
      'europe-west4',
      'asia-east1',
      'australia-southeast1',
    ],
  },
  {
    name: 'nvidia-tesla-p4',
    model: 'p4',
    pricePerGpu: 0.6,
    maxVcpus: { 1: 24, 2: 48, 4: 96 },
    regions: [
      'us-central1',
      'us-east4',
      'us-west2',
      'northamerica-northeast1',
      'europe-west4',
      'asia-southeast1',
      'australia-southeast1',
    ],
  },
];
/** n1-standard sizes GPUs attach to (3.75 GiB per vCPU). */
export const N1_SIZES = [1, 2, 4, 8, 16, 32, 64, 96] as const;

/** Zone letters per region (cloud.google.com/compute/docs/regions-zones, retrieved 2026-12-07); 'abc' otherwise. */
export const GCP_ZONE_LETTERS: Readonly<Record<string, string>> = {
  'us-central1': 'abcf',
  'us-east1': 'bcd',
  'europe-west1': 'bcd',
};
