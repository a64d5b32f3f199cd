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
  const plan = drainPlan(pods, now, false);
  const check = await checkCandidate(deps.cluster, cmd, name);
  if (check.kind !== 'intact') {
    await settleCandidate(deps, name, check, plan.drained ? 'terminate' : 'drain');
    return true;
  }
  const { identity, node, claim } = check;
  // terminationGracePeriod (Karpenter's termination controller): once it has passed since the drain began,
  // nothing blocks termination any more — a do-not-disrupt pod, a PDB, a pod still terminating.
  // The claim schema admits only durations that parse (isCrdDuration); without one, the drain waits for ever.
  const tgp = claim?.spec.terminationGracePeriod;
  const graceMs = tgp === undefined ? Infinity : (parseDuration(tgp) ?? Infinity);
  const graceElapsed = now.getTime() - drainingSince.getTime() >= graceMs;
  if (plan.drained || graceElapsed) {
    // False when the instance was refused as not ours: the command waits, the Node and NodeClaim stay.
    const ended = await removeOwned(deps, {
      providerId: identity.providerId ?? claim?.status?.providerID ?? node.spec?.providerID,
      labels: { ...claim?.metadata.labels, ...node.metadata.labels },
      ...(claim ? { claim: { name: claim.metadata.name, uid: claim.metadata.uid } } : {}),
      node: { name, uid: identity.nodeUid },
    });
    if (ended) recordCommandEnd(deps.metrics, deps.clock.now(), cmd.method, claim, node, drainingSince);
    return ended;
  }
  // One group at a time (drain-order.ts), each pod by name, namespace and uid: the uid is the eviction's
  // precondition, so a pod re-created under the name since the list is another pod and stays (a 409, "gone").
  for (const pod of plan.evict) {
    const r = await deps.cluster.evictPod(pod.metadata);
    tally[r.outcome] += 1;
    deps.metrics.count(LOOP_METRICS.evictionsTotal, 1, { result: r.outcome });
  }
  return false;
}
