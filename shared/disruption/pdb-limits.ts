// PodDisruptionBudget limits as Karpenter's pdb.Limits reads them: a pod is evictable unless the one PDB that
// selects it allows 0 disruptions (or more than one PDB selects it). disruptionsAllowed comes from the PDB's
// status when present, otherwise from its spec against the matching pods of the snapshot (the disruption
// controller's arithmetic, rounding percentages up).
import { podKey, type Pod } from '../model/pod.ts';
import type { PodDisruptionBudget } from '../model/workloads.ts';
import { compileSelector, type LabelPredicate } from '../scheduling/selector.ts';
import { isActive } from '../state/pods.ts';

interface PdbItem {
  readonly key: string;
  readonly namespace: string;
  readonly matches: LabelPredicate;
  readonly disruptionsAllowed: number;
  /** maxUnavailable 0 / "0%" or minAvailable "100%": never evictable, so never worth rescheduling. */
  readonly fullyBlocking: boolean;
  readonly alwaysAllowUnhealthy: boolean;
}

export interface PdbLimits {
  /** The PDBs that block evicting this pod, or [] when it may be evicted. */
  blockers(pod: Pod): readonly string[];
  /** A pod that only a fully blocking PDB selects will never be evicted (Karpenter's isFullyBlocked). */
  fullyBlocked(pod: Pod): boolean;
}

export const podReady = (p: Pod): boolean => {
  const ready = p.status?.conditions?.find((c) => c.type === 'Ready');
  return ready ? ready.status === 'True' : p.status?.phase === 'Running';
};

function scaled(value: number | string, total: number): number {
  if (typeof value === 'number') return value;
  if (value.endsWith('%')) return Math.ceil((Number(value.slice(0, -1)) * total) / 100);
  return Number(value);
}

function allowedFromSpec(pdb: PodDisruptionBudget, matching: readonly Pod[]): number {
  const expected = matching.length;
  const healthy = matching.filter(podReady).length;
  const { minAvailable, maxUnavailable } = pdb.spec;
  let desired = 0;
  if (maxUnavailable !== undefined) desired = expected - scaled(maxUnavailable, expected);
  else if (minAvailable !== undefined) desired = scaled(minAvailable, expected);
  return Math.max(0, healthy - Math.max(0, desired));
}

export function pdbLimits(pdbs: readonly PodDisruptionBudget[], pods: readonly Pod[]): PdbLimits {
  const items: PdbItem[] = pdbs.map((pdb) => {
    const namespace = pdb.metadata.namespace ?? 'default';
    // policy/v1: an empty selector selects every pod of the namespace; an absent one selects none.
    const matches = pdb.spec.selector ? compileSelector(pdb.spec.selector) : () => false;
    const fromStatus = pdb.status?.disruptionsAllowed;
    const allowed =
      fromStatus ??
      allowedFromSpec(
        pdb,
        pods.filter(
          (p) =>
            isActive(p) && (p.metadata.namespace ?? 'default') === namespace && matches(p.metadata.labels),
        ),
      );
    const { minAvailable, maxUnavailable } = pdb.spec;
    return {
      key: `${namespace}/${pdb.metadata.name}`,
      namespace,
      matches,
      disruptionsAllowed: allowed,
      fullyBlocking:
        maxUnavailable === 0 || maxUnavailable === '0' || maxUnavailable === '0%' || minAvailable === '100%',
      alwaysAllowUnhealthy: pdb.spec.unhealthyPodEvictionPolicy === 'AlwaysAllow',
    };
  });
  const cache = new Map<string, PdbItem[]>();
  const matching = (pod: Pod): PdbItem[] => {
    const k = podKey(pod);
    let m = cache.get(k);
    if (!m) {
      const ns = pod.metadata.namespace ?? 'default';
      cache.set(k, (m = items.filter((i) => i.namespace === ns && i.matches(pod.metadata.labels))));
    }
    return m;
  };
  const blocked = (pod: Pod, test: (i: PdbItem) => boolean): readonly string[] => {
    const m = matching(pod);
    // Kubernetes refuses to evict a pod that more than one PDB selects.
    if (m.length > 1) return m.map((i) => i.key);
    for (const i of m) {
      if (i.alwaysAllowUnhealthy && !podReady(pod)) return [];
      if (test(i)) return [i.key];
    }
    return [];
  };
  return {
    blockers: (pod) => blocked(pod, (i) => i.disruptionsAllowed === 0),
    fullyBlocked: (pod) => blocked(pod, (i) => i.fullyBlocking).length > 0,
  };
}
