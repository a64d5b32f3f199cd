// Draining one candidate of a command (Karpenter's terminator): re-read it (docs/mechanisms/identity.md,
// "Commands"), then evict its pods group by group through the Eviction API with each pod's UID as
// precondition (a PDB's 429 means "later"), then terminate the recorded instance and delete NodeClaim and
// Node by uid. A candidate that vanished is finished from its remains; one whose name another object took is
// refused and counted done.
import { parseDuration } from '../model/duration.ts';
import { drainPlan } from '../disruption/drain-order.ts';
import type { CommandRecord } from '../ports/state-store/records.ts';
import { recordCommandEnd } from './claim-accounting.ts';
import { removeOwned } from './command-actions.ts';
import { checkCandidate } from './command-identity.ts';
import { settleCandidate, type SettleDeps } from './candidate-remains.ts';
import { LOOP_METRICS } from './disruption-metrics.ts';
import type { Clock } from '../ports/clock.ts';
import type { Metrics } from '../ports/metrics.ts';

export interface DrainTally {
  evicted: number;
  blocked: number;
  gone: number;
}

export interface DrainDeps extends SettleDeps {
  readonly clock: Clock;
  readonly metrics: Metrics;
}

/** True once the candidate is done (instance terminated and objects deleted, or the candidate refused); false
 * while it drains or while its instance is refused as not this deployment's. */
export async function drainCandidate(
  deps: DrainDeps,
  cmd: CommandRecord,
  name: string,
  drainingSince: Date,
  tally: DrainTally,
): Promise<boolean> {
  // Listed before the re-read: evictions carry each pod's uid, so if another Node takes the name after the
  // re-read, none of its pods is in this list.
  const pods = await deps.cluster.listPodsOnNode(name);
  const now = deps.clock.now();
  const check = await checkCandidate(deps.cluster, cmd, name);
  if (check.kind !== 'intact') {
    const action = drainPlan(pods, now, false).drained ? 'terminate' : 'drain';
    await settleCandidate(deps, name, check, action);
    return true;
  }
  const { identity, node, claim } = check;
  // terminationGracePeriod: once it has passed since the drain began, nothing blocks termination any more.
  const tgp = claim?.spec.terminationGracePeriod
    ? parseDuration(claim.spec.terminationGracePeriod)
    : undefined;
  const graceElapsed = tgp !== undefined && now.getTime() - drainingSince.getTime() >= tgp;
  const plan = drainPlan(pods, now, graceElapsed);
  if (plan.drained || graceElapsed) {
    // False when the instance was refused as not ours: the command waits, the Node and NodeClaim stay.
    const ended = await removeOwned(deps, {
      providerId: identity.providerId ?? claim?.status?.providerID ?? node.spec?.providerID,
      labels: { ...(claim?.metadata.labels ?? {}), ...(node.metadata.labels ?? {}) },
      ...(claim ? { claim: { name: claim.metadata.name, uid: claim.metadata.uid } } : {}),
      node: { name, uid: identity.nodeUid },
    });
    if (ended) recordCommandEnd(deps.metrics, deps.clock.now(), cmd.method, claim, node, drainingSince);
    return ended;
  }
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
