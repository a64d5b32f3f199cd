// EC2 instances as CloudInstances, the tags kraftsman writes on them, and provider-ID parsing.
import type { Instance } from '@aws-sdk/client-ec2';
import {
  providerId,
  type CloudInstance,
  type InstanceState,
  type ProviderId,
} from '../../ports/cloud-provider/index.ts';
import { nodeClaimName, nodePoolName } from '../../model/names.ts';

export const TAG_CLUSTER = 'kraftsman.dev/cluster';
export const TAG_NODEPOOL = 'karpenter.sh/nodepool';
export const TAG_NODECLAIM = 'karpenter.sh/nodeclaim';
export const TAG_GANG = 'kraftsman.dev/gang';
/** This deployment's id (docs/mechanisms/identity.md#instances): two deployments sharing a cluster name differ here. */
export const TAG_DEPLOYMENT = 'kraftsman.dev/deployment';
export const TAG_CAPACITY_TYPE = 'karpenter.sh/capacity-type';

export const clusterOwnedTag = (cluster: string): string => `kubernetes.io/cluster/${cluster}`;

/** `aws:///us-east-1a/i-0abc` → `i-0abc`; anything else is refused with a message naming the input. */
export function instanceIdOf(id: ProviderId | string): string {
  const match = /^aws:\/\/\/[a-z0-9-]+\/(i-[0-9a-f]+)$/.exec(id);
  if (!match?.[1])
    throw new Error(`not an EC2 provider ID: ${JSON.stringify(id)} (expected aws:///<zone>/i-…)`);
  return match[1];
}

export const ec2ProviderId = (zone: string, instanceId: string): ProviderId =>
  providerId(`aws:///${zone}/${instanceId}`);

function stateOf(name: string | undefined): InstanceState {
  if (name === 'pending') return 'pending';
  if (name === 'running') return 'running';
  if (name === 'terminated') return 'terminated';
  return 'terminating';
}

export function toCloudInstance(i: Instance): CloudInstance {
  const tags = Object.fromEntries((i.Tags ?? []).map((t) => [t.Key ?? '', t.Value ?? '']));
  const zone = i.Placement?.AvailabilityZone ?? '';
  return {
    providerId: ec2ProviderId(zone, i.InstanceId ?? ''),
    cloud: 'aws',
    instanceType: String(i.InstanceType ?? ''),
    zone,
    capacityType:
      i.InstanceLifecycle === 'spot' ? 'spot' : i.CapacityReservationId ? 'reserved' : 'on-demand',
    state: stateOf(i.State?.Name),
    ...(tags[TAG_NODECLAIM] ? { nodeClaim: nodeClaimName(tags[TAG_NODECLAIM]) } : {}),
    ...(tags[TAG_NODEPOOL] ? { nodePool: nodePoolName(tags[TAG_NODEPOOL]) } : {}),
    ...(i.ImageId ? { imageId: i.ImageId } : {}),
    ...(i.LaunchTime ? { launchTime: i.LaunchTime } : {}),
    tags,
  };
}
