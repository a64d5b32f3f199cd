// Which pods a drain evicts and in what order (Karpenter v1.14's terminator, Evict and IsDrainable): pods that
// will not come back elsewhere or need no eviction are left alone; the rest go in groups — non-critical
// non-DaemonSet pods, then non-critical DaemonSet pods, then critical non-DaemonSet pods, then critical
// DaemonSet pods (the graceful node shutdown order). A group goes only when the groups before it are gone.
// Pure: the caller lists the node's pods and evicts.
import type { Pod } from '../model/pod.ts';
import { isOwnedByDaemonSet, isOwnedByNode, isTerminal } from '../state/pods.ts';
import { doNotDisruptActive, toleratesDisrupted } from './pod-rules.ts';

const CRITICAL = new Set(['system-cluster-critical', 'system-node-critical']);

const isCritical = (p: Pod): boolean => CRITICAL.has(p.spec.priorityClassName ?? '');

/** IsStuckTerminating: a pod still terminating a minute past its deletionTimestamp no longer holds the drain. */
const STUCK_AFTER_MS = 60_000;

export interface DrainPlan {
  /** The first group that still has pods: evict these now. */
  readonly evict: readonly Pod[];
  /** Pods that hold the drain and may not be evicted (karpenter.sh/do-not-disrupt) until the grace period. */
  readonly waitingOnDoNotDisrupt: readonly Pod[];
  /** Nothing left to evict: the node may be terminated. */
  readonly drained: boolean;
}

export function drainPlan(pods: readonly Pod[], now: Date, gracePeriodElapsed: boolean): DrainPlan {
  const movable = pods.filter(
    (p) =>
      !isTerminal(p) &&
      p.metadata.deletionTimestamp === undefined &&
      !isOwnedByNode(p) &&
      !toleratesDisrupted(p),
  );
  const blocked = gracePeriodElapsed ? [] : movable.filter((p) => doNotDisruptActive(p, now));
  const evictable = movable.filter((p) => !blocked.includes(p));
  const groups = [
    evictable.filter((p) => !isCritical(p) && !isOwnedByDaemonSet(p)),
    evictable.filter((p) => !isCritical(p) && isOwnedByDaemonSet(p)),
    evictable.filter((p) => isCritical(p) && !isOwnedByDaemonSet(p)),
    evictable.filter((p) => isCritical(p) && isOwnedByDaemonSet(p)),
  ];
  const evict = groups.find((g) => g.length > 0) ?? [];
  // Terminating pods still run: the node is drained once they are gone too, or stuck (IsWaitingEviction).
  const terminating = pods.some((p) => {
    const deletion = p.metadata.deletionTimestamp;
    if (deletion === undefined || isTerminal(p) || isOwnedByNode(p) || toleratesDisrupted(p)) return false;
    return now.getTime() - Date.parse(deletion) <= STUCK_AFTER_MS;
  });
  return {
    evict,
    waitingOnDoNotDisrupt: blocked,
    drained: evict.length === 0 && blocked.length === 0 && !terminating,
  };
}
