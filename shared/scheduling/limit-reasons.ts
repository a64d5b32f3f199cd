// Which of a NodePool's limits turned a pod away, in words a person can act on (docs/contract.md): Karpenter's
// scheduler only says "all available instance types exceed limits"; this names the limit and its use.
import { formatMilli } from '../model/quantity.ts';
import { EPHEMERAL_STORAGE, MEMORY, NODES, type ResourceList } from '../model/resources.ts';

const quantity = (key: string, milli: number): string =>
  formatMilli(Math.round(milli), key === MEMORY || key === EPHEMERAL_STORAGE);

/**
 * `limit K L would be exceeded (in use U)` for one limited resource. "In use" is the limit minus what is left:
 * the pool's nodes and the claims this simulation already opened, each counted at its largest instance type
 * (Karpenter's subtractMax). Without the declared limit only what is left can be said.
 */
function phrase(key: string, left: number, limit: number | undefined, verb: string): string {
  if (limit === undefined) return `limit ${key} ${verb} (${quantity(key, Math.max(left, 0))} left)`;
  return `limit ${key} ${quantity(key, limit)} ${verb} (in use ${quantity(key, limit - left)})`;
}

/** The `nodes` limit's phrase, for a pool with no node left. */
export function nodesLimitReason(remaining: ResourceList, limits: ResourceList | undefined): string {
  return phrase(NODES, remaining[NODES] ?? 0, limits?.[NODES], 'reached');
}

/**
 * The limits that rule out the pool's instance types, the one ruling out most types first (ties by name): each
 * resource whose remaining amount is below the capacity of at least one type. A type ruled out by several
 * counts for each, so the phrase names every limit a bigger budget would have to lift.
 */
export function typesLimitReason(
  types: readonly { readonly capacity: ResourceList }[],
  remaining: ResourceList,
  limits: ResourceList | undefined,
): string {
  const blocks = new Map<string, number>();
  for (const t of types)
    for (const k in remaining)
      if ((t.capacity[k] ?? 0) > (remaining[k] as number)) blocks.set(k, (blocks.get(k) ?? 0) + 1);
  return [...blocks]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([k]) => phrase(k, remaining[k] as number, limits?.[k], 'would be exceeded'))
    .join(', ');
}
