// The checks a destructive path of the lifecycle makes right before it acts (docs/mechanisms/identity.md):
// the target is not untouchable (an object about it fails validation), and an absence read from the view —
// a claim's Node, a Node's claim — is confirmed by a direct read. A failed check is a refusal (refusals.ts).
import type { Node } from '../model/node.ts';
import { claimCondition, type NodeClaim } from '../model/nodeclaim.ts';
import type { Cluster, InvalidObject, InvolvedObject, SnapshotRead } from '../ports/cluster/index.ts';
import { ObjectNotFoundError } from '../ports/cluster/errors.ts';
import { refuse, type DestructiveAction, type RefusalDeps } from './refusals.ts';
import { untouchable, type Target, type Untouchable } from './untouchable.ts';

export interface GuardDeps extends RefusalDeps {
  readonly cluster: Pick<Cluster, 'getNode' | 'listNodes' | 'listNodeClaims' | 'recordEvent'>;
}

export interface Guard {
  readonly untouchable: Untouchable;
  /** False, with a refusal, when an invalid object makes the target untouchable. */
  touchable(action: DestructiveAction, target: Target, object?: InvolvedObject): Promise<boolean>;
  /** The claim's Node as the API server holds it now (a GET by status.nodeName, else a fresh LIST). */
  nodeOf(claim: NodeClaim): Promise<Node | undefined>;
  /** True when a direct read confirms the claim has no Node; false, with a refusal, when it finds one. */
  nodeAbsent(action: DestructiveAction, claim: NodeClaim): Promise<boolean>;
  /** True when claims listed now own nothing of the Node; false, with a refusal, when one does. */
  claimAbsent(action: DestructiveAction, node: Node): Promise<boolean>;
}

const claimObject = (c: NodeClaim): InvolvedObject => ({
  kind: 'NodeClaim',
  name: c.metadata.name,
  ...(c.metadata.uid ? { uid: c.metadata.uid } : {}),
});
const nodeObject = (n: Node): InvolvedObject => ({
  kind: 'Node',
  name: n.metadata.name,
  ...(n.metadata.uid ? { uid: n.metadata.uid } : {}),
});
const EVENT_KINDS: ReadonlySet<string> = new Set(['Node', 'NodeClaim', 'Pod', 'NodePool']);

/** Whether a claim that is live (not being deleted) names the Node, by providerID or by node name. */
export const ownsNode = (c: NodeClaim, n: Node): boolean =>
  !c.metadata.deletionTimestamp &&
  ((c.status?.providerID !== undefined && c.status.providerID === n.spec?.providerID) ||
    (c.status?.nodeName !== undefined && c.status.nodeName === n.metadata.name));

/** A registered claim is one whose Node has been seen: only its Node's absence is news. */
export const registered = (c: NodeClaim): boolean => claimCondition(c, 'Registered') === true;

/** The claim's Node as the API server holds it now: a GET by status.nodeName, else a fresh LIST by providerID. */
export async function nodeOfClaim(
  cluster: GuardDeps['cluster'],
  claim: NodeClaim,
): Promise<Node | undefined> {
  const { nodeName, providerID } = claim.status ?? {};
  if (!nodeName)
    return providerID
      ? (await cluster.listNodes()).find((n) => n.spec?.providerID === providerID)
      : undefined;
  const node = await cluster.getNode(nodeName).catch((err: unknown) => {
    if (err instanceof ObjectNotFoundError) return undefined;
    throw err;
  });
  // A Node of that name with another instance behind it is not this claim's (a reused name).
  const other = providerID && node?.spec?.providerID && node.spec.providerID !== providerID;
  return other ? undefined : node;
}

/** Refuses, as `invalid-object`, an action on a target an invalid object concerns; its event goes on that object. */
async function refuseInvalid(
  deps: RefusalDeps,
  action: DestructiveAction,
  target: Target,
  because: InvalidObject,
  fallback: InvolvedObject | undefined,
): Promise<void> {
  const own = EVENT_KINDS.has(because.kind)
    ? ({
        kind: because.kind as InvolvedObject['kind'],
        name: because.name,
        ...(because.namespace ? { namespace: because.namespace } : {}),
        ...(because.uid ? { uid: because.uid } : {}),
      } satisfies InvolvedObject)
    : (fallback ?? (target.node ? { kind: 'Node', name: target.node } : undefined));
  await refuse(deps, {
    action,
    reason: 'invalid-object',
    message: `${describe(target)}: ${because.kind} ${because.name} fails validation (${because.message}); untouchable until it parses`,
    ...(target.providerId ? { providerId: target.providerId } : {}),
    ...(own ? { object: own } : {}),
  });
}

export function guard(deps: GuardDeps, read: Pick<SnapshotRead, 'objects' | 'invalid'>): Guard {
  const u = untouchable(read);
  let claims: Promise<NodeClaim[]> | undefined;
  const nodeOf = (claim: NodeClaim) => nodeOfClaim(deps.cluster, claim);
  return {
    untouchable: u,
    async touchable(action, target, object) {
      const because = u.because(target);
      if (because) await refuseInvalid(deps, action, target, because, object);
      return !because;
    },
    nodeOf,
    async nodeAbsent(action, claim) {
      const node = await nodeOf(claim);
      if (!node) return true;
      await refuse(deps, {
        action,
        reason: 'absence-unconfirmed',
        message: `the view had no Node for NodeClaim ${claim.metadata.name}; Node ${node.metadata.name} exists`,
        ...(claim.status?.providerID ? { providerId: claim.status.providerID } : {}),
        object: claimObject(claim),
      });
      return false;
    },
    async claimAbsent(action, node) {
      claims ??= deps.cluster.listNodeClaims();
      const owner = (await claims).find((c) => ownsNode(c, node));
      if (!owner) return true;
      await refuse(deps, {
        action,
        reason: 'absence-unconfirmed',
        message: `the view had no NodeClaim for Node ${node.metadata.name}; NodeClaim ${owner.metadata.name} owns it`,
        ...(node.spec?.providerID ? { providerId: node.spec.providerID } : {}),
        object: nodeObject(node),
      });
      return false;
    },
  };
}

const describe = (t: Target): string =>
  [t.node && `Node ${t.node}`, t.claim && `NodeClaim ${t.claim}`, t.providerId && `instance ${t.providerId}`]
    .filter(Boolean)
    .join(', ');
