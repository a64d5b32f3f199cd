// Deletions kraftsman did not start, read as termination requests (Karpenter's termination finalizer,
// docs/mechanisms/termination-finalizer.md,
// docs/functions/lifecycle.md#a-nodeclaim-an-operator-deletes): a NodeClaim an operator deletes, a Node whose
// claim is gone or being deleted, a Node deleted while it holds Karpenter's finalizer, and the Node of a
// registered claim deleted outright. Each Node is tainted and drained before its instance is terminated
// (termination.ts); a claim with no Node has nothing to drain.
import { DISRUPTED_TAINT_KEY, NODEPOOL } from '../model/labels.ts';
import type { Node } from '../model/node.ts';
import type { NodeClaim } from '../model/nodeclaim.ts';
import { claimCondition } from '../model/nodeclaim.ts';
import type { ClusterObjects } from '../state/objects.ts';
import { ObjectNotFoundError } from '../ports/cluster/errors.ts';
import { KARPENTER_TERMINATION_FINALIZER, releaseTerminated } from './finalizers.ts';
import {
  deleteInstance,
  TERMINATION_STARTED,
  terminationAnnotations,
  type TerminationDeps,
} from './termination.ts';

const ignoreMissing = (err: unknown): void => {
  if (!(err instanceof ObjectNotFoundError)) throw err;
};
const uidOf = (c: NodeClaim): { uid?: string } => (c.metadata.uid ? { uid: c.metadata.uid } : {});

/** The cause stamped when someone else deleted the claim (or its Node): Karpenter's reason for it. */
export const DELETED_CAUSE = 'nodeclaim_deleted';
/** The cause stamped when the Node of a registered claim was deleted outright (`kubectl delete node`). */
export const NODE_DELETED_CAUSE = 'node_deleted';

const holds = (o: Node | NodeClaim): boolean =>
  o.metadata.finalizers?.includes(KARPENTER_TERMINATION_FINALIZER) ?? false;

/** A Node kraftsman manages: a NodePool's, with an instance behind it. */
export const managed = (n: Node): boolean =>
  n.metadata.labels?.[NODEPOOL] !== undefined && Boolean(n.spec?.providerID);

/**
 * Managed Nodes whose termination has not started and that someone asked to go, or that nothing owns:
 *  - the claim is being deleted (`kubectl delete nodeclaim` of a claim holding Karpenter's finalizer): at
 *    once — Karpenter's claim finalizer deletes the Node, whose finalizer drains it;
 *  - the claim is gone (one from a release that set no finalizer goes at once when deleted),
 *    past the grace that protects a launch whose claim status is on its way;
 *  - the Node itself was deleted while it holds Karpenter's finalizer (`kubectl delete node`), at any age.
 */
export function nodesToTerminate(objects: ClusterObjects, now: Date, graceMs: number): Node[] {
  const live = objects.nodeClaims.filter((c) => !c.metadata.deletionTimestamp);
  const byProvider = new Set(live.map((c) => c.status?.providerID).filter(Boolean));
  const byName = new Set(live.map((c) => c.status?.nodeName).filter(Boolean));
  const deleting = new Set(
    objects.nodeClaims
      .filter((c) => c.metadata.deletionTimestamp)
      .map((c) => c.status?.providerID)
      .filter(Boolean),
  );
  return objects.nodes.filter((n) => {
    if (!managed(n) || n.metadata.annotations?.[TERMINATION_STARTED]) return false;
    if (n.metadata.deletionTimestamp && holds(n)) return true;
    if (deleting.has(n.spec?.providerID) && !byProvider.has(n.spec?.providerID)) return true;
    const created = Date.parse(n.metadata.creationTimestamp ?? '');
    return (
      !byProvider.has(n.spec?.providerID) &&
      !byName.has(n.metadata.name) &&
      Number.isFinite(created) &&
      now.getTime() - created >= graceMs
    );
  });
}

/** The claim that still names the Node's instance (one being deleted that holds Karpenter's finalizer), if any. */
export function claimOfNode(objects: ClusterObjects, node: Node): NodeClaim | undefined {
  const id = node.spec?.providerID;
  return id ? objects.nodeClaims.find((c) => c.status?.providerID === id) : undefined;
}

/**
 * Starts the termination of a Node someone else asked to go. Its drain is bounded by the claim's
 * terminationGracePeriod: the claim's own when it is still there (counted from its deletion, as Karpenter
 * counts), else the one copied to the Node at registration (counted from now).
 */
export async function startNodeTermination(
  deps: TerminationDeps,
  node: Node,
  claim: NodeClaim | undefined,
): Promise<void> {
  // `kubectl delete node` is node_deleted, as when a Node without the finalizer is deleted outright.
  const cause = node.metadata.deletionTimestamp ? NODE_DELETED_CAUSE : DELETED_CAUSE;
  await deps.cluster.patchMetadata('Node', node.metadata.name, {
    annotations: terminationAnnotations(node, claim, cause, deps.clock.now()),
  });
  await deps.cluster.addTaint(node.metadata.name, { key: DISRUPTED_TAINT_KEY, effect: 'NoSchedule' });
  // Karpenter's Node termination deletes the Node's claims first (`kubectl delete node`): the claim stops
  // counting as capacity, so its pods are provisioned elsewhere as they are evicted; its finalizer holds it
  // until the drain's finish has terminated the instance (termination.ts).
  if (claim && !claim.metadata.deletionTimestamp)
    await deps.cluster.deleteNodeClaim(claim.metadata.name, uidOf(claim)).catch(ignoreMissing);
  deps.logger.info('terminating a Node that was deleted or whose claim was deleted or is gone', {
    node: node.metadata.name,
  });
}

/**
 * Claims being deleted that hold Karpenter's finalizer and have no Node: nothing to drain, so Karpenter's
 * NodeClaim termination calls CloudProvider.Delete and lets the claim go once the instance is gone. One
 * whose Node exists is left to that Node's drain (nodesToTerminate), which releases it when it finishes.
 */
export function claimsToTerminate(objects: ClusterObjects): NodeClaim[] {
  const nodes = new Set(objects.nodes.map((n) => n.spec?.providerID).filter(Boolean));
  return objects.nodeClaims.filter(
    (c) =>
      c.metadata.deletionTimestamp !== undefined &&
      holds(c) &&
      c.status?.providerID !== undefined &&
      !nodes.has(c.status.providerID),
  );
}

/**
 * Claims being deleted that hold Karpenter's finalizer and never got a providerID (deleted before their launch
 * finished, or a launch that failed): Karpenter's NodeClaim finalizer lets such a claim go without a cloud call.
 * kraftsman's launcher runs apart from the claim's deletion, so a launch may still be in flight: the claim is
 * let go once its deletion is older than `graceMs` (the grace that protects launches from garbage collection);
 * an instance made anyway carries the claim's name and is collected as unowned.
 */
export function claimsNeverLaunched(objects: ClusterObjects, now: Date, graceMs: number): NodeClaim[] {
  return objects.nodeClaims.filter((c) => {
    const deleted = Date.parse(c.metadata.deletionTimestamp ?? '');
    return (
      Number.isFinite(deleted) && holds(c) && !c.status?.providerID && now.getTime() - deleted >= graceMs
    );
  });
}

/** Terminates the claim's instance and releases the claim; a cloud with no provider here keeps it held. */
export async function terminateDeletedClaim(deps: TerminationDeps, claim: NodeClaim): Promise<boolean> {
  const id = claim.status?.providerID;
  if (!id || !(await deleteInstance(deps, id))) return false;
  await releaseTerminated(deps.cluster, 'NodeClaim', claim.metadata.name);
  deps.logger.info('terminated the instance of a deleted NodeClaim', { claim: claim.metadata.name });
  return true;
}

/**
 * Registered claims whose Node is gone: `kubectl delete node` of a Node kraftsman launched, which holds no
 * finalizer, so the API server removed it at once. In Karpenter the Node's termination finalizer would turn that
 * into the claim's termination (drain, terminate the instance, delete the claim); here the Node is already gone
 * and nothing can be drained — its pods are the pod garbage collector's, which deletes pods bound to a missing
 * Node — and the kubelet does not register its Node again while it runs, so the instance would run on, outside
 * the cluster, until the claim expired. Each is terminated at once: instance first, then the claim
 * (docs/functions/lifecycle.md#a-node-an-operator-deletes).
 */
export function claimsWithDeletedNodes(objects: ClusterObjects): NodeClaim[] {
  const ids = new Set(objects.nodes.map((n) => n.spec?.providerID).filter(Boolean));
  const names = new Set(objects.nodes.map((n) => n.metadata.name));
  return objects.nodeClaims.filter((c) => {
    const id = c.status?.providerID;
    const name = c.status?.nodeName;
    return (
      c.metadata.deletionTimestamp === undefined &&
      claimCondition(c, 'Registered') === true &&
      id !== undefined &&
      !ids.has(id) &&
      !(name !== undefined && names.has(name))
    );
  });
}
