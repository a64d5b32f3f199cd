// Pod-level disruption rules of Karpenter v1.14 (pkg/utils/pod, pkg/utils/disruption): the do-not-disrupt
// annotation ("true", or a positive Go duration counted from the pod's start time), evictability, and the
// eviction cost that orders and sizes candidates.
import { parseDuration } from '../model/duration.ts';
import { DISRUPTED_TAINT_KEY, DO_NOT_DISRUPT } from '../model/labels.ts';
import type { Pod } from '../model/pod.ts';
import { toleratesTaint } from '../scheduling/taints.ts';
import { isActive, isOwnedByDaemonSet, isOwnedByNode, isTerminatingStatefulSetPod } from '../state/pods.ts';

/** IsDoNotDisruptActive: "true" blocks; a duration blocks until startTime + duration (no start time: blocks). */
export function doNotDisruptActive(p: Pod, now: Date): boolean {
  const value = p.metadata.annotations?.[DO_NOT_DISRUPT];
  if (value === undefined) return false;
  if (value === 'true') return true;
  const ms = parseDuration(value);
  if (ms === undefined || ms <= 0) return false; // invalid values are ignored (Karpenter emits an event)
  const start = p.status?.startTime;
  if (!start) return true;
  return now.getTime() - Date.parse(start) < ms;
}

const DISRUPTED_TAINT = { key: DISRUPTED_TAINT_KEY, effect: 'NoSchedule' as const };

/** ToleratesDisruptedNoScheduleTaint: the pod would be scheduled straight back, so it is never evicted. */
export const toleratesDisrupted = (p: Pod): boolean =>
  (p.spec.tolerations ?? []).some((t) => toleratesTaint(t, DISRUPTED_TAINT));

/** IsEvictable: the eviction API will be called for it (so its PDBs matter). */
export function isEvictable(p: Pod, now: Date): boolean {
  return isActive(p) && !toleratesDisrupted(p) && !isOwnedByNode(p) && !doNotDisruptActive(p, now);
}

/** IsReschedulable: it would need a new home if its node went away (a terminating StatefulSet pod too). */
export const isReschedulable = (p: Pod): boolean =>
  (isActive(p) || isTerminatingStatefulSetPod(p)) && !isOwnedByDaemonSet(p) && !isOwnedByNode(p);

const POD_DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';

/** EvictionCost: 1, nudged by pod-deletion-cost and priority, clamped to [-10, 10]. */
export function evictionCost(p: Pod): number {
  let cost = 1;
  const deletion = p.metadata.annotations?.[POD_DELETION_COST];
  if (deletion !== undefined && Number.isFinite(Number(deletion))) cost += Number(deletion) / 2 ** 27;
  if (p.spec.priority !== undefined) cost += p.spec.priority / 2 ** 25;
  return Math.min(10, Math.max(-10, cost));
}

/** LifetimeRemaining: the fraction of expireAfter still ahead of the node, in [0, 1] (1 when it never expires). */
export function lifetimeRemaining(createdAt: string | undefined, expireAfterMs: number, now: Date): number {
  if (!Number.isFinite(expireAfterMs) || expireAfterMs <= 0 || !createdAt) return 1;
  const age = now.getTime() - Date.parse(createdAt);
  return Math.min(1, Math.max(0, (expireAfterMs - age) / expireAfterMs));
}
