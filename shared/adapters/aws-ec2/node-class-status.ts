// An EC2NodeClass's selectors resolved part by part for its status, as Karpenter's node-class controller reconciles
// them (pkg/controllers/nodeclass ami.go, subnet.go, securitygroup.go, instanceprofile.go): each part that selects
// nothing goes False with Karpenter's reason (AMINotFound, SubnetsNotFound, SecurityGroupsNotFound) on its own.
import type { EC2Client } from '@aws-sdk/client-ec2';
import type { EC2NodeClass } from '../../model/nodeclass.ts';
import {
  resolved,
  unresolved,
  type Ec2NodeClassResolution,
  type Resolved,
  type StatusSecurityGroup,
  type StatusSubnet,
} from '../../model/nodeclass-status.ts';
import { instanceProfileProblem } from '../../model/node-identity.ts';
import type { Call } from './ec2-context.ts';
import { NodeClassResolutionError } from './errors.ts';
import { resolveImages, type ImageSources } from './images.ts';
import { instanceProfileName } from './instance-profiles.ts';
import { listSecurityGroups, listSubnets } from './node-class-resolver.ts';

/** A selection that finds nothing is the part's False reason; any other error (throttling, network) propagates. */
async function part<T>(reason: string, read: () => Promise<Resolved<T>>): Promise<Resolved<T>> {
  try {
    return await read();
  } catch (err: unknown) {
    if (err instanceof NodeClassResolutionError) return unresolved(reason, err.message);
    throw err;
  }
}

export interface StatusContext {
  readonly clusterName: string;
  readonly region: string;
  readonly sources: ImageSources;
  /** Whether the provider has IAM, to make the instance profile of a node class with spec.role. */
  readonly makesProfiles: boolean;
}

export async function describeEc2NodeClass(
  ec2: EC2Client,
  call: Call,
  nc: EC2NodeClass,
  ctx: StatusContext,
): Promise<Ec2NodeClassResolution> {
  const where = `EC2NodeClass ${nc.metadata.name}`;
  const spec = nc.spec;
  const amis = await part('AMINotFound', async () => {
    const images = await resolveImages(ec2, call, where, spec.amiSelectorTerms ?? [], ctx.sources);
    // Karpenter's status.amis: id, name, requirements sorted by key length then key (ami.go).
    return resolved(
      [...images]
        .sort((a, b) => a.id.localeCompare(b.id))
        .map((i) => ({
          id: i.id,
          name: i.name,
          requirements: [...i.requirements].sort(
            (a, b) => a.key.length - b.key.length || a.key.localeCompare(b.key),
          ),
        })),
    );
  });
  const subnets = await part<readonly StatusSubnet[]>('SubnetsNotFound', async () => {
    const found = await listSubnets(ec2, call, spec.subnetSelectorTerms ?? []);
    if (found.length === 0) return unresolved('SubnetsNotFound', 'SubnetSelector did not match any Subnets');
    return resolved(
      found.map((s) => ({ id: s.subnetId, zone: s.zone, ...(s.zoneId ? { zoneID: s.zoneId } : {}) })),
    );
  });
  const securityGroups = await part<readonly StatusSecurityGroup[]>('SecurityGroupsNotFound', async () => {
    const found = await listSecurityGroups(ec2, call, spec.securityGroupSelectorTerms ?? []);
    if (found.length === 0)
      return unresolved('SecurityGroupsNotFound', 'SecurityGroupSelector did not match any SecurityGroups');
    return resolved(found);
  });
  return { kind: 'EC2NodeClass', amis, subnets, securityGroups, instanceProfile: profileOf(nc, ctx) };
}

/** The profile a launch uses (instance-profiles.ts): the given one, or the one made for the role. */
function profileOf(nc: EC2NodeClass, ctx: StatusContext): Resolved<string> {
  const problem = instanceProfileProblem(nc);
  if (problem) return unresolved('InstanceProfileNotReady', problem);
  const given = nc.spec.instanceProfile?.trim();
  if (given) return resolved(given);
  if (!ctx.makesProfiles)
    return unresolved(
      'InstanceProfileNotReady',
      'spec.role needs an instance profile made for it, and this function has no IAM client to make one',
    );
  return resolved(instanceProfileName(ctx.clusterName, ctx.region, nc.metadata.name));
}
