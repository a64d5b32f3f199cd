// EC2 Describe* actions over the emulator's in-memory world, each returning the body of its XML
// response; filters follow EC2's (every filter must match, any value within one, * and ? wildcards).
import { Ec2Fault } from './faults.ts';
import { filtersOf, listOf, matchesFilters, tagField, type Params } from './query.ts';
import { tagSet, type XmlValue } from './xml.ts';
import { STATE_CODES, type Ec2World, type EmuInstance } from './world.ts';

/** One action: the world and the request's parameters in, the body of the XML response out. */
export type Handler = (world: Ec2World, params: Params) => Record<string, XmlValue>;

function instanceXml(i: EmuInstance): XmlValue {
  return {
    instanceId: i.instanceId,
    imageId: i.imageId,
    instanceState: { code: STATE_CODES[i.state], name: i.state },
    instanceType: i.instanceType,
    launchTime: i.launchTime,
    placement: { availabilityZone: i.zone },
    subnetId: i.subnetId,
    instanceLifecycle: i.lifecycle === 'spot' ? 'spot' : undefined,
    capacityReservationId: i.capacityReservationId,
    clientToken: i.clientToken,
    groupSet: i.securityGroupIds.map((groupId) => ({ groupId })),
    tagSet: tagSet(i.tags),
  };
}

export const describeInstances: Handler = (world, params) => {
  const ids = listOf(params, 'InstanceId');
  const missing = ids.filter((id) => !world.instances.has(id));
  if (missing.length > 0)
    throw new Ec2Fault('InvalidInstanceID.NotFound', `The instance IDs '${missing.join(', ')}' do not exist`);
  const filters = filtersOf(params);
  const found = [...world.instances.values()].filter(
    (i) =>
      (ids.length === 0 || ids.includes(i.instanceId)) &&
      matchesFilters(filters, (name) => {
        const fields: Record<string, string[]> = {
          'instance-state-name': [i.state],
          'instance-type': [i.instanceType],
          'availability-zone': [i.zone],
          'instance-id': [i.instanceId],
        };
        return fields[name] ?? tagField(i.tags, name);
      }),
  );
  return {
    reservationSet: found.map((i) => ({
      reservationId: `r-${i.instanceId.slice(2)}`,
      ownerId: '123456789012',
      instancesSet: [instanceXml(i)],
    })),
  };
};

export const describeInstanceTypes: Handler = (world, params) => {
  const names = listOf(params, 'InstanceType');
  const unknown = names.filter((n) => !world.types.has(n));
  if (unknown.length > 0)
    throw new Ec2Fault(
      'InvalidInstanceType',
      `The following supplied instance types do not exist: [${unknown.join(', ')}]`,
    );
  const types = [...world.types.values()].filter((t) => names.length === 0 || names.includes(t.name));
  return {
    instanceTypeSet: types.map((t) => ({
      instanceType: t.name,
      currentGeneration: true,
      bareMetal: false,
      hypervisor: 'nitro',
      supportedUsageClasses: t.spotPrice === undefined ? ['on-demand'] : ['on-demand', 'spot'],
      processorInfo: { supportedArchitectures: [t.arch ?? 'x86_64'] },
      vCpuInfo: { defaultVCpus: t.vcpu },
      memoryInfo: { sizeInMiB: t.memoryMiB },
      networkInfo: {
        maximumNetworkInterfaces: 4,
        ipv4AddressesPerInterface: Math.max(2, Math.ceil(((t.maxPods ?? 58) + 2) / 3) + 1),
      },
      gpuInfo: t.gpu
        ? {
            gpus: [
              {
                name: t.gpu.name,
                manufacturer: t.gpu.manufacturer,
                count: t.gpu.count,
                memoryInfo: { sizeInMiB: t.gpu.memoryMiB },
              },
            ],
            totalGpuMemoryInMiB: t.gpu.memoryMiB * t.gpu.count,
          }
        : undefined,
    })),
  };
};

export const describeInstanceTypeOfferings: Handler = (world, params) => {
  const filters = filtersOf(params);
  const rows = [...world.types.values()].flatMap((t) =>
    t.zones.map((zone) => ({ instanceType: t.name, locationType: 'availability-zone', location: zone })),
  );
  return {
    instanceTypeOfferingSet: rows.filter((r) =>
      matchesFilters(
        filters,
        (name) => ({ 'instance-type': [r.instanceType], location: [r.location] })[name],
      ),
    ),
  };
};

export const describeSpotPriceHistory: Handler = (world, params) => {
  const names = listOf(params, 'InstanceType');
  const rows = [...world.types.values()]
    .filter((t) => t.spotPrice !== undefined && (names.length === 0 || names.includes(t.name)))
    .flatMap((t) =>
      t.zones.map((zone) => ({
        availabilityZone: zone,
        instanceType: t.name,
        productDescription: 'Linux/UNIX',
        spotPrice: (t.spotPrice as number).toFixed(6),
        timestamp: new Date(),
      })),
    );
  return { spotPriceHistorySet: rows };
};

export const describeSubnets: Handler = (world, params) => {
  const ids = listOf(params, 'SubnetId');
  const filters = filtersOf(params);
  const found = world.subnets.filter(
    (s) =>
      (ids.length === 0 || ids.includes(s.subnetId)) &&
      matchesFilters(
        filters,
        (n) => ({ 'subnet-id': [s.subnetId], 'availability-zone': [s.zone] })[n] ?? tagField(s.tags, n),
      ),
  );
  return {
    subnetSet: found.map((s) => ({
      subnetId: s.subnetId,
      availabilityZone: s.zone,
      availableIpAddressCount: s.availableIps,
      state: 'available',
      vpcId: 'vpc-1',
      tagSet: tagSet(s.tags),
    })),
  };
};

export const describeSecurityGroups: Handler = (world, params) => {
  const ids = listOf(params, 'GroupId');
  const filters = filtersOf(params);
  const found = world.securityGroups.filter(
    (g) =>
      (ids.length === 0 || ids.includes(g.groupId)) &&
      matchesFilters(
        filters,
        (n) => ({ 'group-id': [g.groupId], 'group-name': [g.groupName] })[n] ?? tagField(g.tags, n),
      ),
  );
  return {
    securityGroupInfo: found.map((g) => ({
      groupId: g.groupId,
      groupName: g.groupName,
      vpcId: 'vpc-1',
      tagSet: tagSet(g.tags),
    })),
  };
};

export const describeImages: Handler = (world, params) => {
  const ids = listOf(params, 'ImageId');
  const owners = listOf(params, 'Owner');
  const filters = filtersOf(params);
  const found = world.images.filter(
    (i) =>
      (ids.length === 0 || ids.includes(i.imageId)) &&
      (owners.length === 0 || owners.includes(i.owner)) &&
      matchesFilters(
        filters,
        (n) =>
          ({ name: [i.name], 'image-id': [i.imageId], architecture: [i.arch], state: ['available'] })[n] ??
          tagField(i.tags, n),
      ),
  );
  return {
    imagesSet: found.map((i) => ({
      imageId: i.imageId,
      name: i.name,
      imageOwnerId: i.owner,
      creationDate: i.creationDate,
      architecture: i.arch,
      imageState: 'available',
      tagSet: tagSet(i.tags),
    })),
  };
};

export const describeLaunchTemplates: Handler = (world, params) => {
  const names = listOf(params, 'LaunchTemplateName');
  const found = [...world.launchTemplates.values()].filter(
    (t) => names.length === 0 || names.includes(t.name),
  );
  if (names.length > 0 && found.length === 0)
    throw new Ec2Fault(
      'InvalidLaunchTemplateName.NotFoundException',
      `At least one of the launch templates specified in the request does not exist.`,
    );
  return {
    launchTemplates: found.map((t) => ({
      launchTemplateId: t.id,
      launchTemplateName: t.name,
      defaultVersionNumber: 1,
      latestVersionNumber: 1,
      tagSet: tagSet(t.tags),
    })),
  };
};

export const describeCapacityReservations: Handler = (world, params) => {
  const ids = listOf(params, 'CapacityReservationId');
  const filters = filtersOf(params);
  const found = world.reservations.filter(
    (r) =>
      (ids.length === 0 || ids.includes(r.id)) &&
      matchesFilters(
        filters,
        (n) => ({ 'instance-type': [r.instanceType], state: ['active'] })[n] ?? tagField(r.tags, n),
      ),
  );
  return {
    capacityReservationSet: found.map((r) => ({
      capacityReservationId: r.id,
      instanceType: r.instanceType,
      availabilityZone: r.zone,
      availableInstanceCount: r.available,
      state: 'active',
      instancePlatform: 'Linux/UNIX',
      tagSet: tagSet(r.tags),
    })),
  };
};
