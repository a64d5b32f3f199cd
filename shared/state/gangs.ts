// The gangs of a snapshot (docs/mechanisms/gangs.md): every gang's minimum by `namespace/name` (the gangs map),
// from Volcano PodGroups and the Workload API's gang policies, and the gang a pod belongs to.
import { GANG_DISRUPTION, GANG_PLACEMENT } from '../model/labels.ts';
import type { Pod } from '../model/pod.ts';
import { workloadGroups } from '../model/workload.ts';
import type { ClusterObjects } from './objects.ts';
import { gangName, isVolcanoGangName } from './pods.ts';

/** A gang of the scheduler: its `namespace/name` and the members that must be placed at once. */
export interface GangRef {
  readonly name: string;
  readonly minMember: number;
  /** The gang asks for one zone (`kraftsman.dev/gang-placement: zone`): every member lands in the same zone. */
  readonly oneZone?: boolean;
}

/** Which gangs ask to be placed in one zone (gangZonal): absent, none does. */
export type ZonalGangs = (gang: string) => boolean;

type GangSources = Pick<ClusterObjects, 'podGroups' | 'workloads' | 'workloadPodGroups'>;

/**
 * The gangs map: `namespace/name` (name as pods.ts `gangName` gives it) → minimum members. A Workload API group
 * with the `basic` policy is no gang and has no entry. A v1alpha1 pod group with replicas is one gang per replica
 * key, each with the group's minCount: the entry `namespace/workload:W/G` stands for every replica.
 */
export function gangMinimums(objects: GangSources): Map<string, number> {
  const gangs = new Map<string, number>();
  const ns = (m: { namespace?: string | undefined }) => m.namespace ?? 'default';
  for (const g of objects.podGroups) gangs.set(`${ns(g.metadata)}/${g.metadata.name}`, g.spec.minMember);
  for (const w of objects.workloads)
    for (const g of workloadGroups(w))
      if (g.policy.gang)
        gangs.set(`${ns(w.metadata)}/workload:${w.metadata.name}/${g.name}`, g.policy.gang.minCount);
  for (const g of objects.workloadPodGroups) {
    const gang = g.spec.schedulingPolicy.gang;
    if (gang) gangs.set(`${ns(g.metadata)}/podgroup:${g.metadata.name}`, gang.minCount);
  }
  return gangs;
}

/**
 * Gangs whose object carries `annotation: value`: a Volcano PodGroup, a Workload API PodGroup, or a Workload (every
 * gang of its groups and their replicas), named as gangOf names them.
 */
function annotatedGangs(objects: GangSources, annotation: string, value: string): (gang: string) => boolean {
  const exact = new Set<string>();
  const prefixes: string[] = [];
  const marked = (m: { annotations?: Record<string, string> | undefined }) =>
    m.annotations?.[annotation] === value;
  const ns = (m: { namespace?: string | undefined }) => m.namespace ?? 'default';
  for (const g of objects.podGroups)
    if (marked(g.metadata)) exact.add(`${ns(g.metadata)}/${g.metadata.name}`);
  for (const g of objects.workloadPodGroups)
    if (marked(g.metadata)) exact.add(`${ns(g.metadata)}/podgroup:${g.metadata.name}`);
  for (const w of objects.workloads)
    if (marked(w.metadata)) prefixes.push(`${ns(w.metadata)}/workload:${w.metadata.name}/`);
  if (exact.size === 0 && prefixes.length === 0) return () => false;
  return (gang) => exact.has(gang) || prefixes.some((p) => gang.startsWith(p));
}

/** Gangs that ask for one zone (`kraftsman.dev/gang-placement: zone`, docs/mechanisms/gangs.md#placement). */
export function zonalGangs(objects: GangSources): ZonalGangs {
  return annotatedGangs(objects, GANG_PLACEMENT, 'zone');
}

/** Gangs that opt out of being kept whole (`kraftsman.dev/gang-disruption: per-node`): disrupted node by node. */
export function perNodeGangs(objects: GangSources): (gang: string) => boolean {
  return annotatedGangs(objects, GANG_DISRUPTION, 'per-node');
}

/**
 * The gang a pod is a member of, if any. A Volcano member whose PodGroup is not in the input is a gang of minMember
 * 1 (docs/contract.md); a pod that names a Workload API group that is not a gang (the `basic` policy: KEP-4671,
 * "standard Kubernetes scheduling behavior") or whose Workload or PodGroup is not in the input is placed on its own.
 */
export function gangOf(
  pod: Pod,
  gangs: ReadonlyMap<string, number>,
  zonal?: ZonalGangs,
): GangRef | undefined {
  const g = gangName(pod);
  if (g === undefined) return undefined;
  const namespace = pod.metadata.namespace ?? 'default';
  const name = `${namespace}/${g}`;
  const ref = pod.spec.workloadRef;
  // a replica's gang takes its group's minimum (every replica of a group is alike)
  const min =
    gangs.get(name) ??
    (ref?.podGroupReplicaKey ? gangs.get(`${namespace}/workload:${ref.name}/${ref.podGroup}`) : undefined);
  const minMember = min ?? (isVolcanoGangName(g) ? 1 : undefined);
  if (minMember === undefined) return undefined;
  return zonal?.(name) ? { name, minMember, oneZone: true } : { name, minMember };
}
