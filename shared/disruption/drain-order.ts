// Which pods a drain evicts and in what order (Karpenter's terminator): pods that will not come back
// elsewhere or need no eviction are left alone; the rest go in groups — non-critical before critical, and
// DaemonSet pods last, since they serve the node until its workloads are gone. A group goes only when the
// groups before it are gone. Pure: the caller lists the node's pods and evicts.
import type { Pod } from '../model/pod.ts';
import { isOwnedByDaemonSet, isOwnedByNode, isTerminal } from '../state/pods.ts';
import { DISRUPTED_TAINT_KEY } from '../model/labels.ts';
import { doNotDisruptActive } from './pod-rules.ts';

const CRITICAL = new Set(['system-cluster-critical', 'system-node-critical']);

const isCritical = (p: Pod): boolean => CRITICAL.has(p.spec.priorityClassName ?? '');

/** A pod tolerating the disrupted taint would be scheduled straight back: Karpenter does not evict it. */
const toleratesDisrupted = (p: Pod): boolean =>
  (p.spec.tolerations ?? []).some(
    (t) =>
      (t.operator === 'Exists' && (t.key === undefined || t.key === '')) || t.key === DISRUPTED_TAINT_KEY,
  );

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
    evictable.filter((p) => !isOwnedByDaemonSet(p) && !isCritical(p)),
    evictable.filter((p) => !isOwnedByDaemonSet(p) && isCritical(p)),
    evictable.filter((p) => isOwnedByDaemonSet(p) && !isCritical(p)),
    evictable.filter((p) => isOwnedByDaemonSet(p) && isCritical(p)),
  ];
  const evict = groups.find((g) => g.length > 0) ?? [];
  // Terminating pods still run: the node is drained once they are gone too.
  const terminating = pods.some((p) => !isTerminal(p) && p.metadata.deletionTimestamp !== undefined);
  return {
    evict,
    waitingOnDoNotDisrupt: blocked,
    drained: evict.length === 0 && blocked.length === 0 && !terminating,
  };
}
