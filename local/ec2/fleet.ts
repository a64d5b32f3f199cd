// CreateFleet type=instant: pools the overrides of every launch template config, orders them by the allocation
// strategy, honours MinTargetCapacity over the fleet's whole capacity with SingleInstanceType and/or
// SingleAvailabilityZone (one type, one zone, or both), returns errorSet + fleetInstanceSet,
// and is idempotent per ClientToken (a different request under the same token is refused, as EC2 does).
import { membersOf, structOf, tagsFor, type Params } from './query.ts';
import type { XmlValue } from './xml.ts';
import type { Ec2World, EmuInstance, EmuLaunchTemplate, EmuPlacementGroup, Lifecycle } from './world.ts';
import { Ec2Fault } from './faults.ts';

interface Candidate {
  readonly template: EmuLaunchTemplate;
  readonly version: string;
  readonly instanceType: string;
  readonly subnetId: string;
  readonly zone: string;
  readonly priority: number;
  readonly lifecycle: Lifecycle;
  readonly price: number;
  /** The placement group the override names, by name. */
  readonly placementGroup?: string;
}

export function createFleet(
  world: Ec2World,
  params: Params,
  launched: (i: EmuInstance) => void,
): Record<string, XmlValue> {
  if (params.get('Type') !== 'instant')
    throw new Ec2Fault('InvalidParameterValue', 'the emulator only serves Type=instant fleets');
  const token = params.get('ClientToken');
  const fingerprint = JSON.stringify([...params.entries()].filter(([k]) => k !== 'ClientToken').sort());
  if (token) {
    const seen = world.fleets.get(token);
    if (seen && seen.fingerprint !== fingerprint)
      throw new Ec2Fault(
        'IdempotentParameterMismatch',
        `client token ${token} was used for a different request`,
      );
    if (seen) return seen.response as Record<string, XmlValue>;
  }
  const target = structOf(params, 'TargetCapacitySpecification');
  const total = Number(target.get('TotalTargetCapacity') ?? '0');
  const defaultType = target.get('DefaultTargetCapacityType') ?? 'on-demand';
  if (!Number.isInteger(total) || total < 1)
    throw new Ec2Fault(
      'InvalidParameterValue',
      'TargetCapacitySpecification.TotalTargetCapacity must be a positive integer',
    );
  const options = structOf(params, defaultType === 'spot' ? 'SpotOptions' : 'OnDemandOptions');
  const min = world.faults.ignoreMinTargetCapacity ? 0 : Number(options.get('MinTargetCapacity') ?? '0');
  const singleType = options.get('SingleInstanceType') === 'true';
  const singleZone = options.get('SingleAvailabilityZone') === 'true';
  const single = singleType || singleZone;
  if (min > 0 && !single)
    throw new Ec2Fault(
      'InvalidParameterCombination',
      'MinTargetCapacity requires at least one of SingleInstanceType and SingleAvailabilityZone',
    );
  const { candidates: unordered, templateErrors } = candidatesOf(
    world,
    params,
    defaultType === 'spot' ? 'spot' : 'on-demand',
  );
  const candidates = order(unordered, options.get('AllocationStrategy'));
  if (world.faults.emptyFleet) {
    world.faults.emptyFleet = false;
    return { fleetId: world.nextId('fleet'), errorSet: [], fleetInstanceSet: [] };
  }
  const refuseAll = world.faults.refuseOverrides;
  delete world.faults.refuseOverrides;
  const capacity = (c: Candidate): number => (refuseAll ? 0 : capacityOf(world, c));

  const chosen: { c: Candidate; n: number }[] = [];
  const refused: Candidate[] = [];
  if (single) {
    // The fleet's whole capacity counts toward MinTargetCapacity, whichever launch template config an override
    // came from: one group (a type, a zone, or a type in a zone) must hold at least the minimum, filled cheapest
    // (or by priority) first across every config; no config gets a share of its own.
    const groupOf = (c: Candidate): string =>
      `${singleType ? c.instanceType : ''}|${singleZone ? c.zone : ''}`;
    const groups = new Map<string, Candidate[]>();
    for (const c of candidates) groups.set(groupOf(c), [...(groups.get(groupOf(c)) ?? []), c]);
    for (const group of groups.values()) {
      const fill = fillFrom(group, total, capacity);
      if (fill.launched >= Math.max(min, 1)) {
        chosen.push(...fill.chosen);
        refused.push(...fill.refused);
        break;
      }
      refused.push(...group);
    }
  } else {
    const fill = fillFrom(candidates, total, capacity);
    refused.push(...fill.refused);
    if (fill.launched >= min) chosen.push(...fill.chosen);
  }

  const requestTags = tagsFor(params, 'TagSpecification', 'instance');
  const instanceSet = chosen.map(({ c, n }) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const instance = launch(world, c, requestTags, token);
      ids.push(instance.instanceId);
      launched(instance);
    }
    return {
      launchTemplateAndOverrides: ltAndOverrides(c),
      lifecycle: c.lifecycle === 'spot' ? 'spot' : 'on-demand',
      instanceIds: ids,
      instanceType: c.instanceType,
    };
  });
  const errorSet = [
    ...templateErrors,
    ...refused.map((c) => {
      // An override EC2 refused for a reason other than capacity (the injected fault) when it had capacity.
      const other = refuseAll && capacityOf(world, c) > 0 ? refuseAll : undefined;
      return {
        launchTemplateAndOverrides: ltAndOverrides(c),
        lifecycle: c.lifecycle === 'spot' ? 'spot' : 'on-demand',
        errorCode: other?.code ?? world.capacityErrorCode(c.instanceType, c.zone, c.lifecycle),
        errorMessage:
          other?.message ??
          `We currently do not have sufficient ${c.instanceType} capacity in the Availability Zone you requested (${c.zone}).`,
      };
    }),
  ];
  const response = { fleetId: world.nextId('fleet'), errorSet, fleetInstanceSet: instanceSet };
  if (token) world.fleets.set(token, { fingerprint, response });
  return response;
}

/** Candidates in order, each taking what it has until the target is met; the empty ones are refused. */
function fillFrom(
  candidates: readonly Candidate[],
  total: number,
  capacity: (c: Candidate) => number,
): { chosen: { c: Candidate; n: number }[]; refused: Candidate[]; launched: number } {
  const chosen: { c: Candidate; n: number }[] = [];
  const refused: Candidate[] = [];
  let remaining = total;
  for (const c of candidates) {
    if (remaining === 0) break;
    const have = capacity(c);
    if (have <= 0) {
      refused.push(c);
      continue;
    }
    const n = Math.min(have, remaining);
    chosen.push({ c, n });
    remaining -= n;
  }
  return { chosen, refused, launched: total - remaining };
}

/** An instant fleet reports a launch template it cannot find in errorSet, once per config, not as a request error. */
function candidatesOf(
  world: Ec2World,
  params: Params,
  capacityType: 'spot' | 'on-demand',
): { candidates: Candidate[]; templateErrors: XmlValue[] } {
  const out: Candidate[] = [];
  const templateErrors: XmlValue[] = [];
  for (const config of membersOf(params, 'LaunchTemplateConfigs')) {
    const spec = structOf(config, 'LaunchTemplateSpecification');
    const name = spec.get('LaunchTemplateName');
    const id = spec.get('LaunchTemplateId');
    const template = [...world.launchTemplates.values()].find((t) => t.name === name || t.id === id);
    if (!template) {
      templateErrors.push({
        launchTemplateAndOverrides: {
          launchTemplateSpecification: {
            launchTemplateName: name,
            launchTemplateId: id,
            version: spec.get('Version'),
          },
        },
        lifecycle: capacityType,
        errorCode: name ? 'InvalidLaunchTemplateName.NotFoundException' : 'InvalidLaunchTemplateId.NotFound',
        errorMessage: `The specified launch template, with template ${name ? `name ${name}` : `ID ${id ?? ''}`}, does not exist.`,
      });
      continue;
    }
    // EC2 refuses a profile IAM has not propagated to it yet, or that does not exist (README.md, "Instance profiles").
    if (template.instanceProfile && world.instanceProfileUsable?.(template.instanceProfile) === false) {
      for (const o of membersOf(config, 'Overrides'))
        templateErrors.push({
          launchTemplateAndOverrides: {
            launchTemplateSpecification: {
              launchTemplateId: template.id,
              launchTemplateName: template.name,
              version: spec.get('Version'),
            },
            overrides: { instanceType: o.get('InstanceType'), subnetId: o.get('SubnetId') },
          },
          lifecycle: capacityType,
          errorCode: 'InvalidParameterValue',
          errorMessage: `Value (${template.instanceProfile}) for parameter iamInstanceProfile.name is invalid. Invalid IAM Instance Profile name`,
        });
      continue;
    }
    for (const o of membersOf(config, 'Overrides')) {
      const instanceType = o.get('InstanceType') ?? '';
      if (!world.types.has(instanceType))
        throw new Ec2Fault('InvalidParameterValue', `invalid instance type ${instanceType}`);
      const subnetId = o.get('SubnetId') ?? '';
      const subnet = world.subnets.find((s) => s.subnetId === subnetId);
      if (!subnet) throw new Ec2Fault('InvalidSubnetID.NotFound', `subnet ${subnetId} does not exist`);
      const lifecycle: Lifecycle = template.capacityReservationId ? 'reserved' : capacityType;
      const placement = placementOf(world, o);
      if (typeof placement === 'string') {
        templateErrors.push({
          launchTemplateAndOverrides: {
            launchTemplateSpecification: {
              launchTemplateId: template.id,
              launchTemplateName: template.name,
              version: spec.get('Version'),
            },
            overrides: { instanceType, subnetId },
          },
          lifecycle: capacityType,
          errorCode: 'InvalidPlacementGroup.Unknown',
          errorMessage: placement,
        });
        continue;
      }
      out.push({
        ...(placement ? { placementGroup: placement.groupName } : {}),
        template,
        version: spec.get('Version') ?? '$Latest',
        instanceType,
        subnetId,
        zone: subnet.zone,
        priority: Number(o.get('Priority') ?? '0'),
        lifecycle,
        price: world.priceOf(instanceType, lifecycle),
      });
    }
  }
  if (out.length > 60) throw new Ec2Fault('InvalidParameterValue', 'a fleet takes at most 60 overrides');
  return { candidates: out, templateErrors };
}

/**
 * The placement group an override names (`Placement.GroupName` or `Placement.GroupId`), undefined when none, or
 * EC2's message when it names one that does not exist (InvalidPlacementGroup.Unknown).
 */
function placementOf(world: Ec2World, o: Map<string, string>): EmuPlacementGroup | string | undefined {
  const name = o.get('Placement.GroupName');
  const id = o.get('Placement.GroupId');
  if (name === undefined && id === undefined) return undefined;
  const group = [...world.placementGroups.values()].find((g) => g.groupName === name || g.groupId === id);
  return group ?? `The Placement Group '${name ?? id ?? ''}' is unknown.`;
}

function order(cs: Candidate[], strategy: string | undefined): Candidate[] {
  if (strategy === 'prioritized') return [...cs].sort((a, b) => a.priority - b.priority);
  return [...cs].sort((a, b) => a.price - b.price);
}

function capacityOf(world: Ec2World, c: Candidate): number {
  if (c.lifecycle === 'reserved') {
    const r = world.reservations.find((x) => x.id === c.template.capacityReservationId);
    return r && r.instanceType === c.instanceType && r.zone === c.zone ? r.available : 0;
  }
  return world.capacityLeft(c.instanceType, c.zone, c.lifecycle);
}

function launch(
  world: Ec2World,
  c: Candidate,
  requestTags: Record<string, string>,
  token: string | undefined,
): EmuInstance {
  if (c.lifecycle === 'reserved') {
    const r = world.reservations.find((x) => x.id === c.template.capacityReservationId);
    if (r) r.available -= 1;
  } else world.consume(c.instanceType, c.zone, c.lifecycle, 1);
  const instance: EmuInstance = {
    instanceId: world.nextId('i'),
    instanceType: c.instanceType,
    zone: c.zone,
    subnetId: c.subnetId,
    imageId: c.template.imageId ?? '',
    securityGroupIds: c.template.securityGroupIds,
    lifecycle: c.lifecycle,
    ...(c.template.capacityReservationId ? { capacityReservationId: c.template.capacityReservationId } : {}),
    ...(c.placementGroup ? { placementGroup: c.placementGroup } : {}),
    ...(c.template.userData ? { userData: c.template.userData } : {}),
    settings: c.template.settings,
    ...(token ? { clientToken: token } : {}),
    launchTime: world.now(),
    tags: { ...c.template.tags, ...requestTags },
    state: 'pending',
    unseen: world.faults.unseenRequests,
    ...(world.faults.unseenMs !== undefined
      ? { unseenUntil: world.now().getTime() + world.faults.unseenMs }
      : {}),
  };
  world.instances.set(instance.instanceId, instance);
  return instance;
}

function ltAndOverrides(c: Candidate): XmlValue {
  return {
    launchTemplateSpecification: {
      launchTemplateId: c.template.id,
      launchTemplateName: c.template.name,
      version: c.version,
    },
    overrides: { instanceType: c.instanceType, subnetId: c.subnetId, availabilityZone: c.zone },
  };
}
