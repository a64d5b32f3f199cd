// The ramp-3400 snapshot the pass benchmarks run on (same seed, same fleet).
import { builtinCatalog } from '../../shared/catalog/builtin.ts';
import { buildInstanceTypes } from '../../shared/scheduling/instance-type.ts';
import { recognize } from '../../shared/state/recognize.ts';
import { buildSnapshot, type ClusterSnapshot } from '../../shared/state/snapshot.ts';
import { generateRamp } from '../fixtures/fleet/ramp.ts';

const types = buildInstanceTypes(builtinCatalog().instanceTypes);

export function rampSnapshot(nodes: number, pending: number): ClusterSnapshot {
  const fleet = generateRamp({ nodes, pending });
  return buildSnapshot(recognize(fleet.objects.map((value) => ({ source: 'ramp', value }))).objects, types);
}
