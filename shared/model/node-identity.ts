// The IAM identity of an EC2NodeClass's nodes: exactly one of spec.role (kraftsman makes the instance profile) and
// spec.instanceProfile (used as given), as Karpenter's CRD requires; a class without one is NotReady
// (docs/mechanisms/instance-profiles.md), so nothing launches without a profile.
import type { NodeClass } from './nodeclass.ts';

/** Why nodes of this class would have no instance profile, one sentence; undefined when they have one. */
export function instanceProfileProblem(nc: NodeClass): string | undefined {
  if (nc.kind !== 'EC2NodeClass') return undefined;
  const role = nc.spec.role?.trim();
  const profile = nc.spec.instanceProfile?.trim();
  if (role && profile)
    return "spec.role and spec.instanceProfile are both set: set exactly one (Karpenter: \"must specify exactly one of ['role', 'instanceProfile']\")";
  if (!role && !profile)
    return 'neither spec.role nor spec.instanceProfile is set: nodes need an instance profile (set exactly one)';
  return undefined;
}
