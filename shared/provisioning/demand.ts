// Which pods are provisioning demand right now (docs/mechanisms/provisioning-demand.md): unbound pods Karpenter's
// IsProvisionable keeps (with the Volcano fix), plus the reschedulable pods of nodes that are leaving — Karpenter
// v1.14's provisioner (provisioner.go Schedule) adds `nodes.Deleting().CurrentlyReschedulablePods` so their
// capacity launches before the drain evicts them. A pod nominated to a claim still coming (in flight, or its Node
// not yet initialized) is covered: it waits for that claim and is charged to its room instead of opening another.
import { INITIALIZED } from '../model/labels.ts';
import type { Node } from '../model/node.ts';
import { claimCondition, type NodeClaim } from '../model/nodeclaim.ts';
import { podKey, type Pod } from '../model/pod.ts';
import { pendingIgnoreReason } from '../state/pods.ts';
import { volumeIndex } from '../state/volumes.ts';
import type { ClusterObjects } from '../state/objects.ts';

export interface PodNomination {
  readonly podKey: string;
  readonly claimName?: string;
  readonly nodeName?: string;
  readonly expiresAt: Date;
}

/** Nodes that are leaving and which of their pods will move when drained (Karpenter's IsCurrentlyReschedulable). */
export interface Leaving {
  /**
   * Node names leaving by kraftsman's own bookkeeping: the candidates of open disruption commands, and Nodes
   * whose termination started (kraftsman deletes its claim then, which its finalizer holds while the Node drains).
   */
  readonly marked: ReadonlySet<string>;
  /** Whether a pod bound to a leaving node will be evicted and need a new home. */
  readonly moves: (pod: Pod) => boolean;
}

export interface Demand {
  /** Pods the next scheduling run places: pending ones, then those of leaving nodes. */
  readonly pods: readonly Pod[];
  /** How many of `pods` are bound to a leaving node. */
  readonly fromLeaving: number;
  /** Pods waiting for the claim they were nominated to. */
  readonly covered: readonly Pod[];
  /**
   * The covered pods by the name their capacity has in the snapshot (the claim's own name while it has no Node,
   * the Node's after it registers): the run counts them as bound there, so only the room left is handed out.
   */
  readonly held: ReadonlyMap<string, readonly Pod[]>;
  /** Names of the nodes that are leaving (deleting, terminating, or an open command's candidate). */
  readonly leavingNodes: ReadonlySet<string>;
}

interface ClaimIndex {
  /** Claims whose pods wait for them → the name their capacity has in the snapshot. */
  readonly waiting: Map<string, string>;
  /** Node name → its claim. */
  readonly claimOfNode: Map<string, NodeClaim>;
}

/**
 * Claims whose pods wait for them, each with the name its capacity has in the snapshot: a claim without a
 * Node yet (its own name), or whose Node registered but has not initialized (the Node's name) — until then
 * the Node may not take pods (the unregistered taint, startup taints, not Ready), so its nominated pods are
 * still pending and must not be planned afresh onto other room.
 */
function indexClaims(objects: ClusterObjects): ClaimIndex {
  const byProvider = new Map(
    objects.nodes.filter((n) => n.spec?.providerID).map((n) => [n.spec?.providerID, n]),
  );
  const byName = new Map(objects.nodes.map((n) => [n.metadata.name, n]));
  const waiting = new Map<string, string>();
  const claimOfNode = new Map<string, NodeClaim>();
  for (const c of objects.nodeClaims) {
    const node =
      (c.status?.nodeName ? byName.get(c.status.nodeName) : undefined) ??
      (c.status?.providerID ? byProvider.get(c.status.providerID) : undefined);
    if (node) claimOfNode.set(node.metadata.name, c);
    if (c.metadata.deletionTimestamp) continue;
    if (!node) waiting.set(c.metadata.name, c.metadata.name);
    else if (!initialized(c, node)) waiting.set(c.metadata.name, node.metadata.name);
  }
  return { waiting, claimOfNode };
}

/** Karpenter's StateNode.Initialized for a claim's Node: the claim's condition or the Node's label. */
const initialized = (c: NodeClaim, node: Node): boolean =>
  claimCondition(c, 'Initialized') === true || node.metadata.labels?.[INITIALIZED] === 'true';

/**
 * Karpenter's StateNode.MarkedForDeletion: the Node or its claim is being deleted, the claim's instance is
 * terminating (InstanceTerminating), or kraftsman marked it (`Leaving.marked`).
 */
function leavingNodes(objects: ClusterObjects, index: ClaimIndex, leaving: Leaving | undefined): Set<string> {
  const out = new Set<string>();
  for (const n of objects.nodes) {
    const name = n.metadata.name;
    const claim = index.claimOfNode.get(name);
    if (
      n.metadata.deletionTimestamp ||
      claim?.metadata.deletionTimestamp ||
      (claim && claimCondition(claim, 'InstanceTerminating') === true) ||
      leaving?.marked.has(name)
    )
      out.add(name);
  }
  return out;
}

export function pendingDemand(
  objects: ClusterObjects,
  nominations: ReadonlyMap<string, PodNomination>,
  now: Date,
  volcanoFix: boolean,
  leaving?: Leaving,
): Demand {
  const index = indexClaims(objects);
  const gone = leaving ? leavingNodes(objects, index, leaving) : new Set<string>();
  const volumes = volumeIndex(objects);
  const pending: Pod[] = [];
  const moving: Pod[] = [];
  const covered: Pod[] = [];
  const held = new Map<string, Pod[]>();
  for (const pod of objects.pods) {
    const bound = pod.spec.nodeName;
    if (bound) {
      if (!gone.has(bound) || !leaving?.moves(pod)) continue;
    } else if (pendingIgnoreReason(pod, volcanoFix, volumes)) continue;
    const n = nominations.get(podKey(pod));
    const capacity = n?.claimName && n.expiresAt > now ? index.waiting.get(n.claimName) : undefined;
    // A pod never waits on capacity that is itself leaving: its nomination is void.
    if (capacity && !gone.has(capacity)) {
      covered.push(pod);
      held.set(capacity, [...(held.get(capacity) ?? []), pod]);
    } else (bound ? moving : pending).push(pod);
  }
  return {
    pods: [...pending, ...moving],
    fromLeaving: moving.length,
    covered,
    held,
    leavingNodes: gone,
  };
}
