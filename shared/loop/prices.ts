// The instance types a disruption pass prices with: every NodePool's node class resolved through its cloud's
// provider (cached per container), merged into one list. Every pass (consolidate, admit, census) calls
// fleetInstanceTypes, so they all price the same way.
import { mergeSpecs } from '../provisioning/offerings.ts';
import { buildInstanceTypes, type InstanceType } from '../scheduling/instance-type.ts';
import { buildSnapshot } from '../state/snapshot.ts';
import type { Cluster } from '../ports/cluster/index.ts';
import type { InstanceTypeCache } from './instance-types.ts';

export interface FleetTypesDeps {
  readonly cluster: Cluster;
  readonly instanceTypes: InstanceTypeCache;
}

/** The instance types of every node class a NodePool names (a warm read of the cluster finds them). */
export async function fleetInstanceTypes(deps: FleetTypesDeps): Promise<InstanceType[]> {
  const bare = buildSnapshot((await deps.cluster.readSnapshot()).objects, []);
  const lists = [];
  for (const pool of bare.nodePools.values()) {
    if (!pool.nodeClass) continue;
    const specs = await deps.instanceTypes.get(pool.cloud, pool.nodeClass);
    if (specs) lists.push(specs);
  }
  return buildInstanceTypes(mergeSpecs(lists));
}
