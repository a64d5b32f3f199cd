// The snapshots the pass benchmarks run on (same seed, same fleet): ramp-3400, the fleet the delta simulation was
// tuned on, and the training fleet, generated apart from it (docs/benchmarks.md, "The training fleet").
import { fleetCatalog } from '../../local/fleet/catalog.ts';
import { buildInstanceTypes } from '../../shared/scheduling/instance-type.ts';
import { recognize } from '../../shared/state/recognize.ts';
import { buildSnapshot, type ClusterSnapshot } from '../../shared/state/snapshot.ts';
import { generateRamp } from '../fixtures/fleet/ramp.ts';
import { generateTraining } from '../fixtures/fleet/training/index.ts';

export const BENCH_FLEETS = ['ramp', 'training'] as const;
export type BenchFleet = (typeof BENCH_FLEETS)[number];

const types = buildInstanceTypes(fleetCatalog().instanceTypes);

export function rampSnapshot(nodes: number, pending: number): ClusterSnapshot {
  const fleet = generateRamp({ nodes, pending });
  return buildSnapshot(recognize(fleet.objects.map((value) => ({ source: 'ramp', value }))).objects, types);
}

export function fleetSnapshot(fleet: BenchFleet, nodes: number, pending: number): ClusterSnapshot {
  if (fleet === 'ramp') return rampSnapshot(nodes, pending);
  const { objects } = generateTraining({ nodes, pending });
  return buildSnapshot(recognize(objects.map((value) => ({ source: 'training', value }))).objects, types);
}
