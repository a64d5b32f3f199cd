// Instance profiles for EC2NodeClass `spec.role`, as Karpenter's instance-profile provider makes them
// (docs/mechanisms/instance-profiles.md): named from the cluster and node class, tagged for both, holding exactly
// the node class's role; `spec.instanceProfile` is used as given. Garbage collection deletes only profiles it has
// proved are this cluster's (path, name, tags) and that no node class or live NodeClaim still needs.
import {
  AddRoleToInstanceProfileCommand,
  CreateInstanceProfileCommand,
  DeleteInstanceProfileCommand,
  GetInstanceProfileCommand,
  ListInstanceProfilesCommand,
  RemoveRoleFromInstanceProfileCommand,
  type IAMClient,
  type InstanceProfile,
} from '@aws-sdk/client-iam';
import type { EC2NodeClass } from '../../model/nodeclass.ts';
import { instanceProfileProblem } from '../../model/node-identity.ts';
import type { Call } from './ec2-context.ts';
import { NodeClassResolutionError } from './errors.ts';
import type {
  InstanceProfileCollector,
  ProfileGcCounts,
  ProfileGcInput,
} from '../../ports/instance-profiles.ts';

export const TAG_EKS_CLUSTER = 'eks:eks-cluster-name';
export const TAG_NODECLASS = 'karpenter.k8s.aws/ec2nodeclass';
export const TAG_REGION = 'topology.kubernetes.io/region';

/** FNV-1a, 64 bits: what hashstructure v2 (FormatV2) computes for a Go string. */
function fnv1a64(text: string): bigint {
  let h = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(text, 'utf8')) {
    h ^= BigInt(byte);
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return h;
}

/**
 * Karpenter's instance profile name for a node class (EC2NodeClass.LegacyInstanceProfileName:
 * `<cluster>_<hash(region + name)>`): one per node class, the same on every launcher, so no status must carry it.
 */
export function instanceProfileName(cluster: string, region: string, nodeClass: string): string {
  return `${cluster}_${fnv1a64(`${region}${nodeClass}`).toString(10)}`;
}

/** Karpenter's IAM path for its profiles, without the node class uid (instanceprofile.FormatPath). */
export const instanceProfilePath = (region: string, cluster: string): string =>
  `/karpenter/${region}/${cluster}/`;

/** Karpenter's EC2NodeClass.InstanceProfileTags: the node class's tags, then the cluster's (they win). */
export function instanceProfileTags(
  cluster: string,
  region: string,
  nc: EC2NodeClass,
): Record<string, string> {
  return {
    ...(nc.spec.tags ?? {}),
    [`kubernetes.io/cluster/${cluster}`]: 'owned',
    [TAG_EKS_CLUSTER]: cluster,
    [TAG_NODECLASS]: nc.metadata.name,
    [TAG_REGION]: region,
  };
}

const codeOf = (err: unknown): string[] => {
  const out: string[] = [];
  for (let e: unknown = err, i = 0; e && typeof e === 'object' && i < 10; i++) {
    const x = e as { name?: unknown; Code?: unknown; cause?: unknown };
    for (const c of [x.name, x.Code]) if (typeof c === 'string') out.push(c.replace(/Exception$/, ''));
    e = x.cause;
  }
  return out;
};
const is = (err: unknown, code: string): boolean => codeOf(err).includes(code);

export interface InstanceProfileSettings {
  readonly clusterName: string;
  readonly region: string;
  /** Milliseconds now (the provider's clock): what a launcher saw of a profile is trusted for PROFILE_CACHE_MS. */
  readonly now: () => number;
}

/** Karpenter's instance profile cache TTL: a warm launcher reads a profile again after 15 minutes. */
export const PROFILE_CACHE_MS = 15 * 60_000;

/** The profile a launch names: spec.instanceProfile, or the managed one for spec.role (`managed`). */
export interface LaunchProfile {
  readonly name: string;
  readonly managed: boolean;
}

export class InstanceProfiles implements InstanceProfileCollector {
  /** Profile name → the role it was seen holding, and when (Karpenter's instanceProfileCache). */
  private readonly seen = new Map<string, { role: string; at: number }>();

  constructor(
    private readonly iam: IAMClient,
    private readonly settings: InstanceProfileSettings,
    private readonly call: Call,
  ) {}

  /** The profile a launch through this node class names; refuses a class with both or neither field. */
  async forLaunch(nc: EC2NodeClass): Promise<LaunchProfile> {
    const problem = instanceProfileProblem(nc);
    if (problem) throw new NodeClassResolutionError(`EC2NodeClass ${nc.metadata.name}: ${problem}`);
    if (nc.spec.instanceProfile) return { name: nc.spec.instanceProfile, managed: false };
    return { name: await this.ensure(nc, nc.spec.role ?? ''), managed: true };
  }

  /** Creates the profile when missing and makes `role` its only role (Karpenter's Create + ensureRole). */
  private async ensure(nc: EC2NodeClass, roleSpec: string): Promise<string> {
    const { clusterName, region } = this.settings;
    const name = instanceProfileName(clusterName, region, nc.metadata.name);
    // AddRoleToInstanceProfile takes a role name without its path (Karpenter's ensureRole).
    const role = roleSpec.split('/').pop() ?? roleSpec;
    const cached = this.seen.get(name);
    if (cached?.role === role && this.settings.now() - cached.at < PROFILE_CACHE_MS) return name;
    let profile = await this.get(name);
    if (!profile) {
      try {
        const out = await this.call('CreateInstanceProfile', () =>
          this.iam.send(
            new CreateInstanceProfileCommand({
              InstanceProfileName: name,
              Path: instanceProfilePath(region, clusterName),
              Tags: Object.entries(instanceProfileTags(clusterName, region, nc)).map(([Key, Value]) => ({
                Key,
                Value,
              })),
            }),
          ),
        );
        profile = out.InstanceProfile;
      } catch (err) {
        // Another launcher created it first: read what it made.
        if (!is(err, 'EntityAlreadyExists')) throw err;
        profile = await this.get(name);
      }
    }
    const current = profile?.Roles?.[0]?.RoleName;
    if (current !== role) {
      // A profile holds at most one role: a different one is removed first (Karpenter's ensureRole).
      if (current)
        await this.call('RemoveRoleFromInstanceProfile', () =>
          this.iam.send(
            new RemoveRoleFromInstanceProfileCommand({ InstanceProfileName: name, RoleName: current }),
          ),
        );
      try {
        await this.call('AddRoleToInstanceProfile', () =>
          this.iam.send(new AddRoleToInstanceProfileCommand({ InstanceProfileName: name, RoleName: role })),
        );
      } catch (err) {
        if (is(err, 'NoSuchEntity') && !(await this.get(name)))
          throw new NodeClassResolutionError(`instance profile ${name} vanished while its role was added`, {
            cause: err,
          });
        if (is(err, 'NoSuchEntity'))
          throw new NodeClassResolutionError(
            `EC2NodeClass ${nc.metadata.name}: role ${role} does not exist`,
            {
              cause: err,
            },
          );
        // Another launcher added a role first: take it when it is this one.
        if (!is(err, 'LimitExceeded') || (await this.get(name))?.Roles?.[0]?.RoleName !== role) throw err;
      }
    }
    this.seen.set(name, { role, at: this.settings.now() });
    return name;
  }

  private async get(name: string): Promise<InstanceProfile | undefined> {
    try {
      const out = await this.call('GetInstanceProfile', () =>
        this.iam.send(new GetInstanceProfileCommand({ InstanceProfileName: name })),
      );
      return out.InstanceProfile;
    } catch (err) {
      if (is(err, 'NoSuchEntity')) return undefined;
      throw err;
    }
  }

  /**
   * Deletes this cluster's managed profiles no node class with a role and no live NodeClaim needs (Karpenter's
   * instanceprofile.garbagecollection). Identity before destruction: under this cluster's path, named as this
   * cluster names the node class its tags name, tagged for this cluster and region (docs/mechanisms/identity.md).
   */
  async collect(input: ProfileGcInput): Promise<ProfileGcCounts> {
    const { clusterName, region } = this.settings;
    const counts = { deleted: 0, kept: 0, refused: 0 };
    const listed: InstanceProfile[] = [];
    let Marker: string | undefined;
    do {
      const page = await this.call('ListInstanceProfiles', () =>
        this.iam.send(
          new ListInstanceProfilesCommand({ PathPrefix: instanceProfilePath(region, clusterName), Marker }),
        ),
      );
      listed.push(...(page.InstanceProfiles ?? []));
      Marker = page.IsTruncated ? page.Marker : undefined;
    } while (Marker);
    for (const summary of listed) {
      const name = summary.InstanceProfileName ?? '';
      if (!name.startsWith(`${clusterName}_`)) {
        counts.refused += 1;
        continue;
      }
      // ListInstanceProfiles returns no tags: read the profile itself.
      const profile = await this.get(name);
      if (!profile) continue;
      const tags = Object.fromEntries((profile.Tags ?? []).map((t) => [t.Key ?? '', t.Value ?? '']));
      const nodeClass = tags[TAG_NODECLASS] ?? '';
      const ours =
        tags[`kubernetes.io/cluster/${clusterName}`] === 'owned' &&
        tags[TAG_EKS_CLUSTER] === clusterName &&
        tags[TAG_REGION] === region &&
        nodeClass !== '' &&
        name === instanceProfileName(clusterName, region, nodeClass) &&
        profile.Path === instanceProfilePath(region, clusterName);
      if (!ours) {
        counts.refused += 1;
        continue;
      }
      const young = input.now.getTime() - (profile.CreateDate?.getTime() ?? 0) < input.graceMs;
      if (input.needed.has(nodeClass) || young) {
        counts.kept += 1;
        continue;
      }
      for (const r of profile.Roles ?? [])
        if (r.RoleName)
          await this.call('RemoveRoleFromInstanceProfile', () =>
            this.iam.send(
              new RemoveRoleFromInstanceProfileCommand({ InstanceProfileName: name, RoleName: r.RoleName }),
            ),
          );
      try {
        await this.call('DeleteInstanceProfile', () =>
          this.iam.send(new DeleteInstanceProfileCommand({ InstanceProfileName: name })),
        );
        counts.deleted += 1;
      } catch (err) {
        if (!is(err, 'NoSuchEntity')) throw err;
      }
      this.seen.delete(name);
    }
    return counts;
  }
}
