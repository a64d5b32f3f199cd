// Pod facts Karpenter's provisioner and disruption rely on (pkg/utils/pod), plus the Volcano rules.
import { VOLCANO_GROUP, VOLCANO_GROUP_ALT } from '../model/labels.ts';
import type { Pod } from '../model/pod.ts';
import type { VolumeIndex } from './volumes.ts';

export const isTerminal = (p: Pod): boolean =>
  p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';
export const isTerminating = (p: Pod): boolean => p.metadata.deletionTimestamp !== undefined;
export const isOwnedByDaemonSet = (p: Pod): boolean =>
  (p.metadata.ownerReferences ?? []).some((o) => o.kind === 'DaemonSet');
export const isOwnedByNode = (p: Pod): boolean =>
  (p.metadata.ownerReferences ?? []).some((o) => o.kind === 'Node');
export const isActive = (p: Pod): boolean => !isTerminal(p) && !isTerminating(p);
export const isOwnedByStatefulSet = (p: Pod): boolean =>
  (p.metadata.ownerReferences ?? []).some((o) => o.kind === 'StatefulSet');
/**
 * Karpenter's IsReschedulable exception (pkg/utils/pod/scheduling.go): a StatefulSet pod must be deleted before
 * its replacement is created, so a terminating one still needs a home and is modelled as running.
 */
export const isTerminatingStatefulSetPod = (p: Pod): boolean =>
  !isTerminal(p) && isTerminating(p) && isOwnedByStatefulSet(p);

/**
 * The gang a pod points to, as a name unique in its namespace (the gang is `namespace/name`), if any:
 * - `spec.schedulingGroup.podGroupName: G` (the Workload API, Kubernetes 1.36): `podgroup:G`;
 * - `spec.workloadRef {name: W, podGroup: G, podGroupReplicaKey?: R}` (1.35): `workload:W/G` (or `workload:W/G/R`:
 *   each replica of a pod group is a gang of its own);
 * - Volcano's annotation `scheduling.k8s.io/group-name: G`: `G`.
 * Names never collide: a Volcano PodGroup's name holds no `:`. Whether a Workload API group is a gang at all (its
 * policy may be `basic`) is the snapshot's to say: gangs.ts `gangOf` reads the policy.
 */
export function gangName(p: Pod): string | undefined {
  const sg = p.spec.schedulingGroup;
  if (sg) return `podgroup:${sg.podGroupName}`;
  const w = p.spec.workloadRef;
  if (w) return `workload:${w.name}/${w.podGroup}${w.podGroupReplicaKey ? `/${w.podGroupReplicaKey}` : ''}`;
  const a = p.metadata.annotations ?? {};
  return a[VOLCANO_GROUP] ?? a[VOLCANO_GROUP_ALT];
}

/** A Volcano gang's name (docs/mechanisms/gangs.md): a member whose PodGroup is not in the input has minMember 1. */
export const isVolcanoGangName = (name: string): boolean => !name.includes(':');

/** Volcano's pods are the ones it schedules (docs/contract.md): a group-name annotation alone does not make one. */
export const isVolcanoScheduled = (p: Pod): boolean => p.spec.schedulerName === 'volcano';

/**
 * Karpenter's IsPreempting: a nominated pod waits for capacity kube-scheduler already freed. The fork: Volcano
 * sets the same field on gang members stuck behind minAvailable and never clears it, so for Volcano-scheduled
 * pods the nomination does not hide demand (docs/mechanisms/gangs.md).
 */
export function isPreempting(p: Pod, volcanoFix: boolean): boolean {
  if (!p.status?.nominatedNodeName) return false;
  return !(volcanoFix && isVolcanoScheduled(p));
}

export type IgnoreReason = 'preempting' | 'daemonset' | 'terminal' | 'terminating' | 'static' | 'not pending';

/** Why an unbound pod is not provisioning demand (Karpenter's IsProvisionable), or undefined when it is. */
export function ignoreReason(p: Pod, volcanoFix: boolean): IgnoreReason | undefined {
  if (isTerminal(p)) return 'terminal';
  if (isTerminating(p)) return 'terminating';
  if (p.status?.phase && p.status.phase !== 'Pending') return 'not pending';
  if (isOwnedByDaemonSet(p)) return 'daemonset';
  if (isOwnedByNode(p)) return 'static';
  if (isPreempting(p, volcanoFix)) return 'preempting';
  return undefined;
}

/**
 * Why Karpenter's provisioner leaves an unbound pod out (GetPendingPods): not provisionable, or rejected by its
 * Validate — here its volume checks (volumetopology.go ValidatePersistentVolumeClaims), or undefined.
 */
export function pendingIgnoreReason(
  p: Pod,
  volcanoFix: boolean,
  volumes: Pick<VolumeIndex, 'invalid'>,
): string | undefined {
  const reason = ignoreReason(p, volcanoFix);
  if (reason) return reason;
  const invalid = volumes.invalid(p);
  return invalid ? `ignoring pod, ${invalid}` : undefined;
}
