// Draining one candidate of a command (Karpenter's terminator): evict the node's pods group by group through
// the Eviction API with each pod's UID as precondition (a PDB's 429 means "later"), then terminate the
// instance and delete NodeClaim and Node. A candidate that vanished is finished from its remains.
import { parseDuration } from '../model/duration.ts';
import { drainPlan } from '../disruption/drain-order.ts';
import { removeNode, type ActionDeps } from './command-actions.ts';
import { LOOP_METRICS } from './disruption-metrics.ts';
import type { Clock } from '../ports/clock.ts';
import type { Metrics } from '../ports/metrics.ts';
import type { World } from './orchestrate.ts';

export interface DrainTally {
  evicted: number;
  blocked: number;
  gone: number;
}

export interface DrainDeps extends ActionDeps {
  readonly clock: Clock;
  readonly metrics: Metrics;
}

/** True once the candidate is gone (instance terminated, objects deleted); false while it drains or was refused. */
export async function drainNode(
  deps: DrainDeps,
  world: World,
  name: string,
  drainingSince: Date,
  tally: DrainTally,
): Promise<boolean> {
  const node = world.nodes.get(name);
  const claim = world.claimOfNode.get(name) ?? world.claims.get(name);
  if (!node) return removeNode(deps, undefined, claim);
  const now = deps.clock.now();
  // terminationGracePeriod: once it has passed since the drain began, nothing blocks termination any more.
  const tgp = claim?.spec.terminationGracePeriod
    ? parseDuration(claim.spec.terminationGracePeriod)
    : undefined;
  const graceElapsed = tgp !== undefined && now.getTime() - drainingSince.getTime() >= tgp;
  const plan = drainPlan(await deps.cluster.listPodsOnNode(name), now, graceElapsed);
  if (plan.drained || graceElapsed) return removeNode(deps, node, claim);
  for (const pod of plan.evict) {
    const r = await deps.cluster.evictPod({
      name: pod.metadata.name,
      namespace: pod.metadata.namespace ?? 'default',
      ...(pod.metadata.uid ? { uid: pod.metadata.uid } : {}),
    });
    tally[r.outcome === 'evicted' ? 'evicted' : r.outcome === 'blocked' ? 'blocked' : 'gone'] += 1;
    deps.metrics.count(LOOP_METRICS.evictionsTotal, 1, { result: r.outcome });
  }
  return false;
}
