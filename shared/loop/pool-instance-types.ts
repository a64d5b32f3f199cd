// The instance types a disruption pass may replace with: those of every NodePool's node class, read through
// the per-container InstanceTypeCache (each cloud's provider, with its prices), merged across pools.
import { buildInstanceTypes, type InstanceType } from '../scheduling/instance-type.ts';
import { mergeSpecs } from '../provisioning/offerings.ts';
import type { ClusterObjects } from '../state/objects.ts';
import { buildSnapshot } from '../state/snapshot.ts';
import type { InstanceTypeCache } from './instance-types.ts';

/** Anything that hands out a node class's instance types as the cache does. */
export type InstanceTypeLookup = Pick<InstanceTypeCache, 'get'>;

export async function poolInstanceTypes(
  cache: InstanceTypeLookup,
  objects: ClusterObjects,
): Promise<InstanceType[]> {
  const bare = buildSnapshot(objects, []);
  const lists = [];
  for (const pool of bare.nodePools.values()) {
    if (!pool.nodeClass) continue;
    const specs = await cache.get(pool.cloud, pool.nodeClass);
    if (specs) lists.push(specs);
  }
  return buildInstanceTypes(mergeSpecs(lists));
}
