// Replace-heavy fleets for the delta-simulation property (issue 36, item 5): GPU nodes full of GPU pods, so a
// candidate's pods find no other node and need a new one (a claim of the base's, or one they open), beside a
// backlog of a few hundred pods, GPU ones among them, whose own claims they meet (docs/mechanisms/delta-simulation.md,
// point 5). Built with the random fleets' objects (delta-fleets.ts).
import fc from 'fast-check';
import type { DeltaFleet } from './delta-fleets.ts';

// GPU pods carry no topology (a GPU pod's spread or anti-affinity sends most candidates to 'topology', which the
// zone-spread and random families cover); CPU pods some.
// The queue goes by CPU: bound GPU pods mostly small in CPU, so most pods after them are CPU pods the GPU taint
// turns away for good (the claims they land on are then followed); some larger, so backlog GPU pods come after
// them and may join their claim (then the delta falls back: 'claim-shared').
const gpuPod = (millis: fc.Arbitrary<500 | 1000 | 2000 | 3000>) =>
  fc.record({
    app: fc.constantFrom('infer', 'train'),
    millis,
    memMi: fc.constantFrom(512, 2048, 6144),
    gpus: fc.constantFrom(1, 1, 2),
    efa: fc.constant(0),
    topology: fc.constant('none'),
    created: fc.nat(5),
    doNotDisrupt: fc.constant(false),
  });
const boundGpuPod = gpuPod(fc.constantFrom(500, 500, 500, 1000, 2000));
const pendingGpuPod = gpuPod(fc.constantFrom(1000, 2000, 3000));
const cpuPod = fc.record({
  app: fc.constantFrom('web', 'api', 'cache', 'batch'),
  millis: fc.constantFrom(250, 500, 1000, 1500),
  memMi: fc.constantFrom(128, 512, 2048),
  gpus: fc.constant(0),
  efa: fc.constant(0),
  topology: fc.constantFrom('none', 'none', 'none', 'none', 'none', 'zone-spread', 'host-spread'),
  created: fc.nat(5),
  doNotDisrupt: fc.constant(false),
});
const backlogPod = fc.oneof({ arbitrary: pendingGpuPod, weight: 2 }, { arbitrary: cpuPod, weight: 3 });

// GPU types (delta-fleets.ts TYPES 3, 4, 7: one, four and two GPUs) carrying up to four GPU pods each (their GPUs
// full or nearly), a few CPU nodes; every node initialized.
const gpuNode = fc.record({
  type: fc.constantFrom(3, 4, 4, 7, 7),
  zone: fc.nat(2),
  pods: fc.array(boundGpuPod, { minLength: 1, maxLength: 4 }),
  state: fc.constant(0),
});
const cpuNode = fc.record({
  type: fc.constantFrom(0, 1, 2, 5, 6),
  zone: fc.nat(2),
  pods: fc.array(cpuPod, { maxLength: 5 }),
  state: fc.constant(0),
});

export const replaceFleetArb: fc.Arbitrary<DeltaFleet> = fc.record({
  nodes: fc
    .tuple(fc.array(gpuNode, { minLength: 4, maxLength: 10 }), fc.array(cpuNode, { maxLength: 4 }))
    .map(([g, c]) => [...g, ...c]),
  backlog: fc.array(backlogPod, { minLength: 100, maxLength: 300 }),
  gangs: fc.array(
    fc.record({
      size: fc.integer({ min: 2, max: 4 }),
      short: fc.nat(1),
      millis: fc.constantFrom(1000, 2000),
      gpus: fc.constant(1),
      running: fc.constant(0),
    }),
    { maxLength: 2 },
  ),
  pdbs: fc.constant([]),
  pdbMax: fc.constant(0),
  spot: fc.boolean(),
  slow: fc.constant(-1),
});
