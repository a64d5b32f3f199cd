// Lifecycle's garbage collection of managed instance profiles (docs/mechanisms/instance-profiles.md): the node
// classes whose profile must stay are computed here from the pass's read; the collector proves each profile is
// this cluster's before it deletes one (Karpenter's instanceprofile.garbagecollection keeps the profiles of current
// node classes and of live NodeClaims).
import type { ClusterObjects } from '../state/objects.ts';
import type { InstanceProfileCollector, ProfileGcCounts } from '../ports/instance-profiles.ts';

/** EC2NodeClasses with a role that are not being deleted, and those any NodeClaim still names. */
export function neededProfiles(objects: ClusterObjects): ReadonlySet<string> {
  const needed = new Set<string>();
  for (const nc of objects.nodeClasses)
    if (nc.kind === 'EC2NodeClass' && nc.spec.role && !nc.metadata.deletionTimestamp)
      needed.add(nc.metadata.name);
  for (const claim of objects.nodeClaims) {
    const ref = claim.spec.nodeClassRef;
    if (ref.group === 'karpenter.k8s.aws' && ref.kind === 'EC2NodeClass') needed.add(ref.name);
  }
  return needed;
}

export async function collectInstanceProfiles(
  instanceProfiles: InstanceProfileCollector,
  objects: ClusterObjects,
  now: Date,
  graceMs: number,
): Promise<ProfileGcCounts> {
  // The call's receiver is named `instanceProfiles`: test/infra/support/derive.ts finds lifecycle's IAM calls by it.
  return instanceProfiles.collect({ needed: neededProfiles(objects), now, graceMs });
}
