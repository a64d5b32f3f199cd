// The per-object conversions behind the pass view: a pool's domain suppliers, a DaemonSet's overhead input,
// a node's existing-capacity input, a bound pod's topology view and a pending pod's scheduling facts.
import { CAPACITY_TYPE, HOSTNAME, ZONE } from '../model/labels.ts';
import type { Taint } from '../model/meta.ts';
import { podKey, type Pod } from '../model/pod.ts';
import { CPU, EMPTY, MEMORY, subtract, type ResourceList } from '../model/resources.ts';
import type { DomainSupplier } from '../scheduling/domains.ts';
import { hostPortsOf, type HostPort } from '../scheduling/host-ports.ts';
import { offeringCompatible } from '../scheduling/instance-type.ts';
import type { ExistingNodeInput } from '../scheduling/nodes.ts';
import { podRequests } from '../scheduling/pod-requests.ts';
import type { Gang, PendingPod } from '../scheduling/pod-state.ts';
import { Requirements } from '../scheduling/requirement-set.ts';
import { isEphemeralTaint } from '../scheduling/taints.ts';
import type { DaemonInput, NodeClaimTemplate } from '../scheduling/template.ts';
import type { BoundPod } from '../scheduling/topology.ts';
import { gangName } from './pods.ts';
import type { ClusterSnapshot, StateNode } from './snapshot.ts';
import type { VolumeIndex } from './volumes.ts';

// The domains a pool supplies on a key, each with the instance types that supply it (zone and capacity type
// through available offerings, other keys through labels), so reachability can be judged per pod.
export function poolDomains(
  t: NodeClaimTemplate,
  key: string,
): { domain: string; supplier: DomainSupplier }[] {
  if (key === HOSTNAME) return [];
  const r = t.requirements.get(key);
  const byDomain = new Map<string, Requirements[]>();
  const add = (d: string, it: NodeClaimTemplate['instanceTypes'][number]) => {
    if (!r.has(d)) return;
    const list = byDomain.get(d) ?? [];
    if (!list.includes(it.requirements)) list.push(it.requirements);
    byDomain.set(d, list);
  };
  for (const it of t.instanceTypes) {
    if (key === ZONE || key === CAPACITY_TYPE) {
      for (const o of it.offerings)
        if (o.available && offeringCompatible(o, t.requirements))
          add(key === ZONE ? o.zone : o.capacityType, it);
    } else {
      const v = it.labels[key] ?? t.labels[key];
      if (v !== undefined) add(v, it);
      else if (!r.complement) for (const d of r.values) add(d, it);
    }
  }
  return [...byDomain].map(([domain, instanceTypes]) => ({
    domain,
    supplier: { requirements: t.requirements, taints: t.taints, isPool: true, instanceTypes },
  }));
}

export function collectKeys(pod: Pod, keys: Set<string>): void {
  for (const c of pod.spec.topologySpreadConstraints ?? []) keys.add(c.topologyKey);
  const a = pod.spec.affinity;
  for (const t of a?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [])
    keys.add(t.topologyKey);
  for (const t of a?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [])
    keys.add(t.podAffinityTerm.topologyKey);
  for (const t of a?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [])
    keys.add(t.topologyKey);
  for (const t of a?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [])
    keys.add(t.podAffinityTerm.topologyKey);
}

export function daemonInput(ds: { spec: { template: { spec: Pod['spec'] } } }): DaemonInput {
  const spec = ds.spec.template.spec;
  const base = Requirements.fromLabels(spec.nodeSelector);
  const terms =
    spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  return {
    requests: podRequests(spec),
    tolerations: spec.tolerations ?? [],
    terms: terms.length
      ? terms.map((t) => base.copy().addAll(Requirements.fromSelectors(t.matchExpressions)))
      : [base],
    hostPorts: hostPortsOf(spec),
  };
}

export function existingInput(
  n: StateNode,
  templates: readonly NodeClaimTemplate[],
  snapshot: ClusterSnapshot,
  volumes: VolumeIndex,
): ExistingNodeInput {
  let available = subtract(n.allocatable, n.podRequests);
  let taints: readonly Taint[] = n.taints;
  if (!n.initialized) {
    // In-flight capacity: startup and ephemeral taints will be gone, and the pool's daemons will take their share.
    const template = templates.find((t) => t.nodePool === n.nodePool);
    const startup = [...(template?.startupTaints ?? []), ...(n.claim?.spec.startupTaints ?? [])];
    taints = taints.filter((t) => !isEphemeralTaint(t, startup));
    const typeName = n.instanceType?.name;
    if (template && typeName && n.pods.length === 0)
      available = subtract(available, template.daemonOverhead.get(typeName) ?? EMPTY);
  }
  const hostPorts: HostPort[] = [];
  for (const p of n.pods) hostPorts.push(...hostPortsOf(p.spec));
  const volumeSlots = new Map<string, number>();
  const csi = snapshot.objects.csiNodes.find((c) => c.metadata.name === n.name);
  for (const d of csi?.spec.drivers ?? []) {
    if (d.allocatable?.count === undefined) continue;
    let used = 0;
    for (const p of n.pods) used += volumes.driversFor(p).filter((x) => x === d.name).length;
    volumeSlots.set(d.name, d.allocatable.count - used);
  }
  return { name: n.name, labels: n.labels, taints, available, hostPorts, volumeSlots, inFlight: n.inFlight };
}

export function boundPod(p: Pod, n: StateNode): BoundPod {
  return {
    key: podKey(p),
    namespace: p.metadata.namespace ?? 'default',
    labels: p.metadata.labels ?? {},
    nodeLabels: n.labels,
    nodeTaints: n.taints,
    antiAffinity: p.spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [],
  };
}

export function toPendingPod(
  pod: Pod,
  requests: ResourceList,
  volumes: VolumeIndex,
  gangs: ReadonlyMap<string, number>,
): PendingPod {
  const namespace = pod.metadata.namespace ?? 'default';
  const g = gangName(pod);
  const gang: Gang | undefined = g
    ? { name: `${namespace}/${g}`, minMember: gangs.get(`${namespace}/${g}`) ?? 1 }
    : undefined;
  return {
    key: podKey(pod),
    uid: pod.metadata.uid ?? podKey(pod),
    namespace,
    labels: pod.metadata.labels ?? {},
    pod,
    requests,
    hostPorts: hostPortsOf(pod.spec),
    volumeRequirements: volumes.requirementsFor(pod),
    volumeDrivers: volumes.driversFor(pod),
    gang,
    order: {
      cpu: requests[CPU] ?? 0,
      memory: requests[MEMORY] ?? 0,
      created: pod.metadata.creationTimestamp ?? '',
    },
  };
}
