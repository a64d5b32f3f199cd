// Resolves an EC2NodeClass's selector terms into the image, subnets, security groups and capacity
// reservations a launch uses (Karpenter: terms are ORed, fields within a term ANDed).
import {
  DescribeCapacityReservationsCommand,
  DescribeSecurityGroupsCommand,
  DescribeSubnetsCommand,
  type EC2Client,
  type Filter,
} from '@aws-sdk/client-ec2';
import type { Call } from './ec2-context.ts';
import type { EC2NodeClass } from '../../model/nodeclass.ts';
import { NodeClassResolutionError } from './errors.ts';
import { allPages } from './pages.ts';
import { resolveImages, type ImageSources, type ResolvedImage } from './images.ts';

export interface ResolvedNodeClass {
  /** The newest of `images`: what an instance type-blind reader (drift of an unknown type) compares with. */
  readonly imageId: string;
  /** Every image the terms select, the newest per architecture and variant (images.ts); a launch picks per type. */
  readonly images?: readonly ResolvedImage[];
  /** One subnet per zone: the one with the most free addresses, as Karpenter picks. */
  readonly subnets: readonly { readonly subnetId: string; readonly zone: string }[];
  readonly securityGroupIds: readonly string[];
  readonly reservations: readonly {
    readonly id: string;
    readonly instanceType: string;
    readonly zone: string;
    readonly available: number;
  }[];
}

const tagFilters = (tags: Record<string, string> | undefined): Filter[] =>
  Object.entries(tags ?? {}).map(([k, v]) =>
    v === '*' ? { Name: 'tag-key', Values: [k] } : { Name: `tag:${k}`, Values: [v] },
  );

type SubnetTerm = NonNullable<EC2NodeClass['spec']['subnetSelectorTerms']>[number];
type GroupTerm = NonNullable<EC2NodeClass['spec']['securityGroupSelectorTerms']>[number];

export interface FoundSubnet {
  readonly subnetId: string;
  readonly zone: string;
  readonly zoneId?: string;
  readonly free: number;
}

/** Every subnet the terms select, once, most free addresses first then by id (Karpenter's status order). */
export async function listSubnets(
  ec2: EC2Client,
  call: Call,
  terms: readonly SubnetTerm[],
): Promise<FoundSubnet[]> {
  const found = new Map<string, FoundSubnet>();
  for (const t of terms) {
    const out = await allPages(
      call,
      'DescribeSubnets',
      (NextToken) =>
        ec2.send(
          new DescribeSubnetsCommand({
            ...(t.id ? { SubnetIds: [t.id] } : {}),
            Filters: tagFilters(t.tags).length ? tagFilters(t.tags) : undefined,
            NextToken,
          }),
        ),
      (p) => p.Subnets,
    );
    for (const s of out)
      if (s.SubnetId && s.AvailabilityZone)
        found.set(s.SubnetId, {
          subnetId: s.SubnetId,
          zone: s.AvailabilityZone,
          ...(s.AvailabilityZoneId ? { zoneId: s.AvailabilityZoneId } : {}),
          free: s.AvailableIpAddressCount ?? 0,
        });
  }
  return [...found.values()].sort((a, b) => b.free - a.free || a.subnetId.localeCompare(b.subnetId));
}

/** Every security group the terms select, once, by id. */
export async function listSecurityGroups(
  ec2: EC2Client,
  call: Call,
  terms: readonly GroupTerm[],
): Promise<{ id: string; name?: string }[]> {
  const groups = new Map<string, { id: string; name?: string }>();
  for (const t of terms) {
    const filters = [...tagFilters(t.tags), ...(t.name ? [{ Name: 'group-name', Values: [t.name] }] : [])];
    const out = await allPages(
      call,
      'DescribeSecurityGroups',
      (NextToken) =>
        ec2.send(
          new DescribeSecurityGroupsCommand({
            ...(t.id ? { GroupIds: [t.id] } : {}),
            Filters: filters.length ? filters : undefined,
            NextToken,
          }),
        ),
      (p) => p.SecurityGroups,
    );
    for (const g of out)
      if (g.GroupId) groups.set(g.GroupId, { id: g.GroupId, ...(g.GroupName ? { name: g.GroupName } : {}) });
  }
  return [...groups.values()].sort((a, b) => a.id.localeCompare(b.id));
}

export async function resolveNodeClass(
  ec2: EC2Client,
  call: Call,
  nodeClass: EC2NodeClass,
  sources: ImageSources = {},
): Promise<ResolvedNodeClass> {
  const spec = nodeClass.spec;
  const where = `EC2NodeClass ${nodeClass.metadata.name}`;
  if (!spec.amiSelectorTerms?.length)
    throw new NodeClassResolutionError(`${where}: spec.amiSelectorTerms is required`);
  if (!spec.subnetSelectorTerms?.length)
    throw new NodeClassResolutionError(`${where}: spec.subnetSelectorTerms is required`);
  if (!spec.securityGroupSelectorTerms?.length)
    throw new NodeClassResolutionError(`${where}: spec.securityGroupSelectorTerms is required`);
  const images = await resolveImages(ec2, call, where, spec.amiSelectorTerms, sources);
  const imageId =
    [...images].sort((a, b) => b.created.localeCompare(a.created) || a.id.localeCompare(b.id))[0]?.id ?? '';

  const byZone = new Map<string, { subnetId: string; zone: string; free: number }>();
  for (const s of await listSubnets(ec2, call, spec.subnetSelectorTerms)) {
    const seen = byZone.get(s.zone);
    if (!seen || s.free > seen.free) byZone.set(s.zone, s);
  }
  if (byZone.size === 0) throw new NodeClassResolutionError(`${where}: subnetSelectorTerms select no subnet`);

  const groups = (await listSecurityGroups(ec2, call, spec.securityGroupSelectorTerms)).map((g) => g.id);
  if (groups.length === 0)
    throw new NodeClassResolutionError(`${where}: securityGroupSelectorTerms select no security group`);

  const reservations: ResolvedNodeClass['reservations'][number][] = [];
  for (const t of spec.capacityReservationSelectorTerms ?? []) {
    const out = await allPages(
      call,
      'DescribeCapacityReservations',
      (NextToken) =>
        ec2.send(
          new DescribeCapacityReservationsCommand({
            ...(t.id ? { CapacityReservationIds: [t.id] } : {}),
            Filters: [{ Name: 'state', Values: ['active'] }, ...tagFilters(t.tags)],
            NextToken,
          }),
        ),
      (p) => p.CapacityReservations,
    );
    for (const r of out) {
      if (r.CapacityReservationId && r.InstanceType && r.AvailabilityZone)
        reservations.push({
          id: r.CapacityReservationId,
          instanceType: r.InstanceType,
          zone: r.AvailabilityZone,
          available: r.AvailableInstanceCount ?? 0,
        });
    }
  }
  return {
    imageId,
    images,
    subnets: [...byZone.values()]
      .map(({ subnetId, zone }) => ({ subnetId, zone }))
      .sort((a, b) => a.zone.localeCompare(b.zone)),
    securityGroupIds: groups,
    reservations,
  };
}
