// Volume constraints on scheduling: zonal topology from bound PVs and storage classes, and the CSI driver
// each persistent volume attaches through (counted against CSINode attach limits).
import { ZONE } from '../model/labels.ts';
import type { Pod } from '../model/pod.ts';
import { Requirement } from '../scheduling/requirement.ts';
import { Requirements } from '../scheduling/requirement-set.ts';
import type { ClusterObjects } from './objects.ts';

/**
 * The zone keys CSI drivers write into volume topology; the cloud providers register them as aliases of
 * topology.kubernetes.io/zone (Karpenter's NormalizedLabels), so nodes never need to carry them.
 */
const CSI_ZONE_KEYS: ReadonlySet<string> = new Set(['topology.ebs.csi.aws.com/zone', 'topology.gke.io/zone']);

const normalizeZoneKey = <T extends { key: string }>(e: T): T =>
  CSI_ZONE_KEYS.has(e.key) ? { ...e, key: ZONE } : e;

export interface VolumeIndex {
  requirementsFor(pod: Pod): Requirements | undefined;
  driversFor(pod: Pod): string[];
}

export function volumeIndex(objects: ClusterObjects): VolumeIndex {
  const pvcs = new Map(
    objects.pvcs.map((c) => [`${c.metadata.namespace ?? 'default'}/${c.metadata.name}`, c]),
  );
  const pvs = new Map(objects.pvs.map((v) => [v.metadata.name, v]));
  const classes = new Map(objects.storageClasses.map((s) => [s.metadata.name, s]));
  const claimsOf = (pod: Pod) =>
    (pod.spec.volumes ?? [])
      .map((v) => v.persistentVolumeClaim?.claimName)
      .filter((n): n is string => n !== undefined)
      .map((n) => pvcs.get(`${pod.metadata.namespace ?? 'default'}/${n}`))
      .filter((c) => c !== undefined);
  return {
    requirementsFor(pod) {
      let out: Requirements | undefined;
      for (const claim of claimsOf(pod)) {
        const pv = claim.spec?.volumeName ? pvs.get(claim.spec.volumeName) : undefined;
        const terms = pv?.spec?.nodeAffinity?.required?.nodeSelectorTerms;
        if (terms?.[0]) {
          out ??= new Requirements();
          out.addAll(Requirements.fromSelectors((terms[0].matchExpressions ?? []).map(normalizeZoneKey)));
          continue;
        }
        const sc = claim.spec?.storageClassName ? classes.get(claim.spec.storageClassName) : undefined;
        for (const t of sc?.allowedTopologies ?? []) {
          for (const e of t.matchLabelExpressions ?? []) {
            if (e.key !== ZONE && !CSI_ZONE_KEYS.has(e.key)) continue;
            out ??= new Requirements();
            out.add(Requirement.in(ZONE, ...e.values));
          }
        }
      }
      return out;
    },
    driversFor(pod) {
      const out: string[] = [];
      for (const claim of claimsOf(pod)) {
        const pv = claim.spec?.volumeName ? pvs.get(claim.spec.volumeName) : undefined;
        const driver =
          pv?.spec?.csi?.driver ??
          (claim.spec?.storageClassName ? classes.get(claim.spec.storageClassName)?.provisioner : undefined);
        if (driver) out.push(driver);
      }
      return out;
    },
  };
}
