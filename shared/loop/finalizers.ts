// Releasing Karpenter's `karpenter.sh/termination` finalizer from the Nodes and NodeClaims kraftsman deletes,
// its own (set at creation and registration) and those adopted from Karpenter, once the instance is gone
// (docs/mechanisms/termination-finalizer.md).
import { TERMINATION_FINALIZER, type Cloud } from '../model/labels.ts';
import type { Node } from '../model/node.ts';
import type { NodeClaim } from '../model/nodeclaim.ts';
import type { CloudProvider } from '../ports/cloud-provider/index.ts';
import { providerId } from '../ports/cloud-provider/index.ts';
import { InstanceNotFoundError, ownershipErrorOf } from '../ports/cloud-provider/errors.ts';
import type { Cluster } from '../ports/cluster/index.ts';
import { ObjectNotFoundError } from '../ports/cluster/errors.ts';

export const KARPENTER_TERMINATION_FINALIZER = TERMINATION_FINALIZER;

type Kind = 'Node' | 'NodeClaim';
const ignoreMissing = (err: unknown): void => {
  if (!(err instanceof ObjectNotFoundError)) throw err;
};

/**
 * Karpenter's termination controllers remove their finalizer once the instance is gone (the NodeClaim's
 * once CloudProvider.Delete reports it not found, the Node's once it is drained and its instance
 * terminated). Callers hold that guarantee: they call this only after the instance was deleted. Only
 * Karpenter's finalizer goes; another controller's keeps the object until that controller lets go.
 */
export async function deleteTerminated(
  cluster: Pick<Cluster, 'deleteNode' | 'deleteNodeClaim' | 'removeFinalizer'>,
  kind: Kind,
  name: string,
): Promise<void> {
  const deletes = { Node: () => cluster.deleteNode(name), NodeClaim: () => cluster.deleteNodeClaim(name) };
  await deletes[kind]().catch(ignoreMissing);
  await releaseTerminated(cluster, kind, name);
}

/** Removes Karpenter's finalizer from an object whose instance is gone (already gone itself is fine). */
export async function releaseTerminated(
  cluster: Pick<Cluster, 'removeFinalizer'>,
  kind: Kind,
  name: string,
): Promise<void> {
  await cluster.removeFinalizer(kind, name, KARPENTER_TERMINATION_FINALIZER).catch(ignoreMissing);
}

const held = (o: Node | NodeClaim): boolean =>
  o.metadata.deletionTimestamp !== undefined &&
  (o.metadata.finalizers ?? []).includes(KARPENTER_TERMINATION_FINALIZER);

/**
 * Objects someone else deleted (an operator's `kubectl delete`, a crash between kraftsman's delete and its
 * release) hang on Karpenter's finalizer: each whose instance the cloud reports gone is released. One whose
 * cloud has no provider here, or whose instance still runs, is left for its termination to finish first.
 */
export async function releaseHeld(
  cluster: Pick<Cluster, 'removeFinalizer'>,
  providers: Readonly<Partial<Record<Cloud, CloudProvider>>>,
  objects: { readonly nodes: readonly Node[]; readonly nodeClaims: readonly NodeClaim[] },
): Promise<number> {
  let released = 0;
  const targets: [Kind, Node | NodeClaim, string | undefined][] = [
    ...objects.nodes
      .filter(held)
      .map((n): [Kind, Node, string | undefined] => ['Node', n, n.spec?.providerID]),
    ...objects.nodeClaims
      .filter(held)
      .map((c): [Kind, NodeClaim, string | undefined] => ['NodeClaim', c, c.status?.providerID]),
  ];
  for (const [kind, o, id] of targets) {
    if (!id || !(await instanceGone(providers, id))) continue;
    await releaseTerminated(cluster, kind, o.metadata.name);
    released += 1;
  }
  return released;
}

async function instanceGone(
  providers: Readonly<Partial<Record<Cloud, CloudProvider>>>,
  id: string,
): Promise<boolean> {
  const cloud: Cloud | undefined = id.startsWith('aws://')
    ? 'aws'
    : id.startsWith('gce://')
      ? 'gcp'
      : undefined;
  const provider = cloud ? providers[cloud] : undefined;
  if (!provider) return false;
  try {
    return (await provider.get(providerId(id))).state === 'terminated';
  } catch (err: unknown) {
    if (err instanceof InstanceNotFoundError) return true;
    // Another project's providerID: nothing here can prove it gone, so the finalizer stays.
    if (ownershipErrorOf(err)) return false;
    throw err;
  }
}
