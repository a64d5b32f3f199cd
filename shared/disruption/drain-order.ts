// Which pods a drain evicts and in what order (Karpenter v1.14's terminator, Drain and IsWaitingEviction): pods
// that need no eviction are left alone; the rest go in groups — non-critical non-DaemonSet pods, then
// non-critical DaemonSet pods, then critical non-DaemonSet pods, then critical DaemonSet pods (the graceful node
// shutdown order). A group goes only when the groups before it are gone: terminating and do-not-disrupt pods
// still hold theirs. Pure: the caller lists the node's pods and evicts.
import type { Pod } from '../model/pod.ts';
import { isOwnedByDaemonSet, isOwnedByNode, isTerminal } from '../state/pods.ts';
import { doNotDisruptActive, toleratesDisrupted } from './pod-rules.ts';

const CRITICAL = new Set<string | undefined>(['system-cluster-critical', 'system-node-critical']);

/**
 * The graceful node shutdown order (Karpenter's groupPodsByPriority), 0 to 3: non-critical before critical, and
 * within each the DaemonSet pods last.
 */
const shutdownRank = (p: Pod): number =>
  (CRITICAL.has(p.spec.priorityClassName) ? 2 : 0) + (isOwnedByDaemonSet(p) ? 1 : 0);

/** IsStuckTerminating: a pod still terminating a minute past its deletionTimestamp no longer holds the drain. */
const STUCK_AFTER_MS = 60_000;

export interface DrainPlan {
  /** The pods of the first group still waiting that may be evicted now (not terminating, not held). */
  readonly evict: readonly Pod[];
  /** Pods that hold the drain and may not be evicted (karpenter.sh/do-not-disrupt) until the grace period. */
  readonly waitingOnDoNotDisrupt: readonly Pod[];
  /** No pod left to wait for: the node may be terminated. */
  readonly drained: boolean;
}

export function drainPlan(pods: readonly Pod[], now: Date, gracePeriodElapsed: boolean): DrainPlan {
  // IsWaitingEviction: every pod the drain waits for, terminating and do-not-disrupt ones included.
  const waiting = pods.filter(
    (p) => !isTerminal(p) && !isOwnedByNode(p) && !toleratesDisrupted(p) && !stuckTerminating(p, now),
  );
  const blocked = gracePeriodElapsed
    ? []
    : waiting.filter((p) => p.metadata.deletionTimestamp === undefined && doNotDisruptActive(p, now));
  // Drain: the first group that still has a pod waiting is the one evicted — only its pods not yet terminating
  // and not held by do-not-disrupt (IsEvictable); the groups after it wait, even when it has none to evict.
  const first = Math.min(...waiting.map(shutdownRank));
  return {
    evict: waiting.filter(
      (p) => shutdownRank(p) === first && p.metadata.deletionTimestamp === undefined && !blocked.includes(p),
    ),
    waitingOnDoNotDisrupt: blocked,
    drained: waiting.length === 0,
  };
}

/** IsStuckTerminating: still terminating more than a minute past its deletionTimestamp (none: NaN, never). */
const stuckTerminating = (p: Pod, now: Date): boolean =>
  now.getTime() - new Date(p.metadata.deletionTimestamp ?? NaN).getTime() > STUCK_AFTER_MS;
