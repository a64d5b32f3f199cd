// The per-object conversions behind the pass view: a pool's domain suppliers, a DaemonSet's overhead input,
// a node's existing-capacity input, a bound pod's topology view and a pending pod's scheduling facts.
import { CAPACITY_TYPE, HOSTNAME, ZONE } from '../model/labels.ts';
import type { Taint } from '../model/meta.ts';
import { podKey, type Pod } from '../model/pod.ts';
import {
  addInto,
  CPU,
  EMPTY,
  MEMORY,
  subtract,
  type MutableResourceList,
  type ResourceList,
} from '../model/resources.ts';
import type { DomainSupplier } from '../scheduling/domains.ts';
import { hostPortsOf, type HostPort } from '../scheduling/host-ports.ts';
import { offeringCompatible } from '../scheduling/instance-type.ts';
import { NO_LIMITS, type ExistingNodeInput, type VolumeLimit } from '../scheduling/nodes.ts';
import { podRequests } from '../scheduling/pod-requests.ts';
import type { Gang, PendingPod } from '../scheduling/pod-state.ts';
import { NO_UNDEFINED, Requirements } from '../scheduling/requirement-set.ts';
import { isEphemeralTaint, untolerated } from '../scheduling/taints.ts';
import type { DaemonInput, NodeClaimTemplate } from '../scheduling/template.ts';
import type { BoundPod } from '../scheduling/topology.ts';
import { gangOf, type ZonalGangs } from './gangs.ts';
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
  daemons: readonly DaemonInput[],
  snapshot: ClusterSnapshot,
  volumes: VolumeIndex,
): ExistingNodeInput {
  let taints: readonly Taint[] = n.taints;
  if (n.managed && !n.initialized) {
    // Karpenter's StateNode.Taints: only a managed node that has not initialized sheds its startup and
    // well-known ephemeral taints; an unmanaged node's not-ready or unreachable taint stays (docs/architecture.md).
    const template = templates.find((t) => t.nodePool === n.nodePool);
    const startup = [...(template?.startupTaints ?? []), ...(n.claim?.spec.startupTaints ?? [])];
    taints = taints.filter((t) => !isEphemeralTaint(t, startup));
  }
  const available = subtract(subtract(n.allocatable, n.podRequests), pendingDaemons(n, taints, daemons));
  const hostPorts: HostPort[] = [];
  for (const p of n.pods) hostPorts.push(...hostPortsOf(p.spec));
  return {
    name: n.name,
    labels: n.labels,
    taints,
    available,
    hostPorts,
    volumeLimits: volumeLimits(n, snapshot, volumes),
    inFlight: n.inFlight,
  };
}

/** Per CSI driver with a CSINode limit: the limit and the distinct claims the node's pods attach (VolumeUsage). */
function volumeLimits(
  n: StateNode,
  snapshot: ClusterSnapshot,
  volumes: VolumeIndex,
): ExistingNodeInput['volumeLimits'] {
  const csi = snapshot.objects.csiNodes.find((c) => c.metadata.name === n.name);
  const out = new Map<string, VolumeLimit>();
  for (const d of csi?.spec.drivers ?? []) {
    if (d.allocatable?.count === undefined) continue;
    const claims = new Set<string>();
    for (const p of n.pods) for (const v of volumes.volumesFor(p)) if (v.driver === d.name) claims.add(v.id);
    out.set(d.name, { limit: d.allocatable.count, claims });
  }
  return out.size ? out : NO_LIMITS;
}

/**
 * Karpenter's NewExistingNode: every existing node keeps room for the compatible DaemonSets (tolerated taints,
 * labels matching the daemon's strict requirements) whose pods are not there yet — their requests minus what
 * the node's DaemonSet pods already request, never below zero per resource.
 */
function pendingDaemons(
  n: StateNode,
  taints: readonly Taint[],
  daemons: readonly DaemonInput[],
): ResourceList {
  if (daemons.length === 0) return EMPTY;
  const labels = Requirements.fromLabels(n.labels);
  const want: MutableResourceList = {};
  for (const d of daemons) {
    if (untolerated(taints, d.tolerations)) continue;
    const strict = d.terms[0];
    if (strict && !labels.compatible(strict, NO_UNDEFINED)) continue;
    addInto(want, d.requests);
  }
  for (const k in want) want[k] = Math.max(0, (want[k] as number) - (n.daemonRequests[k] ?? 0));
  return want;
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
  zonal?: ZonalGangs,
): PendingPod {
  const namespace = pod.metadata.namespace ?? 'default';
  const gang: Gang | undefined = gangOf(pod, gangs, zonal);
  return {
    key: podKey(pod),
    uid: pod.metadata.uid ?? podKey(pod),
    namespace,
    labels: pod.metadata.labels ?? {},
    pod,
    requests,
    hostPorts: hostPortsOf(pod.spec),
    ...volumeTopology(volumes.alternativesFor(pod)),
    volumes: volumes.volumesFor(pod),
    gang,
    order: {
      cpu: requests[CPU] ?? 0,
      memory: requests[MEMORY] ?? 0,
      created: pod.metadata.creationTimestamp ?? '',
    },
  };
}

/** One alternative joins the pod's requirements, as before; several are tried in order where it is placed. */
function volumeTopology(
  alternatives: Requirements[] | undefined,
): Pick<PendingPod, 'volumeRequirements' | 'volumeAlternatives'> {
  if (!alternatives) return { volumeRequirements: undefined };
  if (alternatives.length === 1) return { volumeRequirements: alternatives[0] };
  return { volumeRequirements: undefined, volumeAlternatives: alternatives };
}
