// The instance types a pass or a provisioning batch may launch: those of every NodePool's node class, read
// through the per-container InstanceTypeCache (each cloud's provider, with its prices), merged across pools.
import type { InstanceTypeSpec } from '../model/catalog.ts';
import { buildInstanceTypes, type InstanceType } from '../scheduling/instance-type.ts';
import { mergeSpecs } from '../provisioning/offerings.ts';
import type { ClusterObjects } from '../state/objects.ts';
import { buildSnapshot } from '../state/snapshot.ts';
import type { InstanceTypeCache } from './instance-types.ts';

/** Anything that hands out a node class's instance types as the cache does. */
export type InstanceTypeLookup = Pick<InstanceTypeCache, 'get'>;

/**
 * The instance types of every NodePool's node class, merged. Only the NodePools and node classes decide
 * them, so the pool views come from a snapshot of those alone: a snapshot of the whole cluster would add
 * up every pod's requests for nothing (a third of a 1,000-node pass's snapshot cost, docs/fleet.md "Scale").
 */
export async function poolSpecs(
  cache: InstanceTypeLookup,
  objects: ClusterObjects,
): Promise<InstanceTypeSpec[]> {
  const pools = buildSnapshot({ ...objects, pods: [], nodes: [], nodeClaims: [] }, []).nodePools;
  const lists = [];
  for (const pool of pools.values()) {
    if (!pool.nodeClass) continue;
    const specs = await cache.get(pool.cloud, pool.nodeClass);
    if (specs) lists.push(specs);
  }
  return mergeSpecs(lists);
}

export async function poolInstanceTypes(
  cache: InstanceTypeLookup,
  objects: ClusterObjects,
): Promise<InstanceType[]> {
  return buildInstanceTypes(await poolSpecs(cache, objects));
}
