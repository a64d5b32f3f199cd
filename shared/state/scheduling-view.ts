// Turns a cluster snapshot into scheduler input. What does not depend on the candidate (NodeClaim templates,
// DaemonSet overhead, pod data, NodePool domain suppliers) is computed once per pass (docs/mechanisms/simulation-copy.md);
// each simulation then only chooses which nodes exist and which pods are pending.
import { CLOUD, HOSTNAME, WELL_KNOWN_LABELS, ZONE } from '../model/labels.ts';
import { placesGangsInOneZone } from '../model/nodeclass.ts';
import { podKey, type Pod } from '../model/pod.ts';
import { EMPTY } from '../model/resources.ts';
import { DomainUniverse, type DomainSupplier } from '../scheduling/domains.ts';
import type { DestinationGuard, ExistingNodeInput } from '../scheduling/nodes.ts';
import type { PendingPod } from '../scheduling/pod-state.ts';
import { Requirement } from '../scheduling/requirement.ts';
import { Requirements } from '../scheduling/requirement-set.ts';
import type { SchedulingInput } from '../scheduling/scheduler.ts';
import { buildTemplate, type NodeClaimTemplate } from '../scheduling/template.ts';
import type { BoundPod } from '../scheduling/topology.ts';
import { nodeClassTypes } from './node-class-types.ts';
import { gangMinimums, gangOf, zonalGangs } from './gangs.ts';
import { isActive } from './pods.ts';
import { poolLimits } from './pool-limits.ts';
import {
  boundPod,
  collectKeys,
  daemonInput,
  existingInput,
  poolDomains,
  toPendingPod,
} from './scheduling-inputs.ts';
import type { ClusterSnapshot, StateNode } from './snapshot.ts';
import { volumeIndex, type VolumeIndex } from './volumes.ts';

export interface PassView {
  readonly snapshot: ClusterSnapshot;
  readonly templates: readonly NodeClaimTemplate[];
  readonly allowUndefined: ReadonlySet<string>;
  readonly namespaces: ReadonlyMap<string, Readonly<Record<string, string>>>;
  /** The snapshot's volume rules (which pods they keep out, topology, attachments). */
  readonly volumes: VolumeIndex;
  pendingPod(pod: Pod): PendingPod;
  /**
   * Scheduler input with `pods` pending, on every schedulable node except `excluded`; a consolidation simulation
   * passes its `guard` (the nodes under consolidateAfter refuse the pods it names).
   */
  input(
    pods: readonly PendingPod[],
    excluded?: ReadonlySet<string>,
    guard?: DestinationGuard,
  ): SchedulingInput;
}

export function passView(snapshot: ClusterSnapshot): PassView {
  const allowUndefined = new Set(WELL_KNOWN_LABELS);
  for (const it of snapshot.instanceTypes) for (const k of Object.keys(it.labels)) allowUndefined.add(k);
  const daemons = snapshot.objects.daemonSets.map(daemonInput);
  const templates: NodeClaimTemplate[] = [];
  for (const view of snapshot.nodePools.values()) {
    // Karpenter's NewScheduler leaves out NodePools that are not Ready (docs/mechanisms/pool-readiness.md)
    if (view.notReady) continue;
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
          // a placement group / compact placement spans one zone (docs/mechanisms/gangs.md#placement)
          oneZoneGangs: placesGangsInOneZone(view.nodeClass),
        },
        // The node class's kubelet settings and root volume shape each type's allocatable (node-class-types.ts).
        nodeClassTypes(snapshot.instanceTypes, view.nodeClass),
        daemons,
        allowUndefined,
      ),
    );
  }
  const limits = poolLimits(snapshot);
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
  // the gangs map (gangs.ts): Volcano PodGroups and the Workload API's gang policies, by namespace/name
  const gangs = gangMinimums(snapshot.objects);
  const zonal = zonalGangs(snapshot.objects);
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
  // Domains of every schedulable node, per key on first use; a simulation reads them without its left-out nodes.
  const passDomains = new DomainUniverse();
  const addKey = (universe: DomainUniverse, key: string, nodes: readonly StateNode[]) => {
    for (const { domain, supplier } of suppliersFor(key)) universe.add(key, domain, supplier);
    for (const n of nodes) {
      const d = n.labels[key];
      if (d !== undefined) universe.add(key, d, supplierOf(n));
    }
  };
  const domainsOf = (
    keys: ReadonlySet<string>,
    nodes: readonly StateNode[],
    excluded?: ReadonlySet<string>,
  ) => {
    for (const key of keys) if (!passDomains.has(key)) addKey(passDomains, key, schedulableNodes);
    const left = new Set<DomainSupplier>();
    if (excluded?.size) for (const n of schedulableNodes) if (excluded.has(n.name)) left.add(supplierOf(n));
    const shared = passDomains.without(keys, left);
    if (shared) return shared;
    const fresh = new DomainUniverse();
    for (const key of keys) addKey(fresh, key, nodes);
    return fresh;
  };
  const pendingCache = new Map<Pod, PendingPod>();
  const schedulableNodes = [...snapshot.nodes, ...snapshot.inFlight].filter(schedulable);
  const existingInputs = new Map<StateNode, ExistingNodeInput>();
  const guarded = new Map<DestinationGuard, Map<StateNode, ExistingNodeInput>>();
  const bounds = new Map<StateNode, BoundPod[]>();
  // Karpenter's topology ignores terminating pods (ignoredForTopology): a terminating StatefulSet pod counts nowhere
  const boundOf = (n: StateNode) => memo(bounds, n, () => n.pods.filter(isActive).map((p) => boundPod(p, n)));
  const allBound = schedulableNodes.flatMap(boundOf);
  const antiAffinityKeys = new Set(allBound.flatMap((b) => b.antiAffinity.map((t) => t.topologyKey)));
  const topologyCounts = new Map<string, ReadonlyMap<string, number>>();
  const boundInverse = {};
  // Gang members already running, so a simulation that moves some of them needs only the rest.
  const gangOfBound = new Map<string, string>();
  const gangsBound = new Map<string, number>();
  // the zones of the nodes hosting each gang's running members: they fix a one-zone gang's zone
  const gangNodes = new Map<string, Map<string, string | undefined>>();
  for (const n of schedulableNodes) {
    for (const p of n.pods) {
      const name = isActive(p) ? gangOf(p, gangs)?.name : undefined;
      if (!name) continue;
      gangOfBound.set(podKey(p), name);
      gangsBound.set(name, (gangsBound.get(name) ?? 0) + 1);
      memo(gangNodes, name, () => new Map()).set(n.name, n.labels[ZONE]);
    }
  }
  const zonesOfGangs = (excluded?: ReadonlySet<string>) => {
    const zones = new Map<string, Set<string>>();
    for (const [gang, nodes] of gangNodes)
      for (const [node, zone] of nodes)
        if (zone !== undefined && !excluded?.has(node)) memo(zones, gang, () => new Set()).add(zone);
    return zones;
  };

  const view: PassView = {
    snapshot,
    templates,
    allowUndefined,
    namespaces,
    volumes,
    pendingPod(pod) {
      let p = pendingCache.get(pod);
      if (!p)
        pendingCache.set(
          pod,
          (p = toPendingPod(pod, snapshot.podRequests.get(podKey(pod)) ?? EMPTY, volumes, gangs, zonal)),
        );
      return p;
    },
    // SimulationCopy (docs/mechanisms/simulation-copy.md): node inputs (summed requests, host ports, volume slots) and
    // bound-pod views are built once per pass and shared; each simulation clones only what scheduling mutates
    // (ExistingNode copies ports and volume slots) and subtracts the pods of the nodes it leaves out.
    input(pods, excluded, guard) {
      const nodes = schedulableNodes.filter((n) => !excluded?.has(n.name));
      const existing = nodes.map((n) => {
        const e = memo(existingInputs, n, () => existingInput(n, templates, daemons, snapshot, volumes));
        if (!guard?.nodes.has(n.name)) return e;
        // one guarded input per node and guard, so the pass's static verdicts (keyed by input) keep hitting
        const byGuard = memo(guarded, guard, () => new Map<StateNode, ExistingNodeInput>());
        return memo(byGuard, n, () => ({ ...e, refuses: (p: PendingPod) => guard.refuses(p) }));
      });
      const removed: BoundPod[] = [];
      if (excluded?.size)
        for (const n of schedulableNodes) if (excluded.has(n.name)) removed.push(...boundOf(n));
      const keys = new Set<string>(antiAffinityKeys);
      for (const p of pods) collectKeys(p.pod, keys);
      keys.delete(HOSTNAME); // hostnames need no universe: an unknown hostname counts as an empty domain
      const universe = domainsOf(keys, nodes, excluded);
      const gangsRunning = new Map(gangsBound);
      for (const b of removed) {
        const g = gangOfBound.get(b.key);
        if (g) gangsRunning.set(g, (gangsRunning.get(g) ?? 1) - 1);
      }
      return {
        pods,
        existing,
        templates,
        remaining: limits.remaining(excluded),
        limits: limits.declared,
        bound: allBound,
        universe,
        namespaces,
        gangsRunning,
        gangZones: zonesOfGangs(excluded),
        topologyShare: { counts: topologyCounts, removed, boundInverse },
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
