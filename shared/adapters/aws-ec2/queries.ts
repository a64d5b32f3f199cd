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
import { TAG_CLUSTER, instanceIdOf, toCloudInstance } from './instances.ts';
import { allPages } from './pages.ts';

export async function describeClusterInstances(ctx: Ec2Context, filters: Filter[]): Promise<CloudInstance[]> {
  const all = [
    { Name: `tag:${TAG_CLUSTER}`, Values: [ctx.config.clusterName] },
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

/** Like Karpenter, an instance that is shutting down or terminated counts as not found. */
export async function describeLive(ctx: Ec2Context, id: ProviderId): Promise<Instance> {
  const instanceId = instanceIdOf(id);
  const page = await ctx.call('DescribeInstances', () =>
    ctx.ec2.send(new DescribeInstancesCommand({ InstanceIds: [instanceId] })),
  );
  const found = page.Reservations?.flatMap((r) => r.Instances ?? []).find((i) => i.InstanceId === instanceId);
  if (!found || found.State?.Name === 'terminated' || found.State?.Name === 'shutting-down')
    throw new InstanceNotFoundError(`EC2 instance ${instanceId} not found`, id);
  return found;
}

export async function terminateInstances(ctx: Ec2Context, ids: readonly string[]): Promise<void> {
  await ctx.call('TerminateInstances', () =>
    ctx.ec2.send(new TerminateInstancesCommand({ InstanceIds: [...ids] })),
  );
}
