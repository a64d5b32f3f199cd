// Garbage collection between the cluster and the clouds (Karpenter's nodeclaim garbage collection): an
// instance of this cluster that no NodeClaim owns is terminated, and a claim whose instance vanished is
// deleted. Providers list only instances tagged/labelled with this cluster and this deployment, so another
// cluster's or deployment's instances are never seen, let alone touched (docs/mechanisms/identity.md#instances).
// Nothing an invalid object concerns is collected, and a claim is deleted only by Karpenter's rule, on top of a
// direct read of its instance (docs/mechanisms/identity.md#absence).
import type { Cloud } from '../model/labels.ts';
import { nodeReady } from '../model/node.ts';
import type { NodeClaim } from '../model/nodeclaim.ts';
import type { ClusterObjects } from '../state/objects.ts';
import { PROVISIONING_LABELS as L, PROVISIONING_METRICS as M } from '../provisioning/metric-names.ts';
import { providerId, type CloudInstance, type CloudProvider } from '../ports/cloud-provider/index.ts';
import { InstanceNotFoundError, ownershipErrorOf } from '../ports/cloud-provider/errors.ts';
import { managed } from './deletion-requests.ts';
import { deleteTerminated } from './finalizers.ts';
import { registered, type Guard } from './guard.ts';
import { cloudOfProviderId, type TerminationDeps } from './termination.ts';
import { terminateDuplicates } from './duplicate-instances.ts';
import { refuse } from './refusals.ts';
import { involvedOf, terminateInstance } from './terminate-instance.ts';

export interface GcCounts {
  readonly instances: number;
  readonly claims: number;
}

/** Whether `t` is at least `ms` before now; an unknown time (an Invalid Date, NaN) never is. */
const olderThan = (t: string | Date | undefined, now: Date, ms: number): boolean =>
  now.getTime() - new Date(t ?? NaN).getTime() >= ms;

/** `graceMs` protects launches in flight: an instance is not an orphan before its claim's status names it. */
export async function collectGarbage(
  deps: TerminationDeps,
  objects: ClusterObjects,
  graceMs: number,
  g: Guard,
): Promise<GcCounts> {
  const now = deps.clock.now();
  const owners = ownersOf(objects.nodeClaims);
  const nodes = new Map(objects.nodes.map((n) => [n.spec?.providerID, n]));
  // A managed Node's instance is its termination's to end, after the drain (deletion-requests.ts): a claim
  // deleted by an operator leaves its instance unowned while the Node's pods are still being evicted.
  const draining = (i: CloudInstance): boolean => {
    const node = nodes.get(i.providerId);
    return node !== undefined && managed(node);
  };
  const live = new Set<string>();
  let instances = 0;
  for (const [cloud, provider] of Object.entries(deps.providers) as [
    Cloud,
    NonNullable<(typeof deps.providers)[Cloud]>,
  ][]) {
    const all: readonly CloudInstance[] = await provider.list();
    for (const i of all) live.add(i.providerId);
    instances += await terminateDuplicates(deps, cloud, provider, all, objects, g);
    // The snapshot was read before the list: a claim created since (a launch of this minute's provisioning
    // pass) would make its new instance look orphaned. Claims read after the list see every launch in it —
    // a launcher creates the claim before the instance — as Karpenter's collector lists the cloud first.
    // Read once per cloud, and only when an instance looks orphaned.
    let fresh: Owners | undefined;
    for (const i of all) {
      if (
        owners.owns(i) ||
        draining(i) ||
        i.state === 'terminating' ||
        !olderThan(i.launchTime, now, graceMs)
      )
        continue;
      fresh ??= ownersOf(await deps.cluster.listNodeClaims());
      if (fresh.owns(i)) continue;
      if (!(await g.touchable('terminate', { providerId: i.providerId, claim: i.nodeClaim }))) continue;
      const node = nodes.get(i.providerId);
      const object = node ? { object: involvedOf('Node', node) } : {};
      if ((await terminateInstance(deps, provider, { providerId: i.providerId, ...object })) === 'refused')
        continue;
      if (node) await deleteTerminated(deps.cluster, 'Node', node.metadata.name);
      deps.metrics.count(M.garbageCollectedTotal, 1, { [L.kind]: 'instance', [L.cloud]: cloud });
      deps.logger.info('terminated an instance no NodeClaim owns', { providerID: i.providerId });
      instances += 1;
    }
  }
  let claims = 0;
  for (const c of objects.nodeClaims) {
    const { providerID: pid, nodeName } = c.status ?? {};
    if (pid === undefined || live.has(pid) || c.metadata.deletionTimestamp) continue;
    const cloud = cloudOfProviderId(pid);
    // A claim whose cloud has no provider here was not listed: its instance's absence from the lists says nothing.
    const provider = cloud && deps.providers[cloud];
    if (!provider || !olderThan(c.metadata.creationTimestamp, now, graceMs)) continue;
    if (!(await vanished(deps, provider, c, pid)) || !(await collectable(deps, g, c, pid, nodeName)))
      continue;
    await deleteTerminated(deps.cluster, 'NodeClaim', c.metadata.name);
    const node = nodes.get(pid);
    if (node) await deleteTerminated(deps.cluster, 'Node', node.metadata.name);
    deps.metrics.count(M.garbageCollectedTotal, 1, { [L.kind]: 'nodeclaim', [L.cloud]: cloud });
    deps.logger.info('deleted a NodeClaim whose instance is gone', {
      claim: c.metadata.name,
      providerID: pid,
    });
    claims += 1;
  }
  return { instances, claims };
}

interface Owners {
  owns(i: CloudInstance): boolean;
}

/** Whether a NodeClaim owns an instance: by the provider ID in its status, or by the claim name tagged on it. */
function ownersOf(claims: readonly NodeClaim[]): Owners {
  const names = new Set<string | undefined>(claims.map((c) => c.metadata.name));
  const ids = new Set(claims.map((c) => c.status?.providerID));
  return { owns: (i) => ids.has(i.providerId) || names.has(i.nodeClaim) };
}

/**
 * Karpenter's garbage collector (pkg/controllers/nodeclaim/garbagecollection) deletes only claims that are
 * Registered — a claim that has not been through its lifecycle is the registration timeout's — and skips a
 * claim whose Node is Ready: the kubelet still posts status, so the instance runs whatever the cloud's list
 * says (EC2 can miss a new instance from DescribeInstances for minutes). The Node is read directly.
 */
async function collectable(
  deps: TerminationDeps,
  g: Guard,
  c: NodeClaim,
  pid: string,
  nodeName: string | undefined,
): Promise<boolean> {
  if (!registered(c)) return false;
  if (!(await g.touchable('delete-nodeclaim', { claim: c.metadata.name, node: nodeName, providerId: pid })))
    return false;
  const node = await g.nodeOf(c);
  if (!node || !nodeReady(node)) return true;
  await refuse(deps, {
    action: 'delete-nodeclaim',
    reason: 'absence-unconfirmed',
    message: `the cloud does not show the instance of NodeClaim ${c.metadata.name}, but its Node ${node.metadata.name} is Ready`,
    providerId: pid,
    object: involvedOf('NodeClaim', c),
  });
  return false;
}

/**
 * A list can lag a launch; a direct read confirms the instance is really gone before its claim goes (by the
 * CloudProvider contract, `get` answers InstanceNotFoundError for an instance that is gone or terminated). A
 * claim naming another project's instance is never read as gone: its deletion is refused
 * (docs/mechanisms/identity.md).
 */
async function vanished(
  deps: TerminationDeps,
  provider: CloudProvider,
  claim: NodeClaim,
  pid: string,
): Promise<boolean> {
  try {
    await provider.get(providerId(pid));
    return false;
  } catch (err: unknown) {
    if (err instanceof InstanceNotFoundError) return true;
    const refused = ownershipErrorOf(err);
    if (!refused) throw err;
    await refuse(deps, {
      action: 'delete-nodeclaim',
      reason: refused.reason,
      message: `its instance cannot be proven gone: ${refused.message}`,
      providerId: pid,
      object: involvedOf('NodeClaim', claim),
    });
    return false;
  }
}
