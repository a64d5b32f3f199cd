// What one provisioning batch tells a person (docs/observability.md): Karpenter's pod events — `Nominated`
// with the node or claim the pod should schedule on, `FailedScheduling` naming the requirement or limit that
// failed — a Warning on each NodePool whose limits turned a pod away, and one log line with the batch's claims
// and its unschedulable pods with their reasons.
import { podKey, type Pod } from '../model/pod.ts';
import type { SchedulingResult } from '../scheduling/scheduler.ts';
import type { ClusterEvent } from '../ports/cluster/index.ts';
import type { Logger } from '../ports/logger.ts';

/** Pods named in a batch's log line at most (the counts are always whole). */
export const LOGGED_PODS = 50;
/** Karpenter's PodNominationRateLimiter (pkg/controllers/provisioning/scheduling/events.go). */
const NOMINATION_RATE = { perSecond: 5, burst: 10 } as const;
const FAILED_SCHEDULING_DEDUPE_MS = 5 * 60_000;
/** kraftsman's own reason (Karpenter writes no NodePool event for limits; it logs the scheduling error). */
export const LIMITS_REACHED_REASON = 'NodePoolLimitsReached';
const LIMIT_ERROR =
  /(?:all available instance types exceed limits|node limits have been exhausted) for NodePool ([a-z0-9.-]+)/g;

export interface BatchStory {
  readonly pods: ReadonlyMap<string, Pod>;
  readonly placements: SchedulingResult['placements'];
  readonly errors: ReadonlyMap<string, string>;
  /** Each new claim's name by the scheduler's claim. */
  readonly claimNames: ReadonlyMap<unknown, string>;
  readonly unplaced: readonly Pod[];
  /** What NotReady pools add to every unschedulable pod's reason ("; NodePool x not ready (...)"), or ''. */
  readonly notReady: string;
  readonly at: Date;
}

const podObject = (p: Pod) => ({
  kind: 'Pod' as const,
  name: p.metadata.name,
  namespace: p.metadata.namespace ?? 'default',
  ...(p.metadata.uid ? { uid: p.metadata.uid } : {}),
});

export function batchEvents(s: BatchStory): ClusterEvent[] {
  const out: ClusterEvent[] = [];
  for (const [key, placement] of s.placements) {
    const pod = s.pods.get(key);
    if (!pod) continue;
    const claim = placement.kind === 'new' ? s.claimNames.get(placement.claim) : undefined;
    const target = placement.kind === 'existing' ? `node/${placement.node}` : claim && `nodeclaim/${claim}`;
    if (!target) continue;
    out.push({
      involved: podObject(pod),
      type: 'Normal',
      reason: 'Nominated',
      message: `Pod should schedule on: ${target}`,
      at: s.at,
      dedupeValues: [pod.metadata.uid ?? key],
      rateLimit: NOMINATION_RATE,
    });
  }
  const pools = new Map<string, string>();
  for (const pod of s.unplaced) {
    if (pod.spec.nodeName) continue; // a leaving node's pod is running: nothing failed to schedule
    const reason = `${s.errors.get(podKey(pod)) ?? 'incompatible with every NodePool'}${s.notReady}`;
    out.push({
      involved: podObject(pod),
      type: 'Warning',
      reason: 'FailedScheduling',
      message: `Failed to schedule pod, ${reason}`,
      at: s.at,
      dedupeValues: [pod.metadata.uid ?? podKey(pod)],
      dedupeTimeoutMs: FAILED_SCHEDULING_DEDUPE_MS,
    });
    for (const m of reason.matchAll(LIMIT_ERROR)) if (m[1] && !pools.has(m[1])) pools.set(m[1], m[0]);
  }
  for (const [pool, why] of pools)
    out.push({
      involved: { kind: 'NodePool', name: pool },
      type: 'Warning',
      reason: LIMITS_REACHED_REASON,
      message: `${why}: pending pods wait for capacity`,
      at: s.at,
      dedupeValues: [pool],
    });
  return out;
}

/** One line per batch that did anything: its claims and the pods it could not place, with the reasons. */
export function logBatch(
  logger: Logger,
  s: BatchStory,
  claims: readonly { name: string; nodePool: string; pods: number }[],
): void {
  if (claims.length === 0 && s.unplaced.length === 0) return;
  const named = s.unplaced.slice(0, LOGGED_PODS).map((p) => ({
    pod: podKey(p),
    reason: `${s.errors.get(podKey(p)) ?? 'incompatible with every NodePool'}${s.notReady}`,
  }));
  logger.info('provisioning batch', {
    claims,
    placed: s.placements.size,
    unschedulable: s.unplaced.length,
    unschedulablePods: named,
  });
}
