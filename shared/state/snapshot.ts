// The cluster as one pass sees it: real nodes and in-flight NodeClaims joined into state nodes with their
// bound pods, summed requests, instance type and price (Karpenter's cluster state, rebuilt per read).
import {
  CAPACITY_TYPE,
  HOSTNAME,
  INITIALIZED,
  INSTANCE_TYPE,
  NODEPOOL,
  ZONE,
  type Cloud,
} from '../model/labels.ts';
import type { Taint } from '../model/meta.ts';
import { nodeReady, type Node } from '../model/node.ts';
import { claimCondition, type NodeClaim } from '../model/nodeclaim.ts';
import { cloudOfNodeClassRef, type NodeClass } from '../model/nodeclass.ts';
import type { NodePool } from '../model/nodepool.ts';
import { podKey, type Pod } from '../model/pod.ts';
import {
  addInto,
  EMPTY,
  fromQuantities,
  type MutableResourceList,
  type ResourceList,
} from '../model/resources.ts';
import type { InstanceType } from '../scheduling/instance-type.ts';
import { podRequests } from '../scheduling/pod-requests.ts';
import type { ClusterObjects } from './objects.ts';
import { isActive, isOwnedByDaemonSet, isTerminatingStatefulSetPod } from './pods.ts';
import { describeNotReady, poolNotReady, type PoolNotReady } from './pool-readiness.ts';

export interface StateNode {
  readonly name: string;
  readonly node: Node | undefined;
  readonly claim: NodeClaim | undefined;
  /** True when no NodeClaim named the node and one was derived from its labels (docs/contract.md). */
  readonly derivedClaim: boolean;
  readonly nodePool: string | undefined;
  readonly managed: boolean;
  readonly initialized: boolean;
  readonly ready: boolean;
  readonly inFlight: boolean;
  readonly markedForDeletion: boolean;
  readonly labels: Readonly<Record<string, string>>;
  readonly taints: readonly Taint[];
  readonly allocatable: ResourceList;
  readonly pods: readonly Pod[];
  /** Summed requests of bound pods, and of the DaemonSet pods among them (computed once per read). */
  readonly podRequests: ResourceList;
  readonly daemonRequests: ResourceList;
  readonly instanceType: InstanceType | undefined;
  readonly zone: string | undefined;
  readonly capacityType: string | undefined;
  readonly price: number | undefined;
  readonly createdAt: string | undefined;
  readonly lastPodEventTime: string | undefined;
}

export interface NodePoolView {
  readonly pool: NodePool;
  readonly name: string;
  readonly cloud: Cloud;
  readonly nodeClass: NodeClass | undefined;
  /** Set when the live loop judges readiness and the pool is NotReady: no scheduling run uses it. */
  readonly notReady?: PoolNotReady;
}

export interface SnapshotOptions {
  /**
   * Judge NodePool readiness from the node classes (the running loop): a pool whose class is missing or not
   * Ready is NotReady. Off for a hand-written snapshot, where a missing class is assumed (docs/contract.md).
   */
  readonly poolReadiness?: boolean;
  /**
   * Whether a node whose instance type is not among `instanceTypes` is drifted (Karpenter's instance type not
   * found): true (the default) where the types are the cloud's own answer; false for a static catalog (the CLI's),
   * where a missing type only means an unknown price.
   */
  readonly unknownTypesDrift?: boolean;
}

export interface ClusterSnapshot {
  readonly objects: ClusterObjects;
  readonly nodes: readonly StateNode[];
  readonly inFlight: readonly StateNode[];
  readonly nodePools: ReadonlyMap<string, NodePoolView>;
  readonly instanceTypes: readonly InstanceType[];
  readonly instanceTypesByName: ReadonlyMap<string, InstanceType>;
  readonly podRequests: ReadonlyMap<string, ResourceList>;
  /** SnapshotOptions.unknownTypesDrift; undefined means true. */
  readonly unknownTypesDrift?: boolean;
  readonly warnings: readonly string[];
}

export function buildSnapshot(
  objects: ClusterObjects,
  instanceTypes: readonly InstanceType[],
  options: SnapshotOptions = {},
): ClusterSnapshot {
  const warnings: string[] = [];
  const byName = new Map(instanceTypes.map((it) => [it.name, it]));
  const nodePools = new Map<string, NodePoolView>();
  for (const pool of objects.nodePools) {
    const ref = pool.spec.template.spec.nodeClassRef;
    const cloud = cloudOfNodeClassRef(ref);
    if (!cloud) {
      warnings.push(
        `NodePool ${pool.metadata.name}: nodeClassRef ${ref.group}/${ref.kind} is not a known node class; NodePool ignored`,
      );
      continue;
    }
    const nodeClass = objects.nodeClasses.find((c) => c.kind === ref.kind && c.metadata.name === ref.name);
    const notReady = options.poolReadiness ? poolNotReady(pool, nodeClass) : undefined;
    if (notReady) warnings.push(describeNotReady(pool.metadata.name, notReady));
    else if (!nodeClass)
      warnings.push(
        `NodePool ${pool.metadata.name}: ${ref.kind} ${ref.name} not in the input; assuming a default ${cloud} node class`,
      );
    nodePools.set(pool.metadata.name, {
      pool,
      name: pool.metadata.name,
      cloud,
      nodeClass,
      ...(notReady ? { notReady } : {}),
    });
  }

  const requests = new Map<string, ResourceList>();
  const podsByNode = new Map<string, Pod[]>();
  const nodeNames = new Set(objects.nodes.map((n) => n.metadata.name));
  for (const pod of objects.pods) {
    const key = podKey(pod);
    requests.set(key, podRequests(pod.spec));
    const nodeName = pod.spec.nodeName;
    if (!nodeName) continue;
    if (!nodeNames.has(nodeName)) {
      warnings.push(`Pod ${key} is bound to node ${nodeName}, which is not in the input; pod ignored`);
      continue;
    }
    // a terminating StatefulSet pod stays on its node: its requests hold and it is reschedulable (pods.ts)
    if (!isActive(pod) && !isTerminatingStatefulSetPod(pod)) continue;
    const list = podsByNode.get(nodeName) ?? [];
    list.push(pod);
    podsByNode.set(nodeName, list);
  }

  const claimsByNode = new Map<string, NodeClaim>();
  const claimed = new Set<NodeClaim>();
  const byProvider = new Map(
    objects.nodes
      .filter((n) => n.spec?.providerID)
      .map((n) => [n.spec?.providerID as string, n.metadata.name]),
  );
  warnSharedProviderIds(objects.nodes, warnings);
  for (const c of objects.nodeClaims) {
    const nodeName =
      c.status?.nodeName ?? (c.status?.providerID ? byProvider.get(c.status.providerID) : undefined);
    if (nodeName && nodeNames.has(nodeName)) {
      claimsByNode.set(nodeName, c);
      claimed.add(c);
    }
  }

  const nodes = [...objects.nodes]
    .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))
    .map((n) =>
      fromNode(
        n,
        claimsByNode.get(n.metadata.name),
        podsByNode.get(n.metadata.name) ?? [],
        requests,
        byName,
        warnings,
      ),
    );
  const inFlight = objects.nodeClaims
    .filter((c) => !claimed.has(c))
    .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))
    .map((c) => fromClaim(c, byName));
  return {
    objects,
    nodes,
    inFlight,
    nodePools,
    instanceTypes,
    instanceTypesByName: byName,
    podRequests: requests,
    ...(options.unknownTypesDrift === false ? { unknownTypesDrift: false } : {}),
    warnings,
  };
}

function sumRequests(
  pods: readonly Pod[],
  requests: ReadonlyMap<string, ResourceList>,
  only?: (p: Pod) => boolean,
): ResourceList {
  const out: MutableResourceList = {};
  for (const p of pods) if (!only || only(p)) addInto(out, requests.get(podKey(p)) ?? EMPTY);
  return out;
}

function priceOf(
  it: InstanceType | undefined,
  zone: string | undefined,
  ct: string | undefined,
): number | undefined {
  return it?.offerings.find((o) => o.zone === zone && o.capacityType === ct)?.price;
}

function fromNode(
  node: Node,
  claim: NodeClaim | undefined,
  pods: Pod[],
  requests: ReadonlyMap<string, ResourceList>,
  types: ReadonlyMap<string, InstanceType>,
  warnings: string[],
): StateNode {
  const labels: Record<string, string> = { [HOSTNAME]: node.metadata.name, ...(node.metadata.labels ?? {}) };
  const nodePool = labels[NODEPOOL];
  const typeName = labels[INSTANCE_TYPE];
  const it = typeName ? types.get(typeName) : undefined;
  if (nodePool && typeName && !it)
    warnings.push(
      `Node ${node.metadata.name}: instance type ${typeName} is not in the catalog; its price is unknown`,
    );
  const allocatable = node.status?.allocatable
    ? fromQuantities(node.status.allocatable)
    : (it?.allocatable ?? EMPTY);
  // Karpenter's StateNode.Initialized: nodes it does not manage are always initialized; a derived claim
  // counts as initialized (docs/contract.md).
  const initialized =
    nodePool === undefined || !claim
      ? true
      : claimCondition(claim, 'Initialized') === true || labels[INITIALIZED] === 'true';
  return {
    name: node.metadata.name,
    node,
    claim,
    derivedClaim: claim === undefined && nodePool !== undefined,
    nodePool,
    managed: nodePool !== undefined,
    initialized,
    ready: nodeReady(node),
    inFlight: false,
    markedForDeletion:
      node.metadata.deletionTimestamp !== undefined || claim?.metadata.deletionTimestamp !== undefined,
    labels,
    taints: node.spec?.taints ?? [],
    allocatable,
    pods,
    podRequests: sumRequests(pods, requests),
    daemonRequests: sumRequests(pods, requests, isOwnedByDaemonSet),
    instanceType: it,
    zone: labels[ZONE],
    capacityType: labels[CAPACITY_TYPE],
    price: priceOf(it, labels[ZONE], labels[CAPACITY_TYPE]),
    createdAt: claim?.metadata.creationTimestamp ?? node.metadata.creationTimestamp,
    lastPodEventTime:
      claim?.status?.lastPodEventTime ??
      newest([node.metadata.creationTimestamp, ...pods.map((p) => p.metadata.creationTimestamp)]),
  };
}

function fromClaim(claim: NodeClaim, types: ReadonlyMap<string, InstanceType>): StateNode {
  const labels: Record<string, string> = { ...(claim.metadata.labels ?? {}) };
  for (const r of claim.spec.requirements) {
    if (r.operator === 'In' && r.values?.length === 1 && !(r.key in labels))
      labels[r.key] = r.values[0] as string;
  }
  labels[HOSTNAME] ??= claim.metadata.name;
  const it = labels[INSTANCE_TYPE] ? types.get(labels[INSTANCE_TYPE]) : undefined;
  const allocatable = claim.status?.allocatable
    ? fromQuantities(claim.status.allocatable)
    : (it?.allocatable ?? EMPTY);
  return {
    name: claim.metadata.name,
    node: undefined,
    claim,
    derivedClaim: false,
    nodePool: labels[NODEPOOL],
    managed: labels[NODEPOOL] !== undefined,
    initialized: false,
    ready: false,
    inFlight: true,
    markedForDeletion: claim.metadata.deletionTimestamp !== undefined,
    labels,
    taints: claim.spec.taints ?? [],
    allocatable,
    pods: [],
    podRequests: EMPTY,
    daemonRequests: EMPTY,
    instanceType: it,
    zone: labels[ZONE],
    capacityType: labels[CAPACITY_TYPE],
    price: priceOf(it, labels[ZONE], labels[CAPACITY_TYPE]),
    createdAt: claim.metadata.creationTimestamp,
    lastPodEventTime: claim.status?.lastPodEventTime ?? claim.metadata.creationTimestamp,
  };
}

function newest(times: (string | undefined)[]): string | undefined {
  let best: string | undefined;
  let bestMs = Number.NEGATIVE_INFINITY;
  for (const t of times) {
    if (!t) continue;
    const ms = Date.parse(t);
    if (ms > bestMs) {
      bestMs = ms;
      best = t;
    }
  }
  return best;
}

/** One providerID on two nodes is an inconsistency, not an invalid object: warn, and match claims to the last. */
function warnSharedProviderIds(
  nodes: readonly { metadata: { name: string }; spec?: { providerID?: string } }[],
  warnings: string[],
): void {
  const owners = new Map<string, string[]>();
  for (const n of nodes) {
    const id = n.spec?.providerID;
    if (id) owners.set(id, [...(owners.get(id) ?? []), n.metadata.name]);
  }
  for (const [id, names] of owners)
    if (names.length > 1)
      warnings.push(
        `providerID ${id} is on ${names.length} nodes (${names.join(', ')}); a NodeClaim with it is matched to ${names[names.length - 1]}`,
      );
}
