// NodeClaim templates: one per NodePool, with the pool's requirements, labels and taints, the instance types
// it may launch, and the DaemonSet overhead each of those types would carry (per template and type).
import type { Taint, Toleration } from '../model/meta.ts';
import type { Cloud } from '../model/labels.ts';
import { CAPACITY_TYPE, CLOUD, NODEPOOL, ZONE } from '../model/labels.ts';
import { addInto, EMPTY, type MutableResourceList, type ResourceList } from '../model/resources.ts';
import type { HostPort } from './host-ports.ts';
import { offeringCompatible, type InstanceType } from './instance-type.ts';
import { Requirement } from './requirement.ts';
import type { Requirements } from './requirement-set.ts';
import { untolerated } from './taints.ts';

export interface NodePoolInput {
  readonly name: string;
  readonly cloud: Cloud;
  readonly weight: number;
  readonly requirements: Requirements;
  readonly labels: Readonly<Record<string, string>>;
  readonly taints: readonly Taint[];
  readonly startupTaints: readonly Taint[];
  /** Remaining limits (limits minus what the pool's existing claims use), if the pool has limits. */
  readonly remaining: ResourceList | undefined;
  /** The pool's node class places a gang in one zone (a placement group / compact placement: docs/node-classes.md). */
  readonly oneZoneGangs?: boolean;
}

export interface DaemonInput {
  readonly requests: ResourceList;
  readonly tolerations: readonly Toleration[];
  /** OR terms of the daemon pod's strict node requirements. */
  readonly terms: readonly Requirements[];
  readonly hostPorts: readonly HostPort[];
}

export interface NodeClaimTemplate {
  readonly nodePool: string;
  readonly cloud: Cloud;
  readonly weight: number;
  readonly requirements: Requirements;
  readonly labels: Readonly<Record<string, string>>;
  readonly taints: readonly Taint[];
  readonly startupTaints: readonly Taint[];
  readonly instanceTypes: readonly InstanceType[];
  readonly daemonOverhead: ReadonlyMap<string, ResourceList>;
  readonly daemonHostPorts: readonly HostPort[];
  /** A gang with a claim of this template is placed in one zone (docs/mechanisms/gangs.md#placement). */
  readonly oneZoneGangs?: boolean;
}

export function buildTemplate(
  pool: NodePoolInput,
  catalog: readonly InstanceType[],
  daemons: readonly DaemonInput[],
  allowUndefined: ReadonlySet<string>,
): NodeClaimTemplate {
  const requirements = pool.requirements.copy();
  for (const [k, v] of Object.entries(pool.labels)) requirements.add(Requirement.in(k, v));
  requirements.add(Requirement.in(NODEPOOL, pool.name));
  requirements.add(Requirement.in(CLOUD, pool.cloud));
  const instanceTypes = catalog.filter(
    (it) =>
      it.cloud === pool.cloud &&
      requirements.conflict(it.requirements) === undefined &&
      it.offerings.some((o) => o.available && offeringCompatible(o, requirements)),
  );
  // Narrow zone and capacity type to what the pool's types can actually offer, so topology never picks a
  // domain no offering can serve.
  const zones = new Set<string>();
  const capacityTypes = new Set<string>();
  for (const it of instanceTypes)
    for (const o of it.offerings)
      if (o.available && offeringCompatible(o, requirements)) {
        zones.add(o.zone);
        capacityTypes.add(o.capacityType);
      }
  requirements.add(Requirement.in(ZONE, ...zones));
  requirements.add(Requirement.in(CAPACITY_TYPE, ...capacityTypes));

  const daemonOverhead = new Map<string, ResourceList>();
  const daemonHostPorts: HostPort[] = [];
  const compatible = daemons.filter((d) => !untolerated(pool.taints, d.tolerations));
  for (const d of compatible)
    if (d.terms.some((t) => requirements.compatible(t, allowUndefined))) daemonHostPorts.push(...d.hostPorts);
  for (const it of instanceTypes) {
    const total: MutableResourceList = {};
    const reqs = requirements.copy().addAll(it.requirements);
    for (const d of compatible)
      if (d.terms.some((t) => reqs.compatible(t, allowUndefined))) addInto(total, d.requests);
    daemonOverhead.set(it.name, Object.keys(total).length ? total : EMPTY);
  }
  return {
    nodePool: pool.name,
    cloud: pool.cloud,
    weight: pool.weight,
    requirements,
    labels: { ...pool.labels, [NODEPOOL]: pool.name },
    taints: pool.taints,
    startupTaints: pool.startupTaints,
    instanceTypes,
    daemonOverhead,
    daemonHostPorts,
    ...(pool.oneZoneGangs ? { oneZoneGangs: true } : {}),
  };
}
