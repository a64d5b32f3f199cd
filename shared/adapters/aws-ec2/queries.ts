// DescribeInstances and TerminateInstances as the provider uses them: live instances of the cluster
// by filter, one instance by provider ID (gone once shutting-down), termination.
import {
  DescribeInstancesCommand,
  TerminateInstancesCommand,
  type Filter,
  type Instance,
} from '@aws-sdk/client-ec2';
import { InstanceNotFoundError } from '../../ports/cloud-provider/errors.ts';
import { type CloudInstance, type ProviderId } from '../../ports/cloud-provider/index.ts';
import type { Ec2Context } from './ec2-context.ts';
import { TAG_CLUSTER, TAG_DEPLOYMENT, instanceIdOf, toCloudInstance } from './instances.ts';
import { allPages } from './pages.ts';

/** Live instances tagged with this cluster and this deployment (and `filters`). */
export async function describeClusterInstances(
  ctx: Ec2Context,
  deployment: string,
  filters: Filter[],
): Promise<CloudInstance[]> {
  const all = [
    { Name: `tag:${TAG_CLUSTER}`, Values: [ctx.config.clusterName] },
    { Name: `tag:${TAG_DEPLOYMENT}`, Values: [deployment] },
    { Name: 'instance-state-name', Values: ['pending', 'running'] },
    ...filters,
  ];
  const reservations = await allPages(
    ctx.call,
    'DescribeInstances',
    (NextToken) => ctx.ec2.send(new DescribeInstancesCommand({ Filters: all, NextToken })),
    (p) => p.Reservations,
  );
  return reservations.flatMap((r) => (r.Instances ?? []).map(toCloudInstance));
}

/** One instance, whatever its state, with its reservation's OwnerId (the account); NotFound when EC2 has none. */
export async function describeInstance(
  ctx: Ec2Context,
  id: ProviderId,
): Promise<{ instance: Instance; ownerId?: string }> {
  const instanceId = instanceIdOf(id);
  const page = await ctx.call('DescribeInstances', () =>
    ctx.ec2.send(new DescribeInstancesCommand({ InstanceIds: [instanceId] })),
  );
  for (const r of page.Reservations ?? []) {
    const instance = r.Instances?.find((i) => i.InstanceId === instanceId);
    if (instance) return { instance, ...(r.OwnerId ? { ownerId: r.OwnerId } : {}) };
  }
  throw new InstanceNotFoundError(`EC2 instance ${instanceId} not found`, id);
}

export const isGone = (i: Instance): boolean =>
  i.State?.Name === 'terminated' || i.State?.Name === 'shutting-down';

/** Like Karpenter, an instance that is shutting down or terminated counts as not found. */
export async function describeLive(ctx: Ec2Context, id: ProviderId): Promise<Instance> {
  const { instance } = await describeInstance(ctx, id);
  if (isGone(instance)) throw new InstanceNotFoundError(`EC2 instance ${instanceIdOf(id)} not found`, id);
  return instance;
}

/**
 * Which of `ids` EC2 already reports shutting down or terminated. None when EC2 does not list them all yet (a
 * fleet launched a moment ago is not visible at once; a dead one stays listed for about an hour).
 */
export async function goneAmong(ctx: Ec2Context, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  try {
    const page = await ctx.call('DescribeInstances', () =>
      ctx.ec2.send(new DescribeInstancesCommand({ InstanceIds: [...ids] })),
    );
    return (page.Reservations ?? [])
      .flatMap((r) => r.Instances ?? [])
      .filter(isGone)
      .map((i) => i.InstanceId ?? '');
  } catch (err: unknown) {
    if (err instanceof InstanceNotFoundError) return [];
    throw err;
  }
}

export async function terminateInstances(ctx: Ec2Context, ids: readonly string[]): Promise<void> {
  await ctx.call('TerminateInstances', () =>
    ctx.ec2.send(new TerminateInstancesCommand({ InstanceIds: [...ids] })),
  );
}
