// Duplicate instances of one claim (docs/mechanisms/identity.md#one-instance-per-claim): two deliveries of one
// launch can each leave an instance tagged for the same NodeClaim (on Compute Engine, one per zone), and the
// ordinary collector keeps both, since the claim owns each by name. The one the claim's status names is kept; every
// other live one is terminated, proven to be this deployment's and that claim's first.
import type { Cloud } from '../model/labels.ts';
import type { NodeClaim } from '../model/nodeclaim.ts';
import { claimName } from '../model/names.ts';
import type { CloudInstance, CloudProvider } from '../ports/cloud-provider/index.ts';
import type { ClusterObjects } from '../state/objects.ts';
import { deleteTerminated } from './finalizers.ts';
import { involvedOf, terminateInstance } from './terminate-instance.ts';
import type { TerminationDeps } from './termination.ts';
import type { Guard } from './guard.ts';

export const DUPLICATE_INSTANCES_METRIC = 'kraftsman_duplicate_instances_terminated_total';

/** Terminates the duplicates among `listed` (one provider's list); returns how many it terminated. */
export async function terminateDuplicates(
  deps: TerminationDeps,
  cloud: Cloud,
  provider: CloudProvider,
  listed: readonly CloudInstance[],
  objects: ClusterObjects,
  g: Pick<Guard, 'touchable'>,
): Promise<number> {
  const claims = new Map(objects.nodeClaims.map((c) => [c.metadata.name, c]));
  let terminated = 0;
  for (const [name, group] of byClaim(listed)) {
    const claim = claims.get(name);
    const keep = claim?.status?.providerID;
    // Without a claim naming one of them, nothing says which is the claim's: the launch may still be finishing.
    if (!claim || !keep || !group.some((i) => i.providerId === keep)) continue;
    for (const i of group.filter((x) => x.providerId !== keep)) {
      // A Node an invalid object concerns (say the duplicate registered one that fails validation) is untouchable.
      if (!(await g.touchable('terminate', { providerId: i.providerId, claim: name }))) continue;
      if (await terminateDuplicate(deps, cloud, provider, i, claim, objects)) terminated += 1;
    }
  }
  return terminated;
}

function byClaim(listed: readonly CloudInstance[]): Map<string, CloudInstance[]> {
  const groups = new Map<string, CloudInstance[]>();
  for (const i of listed)
    if (i.nodeClaim && i.state !== 'terminating' && i.state !== 'terminated')
      groups.set(i.nodeClaim, [...(groups.get(i.nodeClaim) ?? []), i]);
  return new Map([...groups].filter(([, g]) => g.length > 1));
}

async function terminateDuplicate(
  deps: TerminationDeps,
  cloud: Cloud,
  provider: CloudProvider,
  i: CloudInstance,
  claim: NodeClaim,
  objects: ClusterObjects,
): Promise<boolean> {
  const outcome = await terminateInstance(deps, provider, {
    providerId: i.providerId,
    nodeClaim: claimName(claim),
    object: involvedOf('NodeClaim', claim),
  });
  if (outcome === 'refused') return false;
  // A duplicate that booted may have registered a Node of its own: it goes with its instance.
  const node = objects.nodes.find((n) => n.spec?.providerID === i.providerId);
  if (node) await deleteTerminated(deps.cluster, 'Node', node.metadata.name);
  deps.metrics.count(DUPLICATE_INSTANCES_METRIC, 1, { cloud });
  deps.logger.warn('terminated a duplicate instance of a NodeClaim', {
    claim: claim.metadata.name,
    providerID: i.providerId,
    kept: claim.status?.providerID,
  });
  return true;
}
