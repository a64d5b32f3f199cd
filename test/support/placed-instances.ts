// Instances placed straight into an emulator's world, outside any adapter: what another deployment, another
// cluster, another project or account, or a kraftsman from before deployment ids would have left there.
import type { Ec2World } from '../../local/ec2/world.ts';
import type { GceWorld } from '../../local/gce/world.ts';

export interface PlacedEc2 {
  readonly zone: string;
  readonly tags: Record<string, string>;
  readonly ownerId?: string;
  readonly instanceType?: string;
}

/** A running EC2 instance with exactly these tags; returns its providerID. */
export function placeEc2Instance(world: Ec2World, p: PlacedEc2): string {
  const instanceId = world.nextId('i');
  world.instances.set(instanceId, {
    instanceId,
    instanceType: p.instanceType ?? 'g5.xlarge',
    zone: p.zone,
    subnetId: `subnet-${p.zone}`,
    imageId: 'ami-0gpu20261101',
    securityGroupIds: [],
    lifecycle: 'on-demand',
    launchTime: world.now(),
    tags: { ...p.tags },
    state: 'running',
    ...(p.ownerId ? { ownerId: p.ownerId } : {}),
  });
  return `aws:///${p.zone}/${instanceId}`;
}

export interface PlacedGce {
  readonly zone: string;
  readonly name: string;
  readonly labels: Record<string, string>;
  /** The claim in metadata, as the adapter writes it for a single claim's launch. */
  readonly claim?: string;
  readonly machineType?: string;
}

/** A running Compute Engine instance with exactly these labels; returns its providerID. */
export function placeGceInstance(world: GceWorld, p: PlacedGce): string {
  const machineType = p.machineType ?? 'g2-standard-4';
  world.instances.set(world.key(p.zone, p.name), {
    id: world.nextId(),
    name: p.name,
    zone: p.zone,
    machineType,
    provisioningModel: 'STANDARD',
    resource: {
      name: p.name,
      labels: { ...p.labels },
      ...(p.claim ? { metadata: { items: [{ key: 'kraftsman-nodeclaim', value: p.claim }] } } : {}),
    },
    status: 'RUNNING',
    creationTimestamp: world.now().toISOString(),
  });
  return `gce://${world.project}/${p.zone}/${p.name}`;
}
