// Which unbound pods are provisioning demand right now (Karpenter's IsProvisionable with the Volcano fix),
// and which are already covered by a nomination to a claim still coming (in flight, or its Node not yet
// initialized): those wait for their claim and must not open a second one. Such a claim counts as full.
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

export interface Demand {
  /** Pods the next scheduling run places. */
  readonly pods: readonly Pod[];
  /** Pods waiting for the in-flight claim they were nominated to. */
  readonly covered: readonly Pod[];
  /** Capacity (claims in flight, Nodes not yet initialized) holding nominations: left out of the run so
   * its room is not handed out twice. */
  readonly reservedClaims: ReadonlySet<string>;
}

/**
 * Claims whose pods wait for them, each with the name its capacity has in the snapshot: a claim without a
 * Node yet (its own name), or whose Node registered but has not initialized (the Node's name) — until then
 * the Node may not take pods (the unregistered taint, startup taints, not Ready), so its nominated pods are
 * still pending and must not be planned afresh onto other room.
 */
function waitingClaims(objects: ClusterObjects): Map<string, string> {
  const byProvider = new Map(
    objects.nodes.filter((n) => n.spec?.providerID).map((n) => [n.spec?.providerID, n]),
  );
  const byName = new Map(objects.nodes.map((n) => [n.metadata.name, n]));
  const out = new Map<string, string>();
  for (const c of objects.nodeClaims) {
    if (c.metadata.deletionTimestamp) continue;
    const node =
      (c.status?.nodeName ? byName.get(c.status.nodeName) : undefined) ??
      (c.status?.providerID ? byProvider.get(c.status.providerID) : undefined);
    if (!node) out.set(c.metadata.name, c.metadata.name);
    else if (!initialized(c, node)) out.set(c.metadata.name, node.metadata.name);
  }
  return out;
}

/** Karpenter's StateNode.Initialized for a claim's Node: the claim's condition or the Node's label. */
const initialized = (c: NodeClaim, node: Node): boolean =>
  claimCondition(c, 'Initialized') === true || node.metadata.labels?.[INITIALIZED] === 'true';

export function pendingDemand(
  objects: ClusterObjects,
  nominations: ReadonlyMap<string, PodNomination>,
  now: Date,
  volcanoFix: boolean,
): Demand {
  const waiting = waitingClaims(objects);
  const volumes = volumeIndex(objects);
  const pods: Pod[] = [];
  const covered: Pod[] = [];
  const reserved = new Set<string>();
  for (const pod of objects.pods) {
    if (pod.spec.nodeName || pendingIgnoreReason(pod, volcanoFix, volumes)) continue;
    const n = nominations.get(podKey(pod));
    const capacity = n?.claimName && n.expiresAt > now ? waiting.get(n.claimName) : undefined;
    if (capacity) {
      covered.push(pod);
      reserved.add(capacity);
    } else pods.push(pod);
  }
  return { pods, covered, reservedClaims: reserved };
}
