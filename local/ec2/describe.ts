// EC2 Describe* actions over the emulator's in-memory world, each returning the body of its XML
// response; filters follow EC2's (every filter must match, any value within one, * and ? wildcards;
// an unknown filter name is InvalidParameterValue) and every list pages (MaxResults/NextToken).
import { Ec2Fault } from './faults.ts';
import { paginate } from './pages.ts';
import { checkFilters, filtersOf, listOf, matchesFilters, tagField, type Params } from './query.ts';
import { tagSet, type XmlValue } from './xml.ts';
import { STATE_CODES, type Ec2World, type EmuInstance } from './world.ts';
import { settingsXml, type EmuTemplateSettings } from './template-data.ts';

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
    ...(i.settings ? instanceSettingsXml(i) : {}),
  };
}

/** What DescribeInstances says of the template's settings: volumes by device (with made-up ids), IMDS, monitoring. */
function instanceSettingsXml(i: EmuInstance): Record<string, XmlValue> {
  const s = i.settings as EmuTemplateSettings;
  return {
    blockDeviceMapping: s.blockDevices.map((b, n) => ({
      deviceName: b.deviceName,
      ebs: {
        volumeId: `vol-${i.instanceId.slice(2)}${n}`,
        status: 'attached',
        attachTime: i.launchTime,
        deleteOnTermination: b.deleteOnTermination ?? true,
      },
    })),
    metadataOptions: { state: 'applied', ...s.metadataOptions },
    monitoring: { state: s.monitoring ? 'enabled' : 'disabled' },
    // A made-up public address from the documentation range (RFC 5737) when the template asks for one.
    ipAddress: s.associatePublicIpAddress
      ? `203.0.113.${(Number.parseInt(i.instanceId.slice(-2), 16) % 254) + 1}`
      : undefined,
  };
}

const INSTANCE_FILTERS = [
  'instance-state-name',
  'instance-type',
  'availability-zone',
  'instance-id',
  'subnet-id',
  'image-id',
  'client-token',
];

export const describeInstances: Handler = (world, params) => {
  const ids = listOf(params, 'InstanceId');
  if (ids.length > 0 && params.has('MaxResults'))
    throw new Ec2Fault(
      'InvalidParameterCombination',
      'The parameter instancesSet cannot be used with the parameter maxResults',
    );
  const missing = ids.filter((id) => !world.visible(id, 'DescribeInstances'));
  if (missing.length > 0)
    throw new Ec2Fault('InvalidInstanceID.NotFound', `The instance IDs '${missing.join(', ')}' do not exist`);
  const filters = filtersOf(params);
  checkFilters(filters, INSTANCE_FILTERS);
  const found = [...world.instances.values()].filter(
    (i) =>
      world.visible(i.instanceId, 'DescribeInstances') &&
      (ids.length === 0 || ids.includes(i.instanceId)) &&
      matchesFilters(filters, (name) => {
        const fields: Record<string, string[]> = {
          'instance-state-name': [i.state],
          'instance-type': [i.instanceType],
          'availability-zone': [i.zone],
          'instance-id': [i.instanceId],
          'subnet-id': [i.subnetId],
          'image-id': [i.imageId],
          'client-token': i.clientToken ? [i.clientToken] : [],
        };
        return fields[name] ?? tagField(i.tags, name);
      }),
  );
  // Named instances come back whole (EC2 refuses MaxResults with InstanceIds); a filtered read pages.
  const { page, nextToken } =
    ids.length > 0 ? { page: found, nextToken: undefined } : paginate(params, found, world.pageSize);
  return {
    reservationSet: page.map((i) => ({
      reservationId: `r-${i.instanceId.slice(2)}`,
      ownerId: i.ownerId ?? world.account,
      instancesSet: [instanceXml(i)],
    })),
    nextToken,
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
  checkFilters(filtersOf(params), []);
  const all = [...world.types.values()].filter((t) => names.length === 0 || names.includes(t.name));
  const { page: types, nextToken } = paginate(params, all, world.pageSize);
  return {
    nextToken,
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
  checkFilters(filters, ['instance-type', 'location']);
  const rows = [...world.types.values()].flatMap((t) =>
    t.zones.map((zone) => ({ instanceType: t.name, locationType: 'availability-zone', location: zone })),
  );
  const matching = rows.filter((r) =>
    matchesFilters(filters, (name) => ({ 'instance-type': [r.instanceType], location: [r.location] })[name]),
  );
  const { page, nextToken } = paginate(params, matching, world.pageSize);
  return { instanceTypeOfferingSet: page, nextToken };
};

export const describeSpotPriceHistory: Handler = (world, params) => {
  const names = listOf(params, 'InstanceType');
  checkFilters(filtersOf(params), []);
  const rows = [...world.types.values()]
    .filter((t) => t.spotPrice !== undefined && (names.length === 0 || names.includes(t.name)))
    .flatMap((t) =>
      t.zones.map((zone) => ({
        availabilityZone: zone,
        instanceType: t.name,
        productDescription: 'Linux/UNIX',
        spotPrice: (t.spotPrice as number).toFixed(6),
        timestamp: world.now(),
      })),
    );
  const { page, nextToken } = paginate(params, rows, world.pageSize);
  return { spotPriceHistorySet: page, nextToken };
};

export const describeSubnets: Handler = (world, params) => {
  const ids = listOf(params, 'SubnetId');
  const filters = filtersOf(params);
  checkFilters(filters, ['subnet-id', 'availability-zone']);
  const matching = world.subnets.filter(
    (s) =>
      (ids.length === 0 || ids.includes(s.subnetId)) &&
      matchesFilters(
        filters,
        (n) => ({ 'subnet-id': [s.subnetId], 'availability-zone': [s.zone] })[n] ?? tagField(s.tags, n),
      ),
  );
  const { page: found, nextToken } = paginate(params, matching, world.pageSize);
  return {
    nextToken,
    subnetSet: found.map((s) => ({
      subnetId: s.subnetId,
      availabilityZone: s.zone,
      ...(s.zoneId ? { availabilityZoneId: s.zoneId } : {}),
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
  checkFilters(filters, ['group-id', 'group-name']);
  const matching = world.securityGroups.filter(
    (g) =>
      (ids.length === 0 || ids.includes(g.groupId)) &&
      matchesFilters(
        filters,
        (n) => ({ 'group-id': [g.groupId], 'group-name': [g.groupName] })[n] ?? tagField(g.tags, n),
      ),
  );
  const { page: found, nextToken } = paginate(params, matching, world.pageSize);
  return {
    nextToken,
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
  checkFilters(filters, ['name', 'image-id', 'architecture', 'state']);
  const matching = world.images.filter(
    (i) =>
      (ids.length === 0 || ids.includes(i.imageId)) &&
      // EC2's owner aliases: `self` is the caller's account, `amazon` Amazon's images.
      (owners.length === 0 ||
        owners.includes(i.owner) ||
        (owners.includes('self') && i.owner === world.account)) &&
      matchesFilters(
        filters,
        (n) =>
          ({ name: [i.name], 'image-id': [i.imageId], architecture: [i.arch], state: ['available'] })[n] ??
          tagField(i.tags, n),
      ),
  );
  const { page: found, nextToken } = paginate(params, matching, world.pageSize);
  return {
    nextToken,
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
  checkFilters(filtersOf(params), []);
  const matching = [...world.launchTemplates.values()].filter(
    (t) => names.length === 0 || names.includes(t.name),
  );
  if (names.length > 0 && matching.length === 0)
    throw new Ec2Fault(
      'InvalidLaunchTemplateName.NotFoundException',
      `At least one of the launch templates specified in the request does not exist.`,
    );
  const { page: found, nextToken } = paginate(params, matching, world.pageSize);
  return {
    nextToken,
    launchTemplates: found.map((t) => ({
      launchTemplateId: t.id,
      launchTemplateName: t.name,
      defaultVersionNumber: 1,
      latestVersionNumber: 1,
      tagSet: tagSet(t.tags),
    })),
  };
};

/** Version 1 of each named template (the emulator keeps one version), with its launchTemplateData. */
export const describeLaunchTemplateVersions: Handler = (world, params) => {
  const name = params.get('LaunchTemplateName');
  const id = params.get('LaunchTemplateId');
  const t = [...world.launchTemplates.values()].find((x) => x.name === name || x.id === id);
  if (!t)
    throw new Ec2Fault(
      name ? 'InvalidLaunchTemplateName.NotFoundException' : 'InvalidLaunchTemplateId.NotFound',
      `The specified launch template, with template ${name ? `name ${name}` : `ID ${id ?? ''}`}, does not exist.`,
    );
  return {
    launchTemplateVersionSet: [
      {
        launchTemplateId: t.id,
        launchTemplateName: t.name,
        versionNumber: 1,
        defaultVersion: true,
        launchTemplateData: {
          imageId: t.imageId,
          userData: t.userData,
          // Groups named in the network interface are not instance-level groups.
          securityGroupIdSet:
            t.settings.associatePublicIpAddress === undefined ? t.securityGroupIds : undefined,
          ...settingsXml(t.settings),
          networkInterfaceSet:
            t.settings.associatePublicIpAddress === undefined
              ? undefined
              : [
                  {
                    deviceIndex: 0,
                    associatePublicIpAddress: t.settings.associatePublicIpAddress,
                    groupSet: t.securityGroupIds.map((groupId) => ({ groupId })),
                  },
                ],
        },
      },
    ],
  };
};

export const describeCapacityReservations: Handler = (world, params) => {
  const ids = listOf(params, 'CapacityReservationId');
  const filters = filtersOf(params);
  checkFilters(filters, ['instance-type', 'state']);
  const matching = world.reservations.filter(
    (r) =>
      (ids.length === 0 || ids.includes(r.id)) &&
      matchesFilters(
        filters,
        (n) => ({ 'instance-type': [r.instanceType], state: ['active'] })[n] ?? tagField(r.tags, n),
      ),
  );
  const { page: found, nextToken } = paginate(params, matching, world.pageSize);
  return {
    nextToken,
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
