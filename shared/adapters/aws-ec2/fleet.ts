// Builds the CreateFleet (type instant) request for one claim or one gang and reads its answer:
// overrides cheapest first (at most 60), the allocation strategy per capacity type, refused
// offerings out of errorSet.
import type { CreateFleetCommandInput, CreateFleetCommandOutput, _InstanceType } from '@aws-sdk/client-ec2';
import type { CapacityType } from '../../model/labels.ts';
import type { LaunchOption } from '../../model/launch-options.ts';
import type { UnavailableOffering } from '../../model/unavailable-offering.ts';
import { CAPACITY_CODES } from './errors.ts';

export interface FleetPlan {
  /** One launch template per reservation for `reserved`, one in total otherwise. */
  readonly templates: readonly { readonly name: string; readonly options: readonly LaunchOption[] }[];
  readonly subnetByZone: ReadonlyMap<string, string>;
  readonly capacityType: CapacityType;
  readonly count: number;
  readonly clientToken: string;
  readonly tags: Readonly<Record<string, string>>;
  readonly maxOverrides: number;
  /** The node class's placement group (Karpenter's placementGroupSelector), on every override. */
  readonly placementGroup?: { readonly name?: string | undefined; readonly id?: string | undefined };
}

export function fleetInput(plan: FleetPlan): CreateFleetCommandInput {
  let budget = plan.maxOverrides;
  const pg = plan.placementGroup;
  const placement = pg?.id ? { GroupId: pg.id } : pg?.name ? { GroupName: pg.name } : undefined;
  const configs = plan.templates.map((t) => {
    const overrides = t.options
      .filter((o) => plan.subnetByZone.has(o.zone))
      .slice(0, Math.max(budget, 0))
      .map((o, i) => ({
        InstanceType: o.instanceType as _InstanceType,
        SubnetId: plan.subnetByZone.get(o.zone),
        AvailabilityZone: o.zone,
        Priority: i,
        ...(placement ? { Placement: placement } : {}),
      }));
    budget -= overrides.length;
    return {
      LaunchTemplateSpecification: { LaunchTemplateName: t.name, Version: '$Latest' },
      Overrides: overrides,
    };
  });
  const gang =
    plan.count > 1
      ? { MinTargetCapacity: plan.count, SingleInstanceType: true, SingleAvailabilityZone: true }
      : {};
  const tags = Object.entries(plan.tags).map(([Key, Value]) => ({ Key, Value }));
  return {
    Type: 'instant',
    ClientToken: plan.clientToken,
    LaunchTemplateConfigs: configs.filter((c) => c.Overrides.length > 0),
    TargetCapacitySpecification: {
      TotalTargetCapacity: plan.count,
      DefaultTargetCapacityType: plan.capacityType === 'spot' ? 'spot' : 'on-demand',
    },
    // Karpenter: price-capacity-optimized for spot (fewer interruptions at a near-lowest price), lowest-price for on-demand.
    ...(plan.capacityType === 'spot'
      ? { SpotOptions: { AllocationStrategy: 'price-capacity-optimized', ...gang } }
      : { OnDemandOptions: { AllocationStrategy: 'lowest-price', ...gang } }),
    TagSpecifications: [
      { ResourceType: 'instance', Tags: tags },
      { ResourceType: 'volume', Tags: tags },
    ],
  };
}

export interface FleetOutcome {
  readonly launched: readonly {
    readonly instanceId: string;
    readonly instanceType: string;
    readonly zone: string;
  }[];
  readonly unavailable: readonly UnavailableOffering[];
  /** Errors that are not about capacity (bad parameters, throttling inside the fleet). */
  readonly otherErrors: readonly { readonly code: string; readonly message: string }[];
  /** The fleet EC2 answered with (the same for a client token it has seen). */
  readonly fleetId?: string;
}

export function readFleet(out: CreateFleetCommandOutput, capacityType: CapacityType): FleetOutcome {
  const launched = (out.Instances ?? []).flatMap((set) =>
    (set.InstanceIds ?? []).map((instanceId) => ({
      instanceId,
      instanceType: String(set.InstanceType ?? set.LaunchTemplateAndOverrides?.Overrides?.InstanceType ?? ''),
      zone: set.LaunchTemplateAndOverrides?.Overrides?.AvailabilityZone ?? '',
    })),
  );
  const unavailable = new Map<string, UnavailableOffering>();
  const otherErrors: { code: string; message: string }[] = [];
  for (const e of out.Errors ?? []) {
    const code = e.ErrorCode ?? 'Unknown';
    const o = e.LaunchTemplateAndOverrides?.Overrides;
    if (CAPACITY_CODES.has(code) && o?.InstanceType && o.AvailabilityZone) {
      unavailable.set(`${o.InstanceType}|${o.AvailabilityZone}`, {
        instanceType: String(o.InstanceType),
        zone: o.AvailabilityZone,
        capacityType,
        reason: code,
      });
    } else otherErrors.push({ code, message: e.ErrorMessage ?? '' });
  }
  return {
    launched,
    unavailable: [...unavailable.values()],
    otherErrors,
    ...(out.FleetId ? { fleetId: out.FleetId } : {}),
  };
}
