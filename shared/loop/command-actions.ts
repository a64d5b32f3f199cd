// The side effects orchestration takes on one command's objects, each idempotent so a crash between any two
// of them is finished by the next invocation: untaint, terminate an instance, delete a Node or NodeClaim.
import { CLOUD } from '../model/labels.ts';
import type { Cloud } from '../model/labels.ts';
import type { Node } from '../model/node.ts';
import type { NodeClaim } from '../model/nodeclaim.ts';
import type { CloudProvider } from '../ports/cloud-provider/index.ts';
import { InstanceNotFoundError } from '../ports/cloud-provider/errors.ts';
import type { Cluster } from '../ports/cluster/index.ts';
import { ObjectNotFoundError } from '../ports/cluster/errors.ts';
import { DISRUPTED_TAINT } from './start-command.ts';
import { deleteTerminated } from './finalizers.ts';
import type { Logger } from '../ports/logger.ts';
import type { Metrics } from '../ports/metrics.ts';
import { claimName } from '../model/names.ts';
import {
  involvedOf,
  terminateInstance,
  type TerminateOutcome,
  type TerminateSubject,
} from './terminate-instance.ts';

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

/**
 * Instance, then NodeClaim, then Node: deleting the objects first would orphan the instance on a crash. False when
 * the instance was refused (not this deployment's, or not the claim's): the objects stay, as the instance does.
 */
export async function removeNode(
  deps: ActionDeps,
  node: Node | undefined,
  claim: NodeClaim | undefined,
): Promise<boolean> {
  const id = claim?.status?.providerID ?? node?.spec?.providerID;
  const outcome = await terminate(
    deps,
    id,
    { ...(claim?.metadata.labels ?? {}), ...(node?.metadata.labels ?? {}) },
    {
      ...(claim ? { nodeClaim: claimName(claim) } : {}),
      ...(node
        ? { object: involvedOf('Node', node) }
        : claim
          ? { object: involvedOf('NodeClaim', claim) }
          : {}),
    },
  );
  if (outcome === 'refused') return false;
  // The instance is gone (terminate throws otherwise), so Karpenter's finalizer may go too.
  if (claim) await deleteTerminated(deps.cluster, 'NodeClaim', claim.metadata.name);
  if (node) await deleteTerminated(deps.cluster, 'Node', node.metadata.name);
  return true;
}
