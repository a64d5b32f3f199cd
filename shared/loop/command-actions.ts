// The side effects orchestration takes on one command's objects, each idempotent so a crash between any two
// of them is finished by the next invocation: untaint, terminate an instance, delete a Node or NodeClaim
// (by uid: docs/mechanisms/identity.md, "Commands").
import { CLOUD } from '../model/labels.ts';
import type { Cloud } from '../model/labels.ts';
import type { CloudProvider } from '../ports/cloud-provider/index.ts';
import { InstanceNotFoundError } from '../ports/cloud-provider/errors.ts';
import type { Cluster } from '../ports/cluster/index.ts';
import { ClusterError, ObjectNotFoundError } from '../ports/cluster/errors.ts';
import { DISRUPTED_TAINT } from './start-command.ts';
import { releaseTerminated } from './finalizers.ts';
import { refuse, type RefusalDeps } from './refusals.ts';
import type { Logger } from '../ports/logger.ts';
import type { Metrics } from '../ports/metrics.ts';
import { nodeClaimName } from '../model/names.ts';
import { terminateInstance, type TerminateOutcome, type TerminateSubject } from './terminate-instance.ts';

export interface ActionDeps {
  readonly cluster: Cluster;
  readonly providers: ReadonlyMap<Cloud, CloudProvider>;
  readonly metrics: Metrics;
  readonly logger: Logger;
}

/** aws:///zone/i-… is EC2, gce://project/zone/name is Compute Engine; the cloud label decides otherwise. */
export function cloudOf(id: string, labels: Readonly<Record<string, string>> = {}): Cloud | undefined {
  if (id.startsWith('aws://')) return 'aws';
  if (id.startsWith('gce://')) return 'gcp';
  const l = labels[CLOUD];
  return l === 'aws' || l === 'gcp' ? l : undefined;
}

const ignoreNotFound = (error: unknown): void => {
  if (!(error instanceof ObjectNotFoundError) && !(error instanceof InstanceNotFoundError)) throw error;
};

export async function untaint(deps: ActionDeps, node: string): Promise<void> {
  await deps.cluster
    .removeTaint(node, DISRUPTED_TAINT.key, DISRUPTED_TAINT.effect)
    .then(() => undefined, ignoreNotFound);
}

/** Terminates the instance behind a claim or node (already gone is fine; not ours is refused, visibly). */
export async function terminate(
  deps: ActionDeps,
  id: string | undefined,
  labels?: Record<string, string>,
  subject: Omit<TerminateSubject, 'providerId'> = {},
): Promise<TerminateOutcome | undefined> {
  if (!id) return undefined;
  const cloud = cloudOf(id, labels);
  const provider = cloud ? deps.providers.get(cloud) : undefined;
  if (!provider) throw new Error(`no cloud provider for instance ${id}`);
  return terminateInstance(deps, provider, { providerId: id, ...subject });
}

/** An object by name and the uid it must still have (a delete carries it as a precondition). */
export interface OwnedObject {
  readonly name: string;
  readonly uid: string | undefined;
}

export interface Remains {
  /** The instance to terminate (the one the command recorded); undefined when there is none. */
  readonly providerId: string | undefined;
  readonly labels?: Record<string, string>;
  readonly claim?: OwnedObject;
  readonly node?: OwnedObject;
}

/**
 * Instance, then NodeClaim, then Node: deleting the objects first would orphan the instance on a crash.
 * Each delete carries the uid the command recorded, so an object that took the name since is never deleted.
 * False when the instance was refused (not this deployment's, or not the claim's): the objects stay, as the
 * instance does (docs/mechanisms/identity.md#instances).
 */
export async function removeOwned(deps: ActionDeps & RefusalDeps, r: Remains): Promise<boolean> {
  const about = r.node ? ('Node' as const) : ('NodeClaim' as const);
  const object = r.node ?? r.claim;
  const outcome = await terminate(deps, r.providerId, r.labels, {
    ...(r.claim ? { nodeClaim: nodeClaimName(r.claim.name) } : {}),
    ...(object
      ? { object: { kind: about, name: object.name, ...(object.uid ? { uid: object.uid } : {}) } }
      : {}),
  });
  if (outcome === 'refused') return false;
  // The instance is gone (terminate throws otherwise), so Karpenter's finalizer may go too.
  if (r.claim) await deleteOwned(deps, 'NodeClaim', r.claim);
  if (r.node) await deleteOwned(deps, 'Node', r.node);
  return true;
}

/** A uid-preconditioned delete; a 409 means another object holds the name now: refused, never forced. */
async function deleteOwned(
  deps: ActionDeps & RefusalDeps,
  kind: 'Node' | 'NodeClaim',
  o: OwnedObject,
): Promise<void> {
  const precondition = o.uid ? { uid: o.uid } : {};
  try {
    await (kind === 'Node'
      ? deps.cluster.deleteNode(o.name, precondition)
      : deps.cluster.deleteNodeClaim(o.name, precondition));
  } catch (error: unknown) {
    if (error instanceof ObjectNotFoundError) return;
    if (!(error instanceof ClusterError && error.status === 409)) throw error;
    await refuse(deps, {
      action: kind === 'Node' ? 'delete-node' : 'delete-nodeclaim',
      reason: 'identity-mismatch',
      message: `${kind} ${o.name} is no longer uid ${o.uid ?? '(none)'}: ${error.message}`,
      object: { kind, name: o.name },
    });
    return;
  }
  await releaseTerminated(deps.cluster, kind, o.name);
}
