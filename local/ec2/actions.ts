// The EC2 actions that change the emulator's world (termination, tags, launch templates) and the
// registry of every action but CreateFleet, each returning the body of its XML response.
// TerminateInstances answers `shutting-down` as EC2 does; the instance terminates a little later.
import { Ec2Fault } from './faults.ts';
import { templateSettings } from './template-data.ts';
import { listOf, membersOf, structOf, tagKey, tagsFor } from './query.ts';
import { STATE_CODES, type EmuInstance } from './world.ts';

import {
  describeCapacityReservations,
  describeImages,
  describeInstanceTypeOfferings,
  describeInstanceTypes,
  describeInstances,
  describeLaunchTemplates,
  describeLaunchTemplateVersions,
  describeSecurityGroups,
  describeSpotPriceHistory,
  describeSubnets,
  type Handler,
} from './describe.ts';

export type { Handler };

const terminateInstances: Handler = (world, params) => {
  const ids = listOf(params, 'InstanceId');
  // InstanceIds is required (EC2 API reference, TerminateInstances): a call naming none is refused.
  if (ids.length === 0)
    throw new Ec2Fault('MissingParameter', 'The request must contain the parameter InstanceId');
  const missing = ids.filter((id) => !world.instances.has(id));
  if (missing.length > 0)
    throw new Ec2Fault('InvalidInstanceID.NotFound', `The instance IDs '${missing.join(', ')}' do not exist`);
  return {
    instancesSet: ids.map((id) => {
      const i = world.instances.get(id) as EmuInstance;
      const previous = i.state;
      // EC2 answers `shutting-down`; the instance is `terminated` a little later (the server schedules it).
      if (previous === 'pending' || previous === 'running') i.state = 'shutting-down';
      return {
        instanceId: id,
        previousState: { code: STATE_CODES[previous], name: previous },
        currentState: { code: STATE_CODES[i.state], name: i.state },
      };
    }),
  };
};

const createTags: Handler = (world, params) => {
  const tags: Record<string, string> = {};
  for (const t of membersOf(params, 'Tag')) tags[tagKey(t.get('Key'))] = t.get('Value') ?? '';
  for (const id of listOf(params, 'ResourceId')) {
    const i = world.instances.get(id);
    if (!i || !world.visible(id, 'CreateTags'))
      throw new Ec2Fault('InvalidInstanceID.NotFound', `The instance ID '${id}' does not exist`);
    i.tags = { ...i.tags, ...tags };
  }
  return { return: true };
};

const createLaunchTemplate: Handler = (world, params) => {
  const name = params.get('LaunchTemplateName') ?? '';
  if ([...world.launchTemplates.values()].some((t) => t.name === name))
    throw new Ec2Fault(
      'InvalidLaunchTemplateName.AlreadyExistsException',
      `Launch template name already in use.`,
    );
  const data = structOf(params, 'LaunchTemplateData');
  const imageId = data.get('ImageId');
  const userData = data.get('UserData');
  const reservation = data.get(
    'CapacityReservationSpecification.CapacityReservationTarget.CapacityReservationId',
  );
  const { nicGroups, ...settings } = templateSettings(data);
  const instanceProfile = data.get('IamInstanceProfile.Name');
  const template = {
    id: world.nextId('lt'),
    name,
    ...(imageId ? { imageId } : {}),
    ...(userData ? { userData } : {}),
    ...(reservation ? { capacityReservationId: reservation } : {}),
    ...(instanceProfile ? { instanceProfile } : {}),
    securityGroupIds: nicGroups ?? listOf(data, 'SecurityGroupId'),
    tags: tagsFor(data, 'TagSpecification', 'instance'),
    settings,
  };
  world.launchTemplates.set(template.id, template);
  return {
    launchTemplate: {
      launchTemplateId: template.id,
      launchTemplateName: name,
      defaultVersionNumber: 1,
      latestVersionNumber: 1,
    },
  };
};

export const ACTIONS: Readonly<Record<string, Handler>> = {
  DescribeInstances: describeInstances,
  TerminateInstances: terminateInstances,
  CreateTags: createTags,
  DescribeInstanceTypes: describeInstanceTypes,
  DescribeInstanceTypeOfferings: describeInstanceTypeOfferings,
  DescribeSpotPriceHistory: describeSpotPriceHistory,
  DescribeSubnets: describeSubnets,
  DescribeSecurityGroups: describeSecurityGroups,
  DescribeImages: describeImages,
  DescribeLaunchTemplates: describeLaunchTemplates,
  DescribeLaunchTemplateVersions: describeLaunchTemplateVersions,
  CreateLaunchTemplate: createLaunchTemplate,
  DescribeCapacityReservations: describeCapacityReservations,
};
