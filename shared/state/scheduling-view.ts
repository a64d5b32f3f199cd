// Turns a cluster snapshot into scheduler input. What does not depend on the candidate (NodeClaim templates,
// DaemonSet overhead, pod data, NodePool domain suppliers) is computed once per pass (seed, "Sharing the pass");
// each simulation then only chooses which nodes exist and which pods are pending.
import { CAPACITY_TYPE, CLOUD, HOSTNAME, WELL_KNOWN_LABELS, ZONE } from '../model/labels.ts';
import { offeringCompatible } from '../scheduling/instance-type.ts';
import type { Taint } from '../model/meta.ts';
import { podKey, type Pod } from '../model/pod.ts';
import {
  CPU,
  EMPTY,
  MEMORY,
  fromQuantities,
  subtract,
  subtractWithin,
  addInto,
  type MutableResourceList,
  type ResourceList,
} from '../model/resources.ts';
import { DomainUniverse, type DomainSupplier } from '../scheduling/domains.ts';
import { hostPortsOf, type HostPort } from '../scheduling/host-ports.ts';
import { podRequests as podRequestsOf } from '../scheduling/pod-requests.ts';
import type { ExistingNodeInput } from '../scheduling/nodes.ts';
import type { Gang, PendingPod } from '../scheduling/pod-state.ts';
import { Requirement } from '../scheduling/requirement.ts';
import { Requirements } from '../scheduling/requirements.ts';
import type { SchedulingInput } from '../scheduling/scheduler.ts';
import { isEphemeralTaint } from '../scheduling/taints.ts';
import { buildTemplate, type DaemonInput, type NodeClaimTemplate } from '../scheduling/template.ts';
import type { BoundPod } from '../scheduling/topology.ts';
import { gangName } from './pods.ts';
import type { ClusterSnapshot, StateNode } from './snapshot.ts';
import { volumeIndex, type VolumeIndex } from './volumes.ts';

export interface PassView {
  readonly snapshot: ClusterSnapshot;
  readonly templates: readonly NodeClaimTemplate[];
  readonly allowUndefined: ReadonlySet<string>;
  readonly namespaces: ReadonlyMap<string, Readonly<Record<string, string>>>;
  pendingPod(pod: Pod): PendingPod;
  /** Scheduler input with `pods` pending, on every schedulable node except `excluded`. */
  input(pods: readonly PendingPod[], excluded?: ReadonlySet<string>): SchedulingInput;
}

export function passView(snapshot: ClusterSnapshot): PassView {
  const allowUndefined = new Set(WELL_KNOWN_LABELS);
  for (const it of snapshot.instanceTypes) for (const k of Object.keys(it.labels)) allowUndefined.add(k);
  const daemons = snapshot.objects.daemonSets.map(daemonInput);
  const templates: NodeClaimTemplate[] = [];
  const remaining = new Map<string, ResourceList>();
  for (const view of snapshot.nodePools.values()) {
    const spec = view.pool.spec.template.spec;
    const requirements = Requirements.fromSelectors(spec.requirements).add(Requirement.in(CLOUD, view.cloud));
    templates.push(
      buildTemplate(
        {
          name: view.name,
          cloud: view.cloud,
          weight: view.pool.spec.weight ?? 0,
          requirements,
          labels: view.pool.spec.template.metadata?.labels ?? {},
          taints: spec.taints ?? [],
          startupTaints: spec.startupTaints ?? [],
          remaining: undefined,
        },
        snapshot.instanceTypes,
        daemons,
        allowUndefined,
      ),
    );
    const limits = view.pool.spec.limits;
    if (limits) {
      const used: MutableResourceList = {};
      for (const n of [...snapshot.nodes, ...snapshot.inFlight]) {
        if (n.nodePool === view.name) addInto(used, n.instanceType?.capacity ?? n.allocatable);
      }
      remaining.set(view.name, subtractWithin(fromQuantities(limits), used));
    }
  }
  const namespaces = new Map<string, Record<string, string>>();
  for (const ns of snapshot.objects.namespaces)
    namespaces.set(ns.metadata.name, {
      'kubernetes.io/metadata.name': ns.metadata.name,
      ...(ns.metadata.labels ?? {}),
    });
  for (const p of snapshot.objects.pods) {
    const ns = p.metadata.namespace ?? 'default';
    if (!namespaces.has(ns)) namespaces.set(ns, { 'kubernetes.io/metadata.name': ns });
  }
  const volumes = volumeIndex(snapshot.objects);
  const gangs = new Map(
    snapshot.objects.podGroups.map((g) => [
      `${g.metadata.namespace ?? 'default'}/${g.metadata.name}`,
      g.spec.minMember,
    ]),
  );
  const poolSuppliers = new Map<string, { domain: string; supplier: DomainSupplier }[]>();
  const suppliersFor = (key: string) => {
    let list = poolSuppliers.get(key);
    if (!list) poolSuppliers.set(key, (list = templates.flatMap((t) => poolDomains(t, key))));
    return list;
  };
  const nodeSuppliers = new Map<StateNode, DomainSupplier>();
  const supplierOf = (n: StateNode): DomainSupplier => {
    let s = nodeSuppliers.get(n);
    if (!s)
      nodeSuppliers.set(
        n,
        (s = { requirements: Requirements.fromLabels(n.labels), taints: n.taints, isPool: false }),
      );
    return s;
  };
  const pendingCache = new Map<Pod, PendingPod>();
  const schedulableNodes = [...snapshot.nodes, ...snapshot.inFlight].filter(schedulable);
  const existingInputs = new Map<StateNode, ExistingNodeInput>();
  const bounds = new Map<StateNode, BoundPod[]>();
  const boundOf = (n: StateNode) => memo(bounds, n, () => n.pods.map((p) => boundPod(p, n)));
  const allBound = schedulableNodes.flatMap(boundOf);
  const antiAffinityKeys = new Set(allBound.flatMap((b) => b.antiAffinity.map((t) => t.topologyKey)));
  const topologyCounts = new Map<string, ReadonlyMap<string, number>>();
  // Volcano gang members already running, so a simulation that moves some of them needs only the rest.
  const gangOfBound = new Map<string, string>();
  const gangsBound = new Map<string, number>();
  for (const n of schedulableNodes) {
    for (const p of n.pods) {
      const g = gangName(p);
      if (!g) continue;
      const name = `${p.metadata.namespace ?? 'default'}/${g}`;
      gangOfBound.set(podKey(p), name);
      gangsBound.set(name, (gangsBound.get(name) ?? 0) + 1);
    }
  }

  const view: PassView = {
    snapshot,
    templates,
    allowUndefined,
    namespaces,
    pendingPod(pod) {
      let p = pendingCache.get(pod);
      if (!p)
        pendingCache.set(
          pod,
          (p = toPendingPod(pod, snapshot.podRequests.get(podKey(pod)) ?? EMPTY, volumes, gangs)),
        );
      return p;
    },
    // SimulationCopy (seed, "Sharing the pass"): node inputs (summed requests, host ports, volume slots) and
    // bound-pod views are built once per pass and shared; each simulation clones only what scheduling mutates
    // (ExistingNode copies ports and volume slots) and subtracts the pods of the nodes it leaves out.
    input(pods, excluded) {
      const nodes = schedulableNodes.filter((n) => !excluded?.has(n.name));
      const existing = nodes.map((n) =>
        memo(existingInputs, n, () => existingInput(n, templates, snapshot, volumes)),
      );
      const removed: BoundPod[] = [];
      if (excluded?.size)
        for (const n of schedulableNodes) if (excluded.has(n.name)) removed.push(...boundOf(n));
      const keys = new Set<string>(antiAffinityKeys);
      for (const p of pods) collectKeys(p.pod, keys);
      keys.delete(HOSTNAME); // hostnames need no universe: an unknown hostname counts as an empty domain
      const universe = new DomainUniverse();
      for (const key of keys) {
        for (const { domain, supplier } of suppliersFor(key)) universe.add(key, domain, supplier);
        for (const n of nodes) {
          const d = n.labels[key];
          if (d !== undefined) universe.add(key, d, supplierOf(n));
        }
      }
      const gangsRunning = new Map(gangsBound);
      for (const b of removed) {
        const g = gangOfBound.get(b.key);
        if (g) gangsRunning.set(g, (gangsRunning.get(g) ?? 1) - 1);
      }
      return {
        pods,
        existing,
        templates,
        remaining,
        bound: allBound,
        universe,
        namespaces,
        gangsRunning,
        topologyShare: { counts: topologyCounts, removed },
      };
    },
  };
  return view;
}

function memo<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let v = map.get(key);
  if (v === undefined) map.set(key, (v = make()));
  return v;
}

const schedulable = (n: StateNode): boolean => !n.markedForDeletion && n.node?.spec?.unschedulable !== true;

// The domains a pool supplies on a key, each with the instance types that supply it (zone and capacity type
// through available offerings, other keys through labels), so reachability can be judged per pod.
function poolDomains(t: NodeClaimTemplate, key: string): { domain: string; supplier: DomainSupplier }[] {
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

function collectKeys(pod: Pod, keys: Set<string>): void {
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

function daemonInput(ds: { spec: { template: { spec: Pod['spec'] } } }): DaemonInput {
  const spec = ds.spec.template.spec;
  const base = Requirements.fromLabels(spec.nodeSelector);
  const terms =
    spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  return {
    requests: podRequestsOf(spec),
    tolerations: spec.tolerations ?? [],
    terms: terms.length
      ? terms.map((t) => base.copy().addAll(Requirements.fromSelectors(t.matchExpressions)))
      : [base],
    hostPorts: hostPortsOf(spec),
  };
}

function existingInput(
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

function boundPod(p: Pod, n: StateNode): BoundPod {
  return {
    key: podKey(p),
    namespace: p.metadata.namespace ?? 'default',
    labels: p.metadata.labels ?? {},
    nodeLabels: n.labels,
    nodeTaints: n.taints,
    antiAffinity: p.spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [],
  };
}

function toPendingPod(
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
