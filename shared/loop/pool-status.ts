// NodePool status as Karpenter publishes it (docs/observability.md, "Statuses"), written by lifecycle: the
// counter controller's `resources` (the capacity of the pool's nodes, claims not yet registered by their own
// capacity, plus `nodes`) and `nodes`, and the readiness controller's conditions — ValidationSucceeded,
// NodeClassReady (shared/state/pool-readiness.ts) and their root Ready. Written only when it changed, as a merge
// patch of /status pinned to the resourceVersion read; a conflict waits for the next minute's pass.
import { NODEPOOL } from '../model/labels.ts';
import type { NodePool } from '../model/nodepool.ts';
import { addInto, fromQuantities, NODES, ONE_NODE, type MutableResourceList } from '../model/resources.ts';
import { toQuantities } from '../provisioning/nodeclaims.ts';
import type { ClusterObjects } from '../state/objects.ts';
import { poolNotReady } from '../state/pool-readiness.ts';
import { ConflictError, ObjectNotFoundError } from '../ports/cluster/errors.ts';
import type { Cluster } from '../ports/cluster/index.ts';
import type { Clock } from '../ports/clock.ts';
import { sameConditions, setCondition, transitionEvents, withRoot, type Conditions } from './conditions.ts';
import { publishEvents, type EventDeps } from './events.ts';

/** Karpenter's NodePool.StatusConditions dependents. */
export const POOL_READY_DEPENDENTS = ['ValidationSucceeded', 'NodeClassReady'] as const;
/** Karpenter's counter.BaseResources: always present, zero when the pool has nothing. */
const BASE: Readonly<Record<string, number>> = {
  cpu: 0,
  memory: 0,
  pods: 0,
  'ephemeral-storage': 0,
  nodes: 0,
};

export interface PoolStatusDeps extends EventDeps {
  readonly cluster: Pick<Cluster, 'patchStatus' | 'recordEvent'>;
  readonly clock: Clock;
}

interface PoolStatus {
  readonly resources: Record<string, string>;
  readonly nodes: number;
  readonly conditions: Conditions;
}

type Current = { resources?: Record<string, string>; nodes?: number; conditions?: Conditions };
const currentOf = (pool: NodePool): Current => ((pool as { status?: Current }).status ?? {}) as Current;

/** Each pool's resources: a registered claim counts by its Node's capacity, one not registered by its own. */
function usage(objects: ClusterObjects): Map<string, MutableResourceList> {
  const out = new Map<string, MutableResourceList>();
  const add = (pool: string | undefined, capacity: Record<string, string | number> | undefined) => {
    if (!pool) return;
    const u = out.get(pool) ?? { ...BASE };
    out.set(pool, addInto(addInto(u, fromQuantities(capacity)), { [NODES]: ONE_NODE }));
  };
  const nodeNames = new Set<string>();
  for (const n of objects.nodes) {
    const pool = n.metadata.labels?.[NODEPOOL];
    if (!pool || n.metadata.deletionTimestamp) continue;
    nodeNames.add(n.metadata.name);
    add(pool, n.status?.capacity);
  }
  for (const c of objects.nodeClaims) {
    if (c.metadata.deletionTimestamp || (c.status?.nodeName && nodeNames.has(c.status.nodeName))) continue;
    add(c.metadata.labels?.[NODEPOOL], c.status?.capacity);
  }
  return out;
}

export function desiredPoolStatus(
  pool: NodePool,
  objects: ClusterObjects,
  used: ReadonlyMap<string, MutableResourceList>,
  now: Date,
): PoolStatus {
  const list = { ...BASE, ...(used.get(pool.metadata.name) ?? {}) };
  const ref = pool.spec.template.spec.nodeClassRef;
  const nodeClass = objects.nodeClasses.find((c) => c.kind === ref.kind && c.metadata.name === ref.name);
  const notReady = poolNotReady(pool, nodeClass);
  let conditions = currentOf(pool).conditions;
  // A NodePool in the snapshot parsed: its runtime validation succeeded (an invalid one is never read).
  conditions = setCondition(conditions, 'ValidationSucceeded', 'True', now);
  conditions = notReady
    ? setCondition(conditions, 'NodeClassReady', 'False', now, notReady.reason, notReady.message)
    : setCondition(conditions, 'NodeClassReady', 'True', now);
  return {
    resources: toQuantities(list),
    nodes: Math.round((list[NODES] ?? 0) / ONE_NODE),
    conditions: withRoot(conditions, POOL_READY_DEPENDENTS, now),
  };
}

const sameResources = (a: Record<string, string> | undefined, b: Record<string, string>): boolean =>
  a !== undefined &&
  Object.keys(a).length === Object.keys(b).length &&
  Object.entries(b).every(
    ([k, v]) => a[k] !== undefined && fromQuantities({ [k]: a[k] })[k] === fromQuantities({ [k]: v })[k],
  );

/** Writes every pool whose status changed; returns how many were written. */
export async function publishPoolStatuses(deps: PoolStatusDeps, objects: ClusterObjects): Promise<number> {
  const now = deps.clock.now();
  const used = usage(objects);
  let written = 0;
  for (const pool of objects.nodePools) {
    const current = currentOf(pool);
    const next = desiredPoolStatus(pool, objects, used, now);
    if (
      current.nodes === next.nodes &&
      sameResources(current.resources, next.resources) &&
      sameConditions(current.conditions, next.conditions)
    )
      continue;
    const gone = Object.keys(current.resources ?? {}).filter((k) => !(k in next.resources));
    const resources = { ...next.resources, ...Object.fromEntries(gone.map((k) => [k, null])) };
    try {
      await deps.cluster.patchStatus('NodePool', pool.metadata.name, pool.metadata.resourceVersion ?? '', {
        resources,
        nodes: next.nodes,
        conditions: next.conditions,
      });
    } catch (err: unknown) {
      if (err instanceof ConflictError || err instanceof ObjectNotFoundError) continue; // the next pass
      throw err;
    }
    written += 1;
    const involved = {
      kind: 'NodePool' as const,
      name: pool.metadata.name,
      ...(pool.metadata.uid ? { uid: pool.metadata.uid } : {}),
    };
    await publishEvents(deps, transitionEvents(involved, current.conditions, next.conditions, now));
  }
  return written;
}
