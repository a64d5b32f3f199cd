// Volume constraints on scheduling (Karpenter's provisioning/scheduling/volumetopology.go and
// scheduling/volumeusage.go): which pods a volume keeps out of provisioning, the topology alternatives of bound
// PVs and storage classes, and the claims each pod attaches through a CSI driver (counted against CSINode limits).
import { HOSTNAME, ZONE } from '../model/labels.ts';
import type { NodeSelectorRequirement } from '../model/meta.ts';
import type { Pod } from '../model/pod.ts';
import type { PersistentVolume } from '../model/storage.ts';
import type { PodVolume } from '../scheduling/pod-state.ts';
import { Requirement } from '../scheduling/requirement.ts';
import { Requirements } from '../scheduling/requirement-set.ts';
import type { ClusterObjects } from './objects.ts';
import { claimResolver, type PodClaim } from './volume-claims.ts';

/**
 * The zone keys CSI drivers write into volume topology; the cloud providers register them as aliases of
 * topology.kubernetes.io/zone (Karpenter's NormalizedLabels), so nodes never need to carry them.
 */
const CSI_ZONE_KEYS: ReadonlySet<string> = new Set(['topology.ebs.csi.aws.com/zone', 'topology.gke.io/zone']);

const normalizeZoneKey = <T extends { key: string }>(e: T): T =>
  CSI_ZONE_KEYS.has(e.key) ? { ...e, key: ZONE } : e;

export interface VolumeIndex {
  /** Why Karpenter's provisioner ignores the pod for its volumes (ValidatePersistentVolumeClaims), if it does. */
  invalid(pod: Pod): string | undefined;
  /** The pod's volume topology as alternatives (OR), each all of its requirements (AND); undefined: none. */
  alternativesFor(pod: Pod): Requirements[] | undefined;
  /** The claims the pod attaches through a CSI driver. */
  volumesFor(pod: Pod): PodVolume[];
}

export function volumeIndex(objects: ClusterObjects): VolumeIndex {
  const pvs = new Map(objects.pvs.map((v) => [v.metadata.name, v]));
  const classes = new Map(objects.storageClasses.map((s) => [s.metadata.name, s]));
  const claimsOf = claimResolver(objects);
  const className = (c: PodClaim) => c.claim?.spec?.storageClassName ?? '';
  // one claim's alternatives (volumetopology.go getRequirements): the bound PV's terms, else its class's topologies
  const alternativesOf = (c: PodClaim): Requirements[] => {
    const volumeName = c.claim?.spec?.volumeName;
    if (volumeName) return pvAlternatives(pvs.get(volumeName));
    const terms = classes.get(className(c))?.allowedTopologies ?? [];
    return terms
      .map((t) => t.matchLabelExpressions ?? [])
      .filter((es) => es.length > 0)
      .map((es) => new Requirements(es.map((e) => Requirement.in(normalizeZoneKey(e).key, ...e.values))));
  };
  return {
    invalid(pod) {
      for (const c of claimsOf(pod)) {
        const why = invalidClaim(c, pvs, classes);
        if (why) return why;
      }
      return undefined;
    },
    alternativesFor(pod) {
      let out: Requirements[] | undefined;
      for (const c of claimsOf(pod)) {
        const alts = alternativesOf(c);
        if (alts.length) out = out ? mergeAlternatives(out, alts) : alts;
      }
      return out;
    },
    volumesFor(pod) {
      const out: PodVolume[] = [];
      for (const c of claimsOf(pod)) {
        // ResolveDriver: the bound PV's CSI driver, else the class's provisioner; a missing class counts nothing
        const volumeName = c.claim?.spec?.volumeName;
        const driver = volumeName
          ? pvs.get(volumeName)?.spec?.csi?.driver
          : classes.get(className(c))?.provisioner;
        if (c.claim && driver) out.push({ id: c.id, driver });
      }
      return out;
    },
  };
}

/**
 * A bound PV's node affinity terms, each an alternative (volumetopology.go getPersistentVolumeRequirements). A
 * local or hostPath volume drops its hostname requirement — the node it names will not come back — and a term
 * left empty by that constrains nothing.
 */
function pvAlternatives(pv: PersistentVolume | undefined): Requirements[] {
  const out: Requirements[] = [];
  const nodeLocal = pv?.spec?.local !== undefined || pv?.spec?.hostPath !== undefined;
  for (const term of pv?.spec?.nodeAffinity?.required?.nodeSelectorTerms ?? []) {
    const all: NodeSelectorRequirement[] = term.matchExpressions ?? [];
    const kept = nodeLocal ? all.filter((e) => e.key !== HOSTNAME) : all;
    if (kept.length) out.push(Requirements.fromSelectors(kept.map(normalizeZoneKey)));
    else if (all.length) out.push(new Requirements());
  }
  return out;
}

/**
 * volumetopology.go mergeVolumeRequirementAlternatives: the cross product of the alternatives so far with one
 * volume's, keeping only compatible pairs — or every pair when none is, so the pod still fails on them.
 */
function mergeAlternatives(sofar: Requirements[], volume: Requirements[]): Requirements[] {
  const pairs = sofar.flatMap((a) => volume.map((b) => [a, b] as const));
  const compatible = pairs.filter(([a, b]) => a.conflict(b) === undefined);
  return (compatible.length ? compatible : pairs).map(([a, b]) => a.copy().addAll(b));
}

/** volumetopology.go ValidatePersistentVolumeClaims for one claim: the reason the pod is ignored, if any. */
function invalidClaim(
  c: PodClaim,
  pvs: ReadonlyMap<string, PersistentVolume>,
  classes: ReadonlyMap<string, { volumeBindingMode?: string | undefined }>,
): string | undefined {
  const pvc = c.claim;
  if (!pvc) return `persistentvolumeclaim ${c.id} not found`;
  if (pvc.metadata.deletionTimestamp) return `persistentvolumeclaim ${c.id} is being deleted`;
  if (pvc.status?.phase === 'Lost')
    return `persistentvolumeclaim ${c.id} bound to non-existent persistentvolume`;
  const volumeName = pvc.spec?.volumeName;
  if (volumeName) {
    const pv = pvs.get(volumeName);
    if (!pv) return `persistentvolume ${volumeName} of persistentvolumeclaim ${c.id} not found`;
    if (pv.metadata.deletionTimestamp) return `persistentvolume ${volumeName} is being deleted`;
    return undefined;
  }
  const name = pvc.spec?.storageClassName ?? '';
  if (name === '') return `unbound persistentvolumeclaim ${c.id} must define a storage class`;
  const sc = classes.get(name);
  if (!sc) return `storage class ${name} of persistentvolumeclaim ${c.id} not found`;
  // unset is Immediate, the API server's default (SetDefaults_StorageClass)
  if ((sc.volumeBindingMode ?? 'Immediate') === 'Immediate')
    return `persistentvolumeclaim ${c.id} with immediate volume binding mode must be bound`;
  return undefined;
}
