// One CreateFleet launch for a claim or a gang: the bootstrap user data, launch templates (one per
// capacity reservation for `reserved`), the fleet request, and what its answer means.
import { createHash } from 'node:crypto';
import { CreateFleetCommand, type Instance } from '@aws-sdk/client-ec2';
import type { NodeClaim } from '../../model/nodeclaim.ts';
import type { EC2NodeClass, NodeClass } from '../../model/nodeclass.ts';
import {
  FatalCloudError,
  InsufficientCapacityError,
  RetryableCloudError,
} from '../../ports/cloud-provider/errors.ts';
import { claimNodePool, type LaunchOption } from '../../model/launch-options.ts';
import { type CloudInstance } from '../../ports/cloud-provider/index.ts';
import type { Ec2Context } from './ec2-context.ts';
import { classifyCode } from './errors.ts';
import { fleetInput, readFleet, type FleetOutcome } from './fleet.ts';
import { TAG_CLUSTER, TAG_NODEPOOL, clusterOwnedTag, toCloudInstance } from './instances.ts';
import { ensureLaunchTemplate } from './launch-template.ts';
import { launchSettings } from './launch-settings.ts';
import type { ResolvedNodeClass } from './node-class-resolver.ts';
import { BootstrapError, renderUserData } from '../../provisioning/bootstrap.ts';
import type { JoinToken } from '../../model/join-readiness.ts';
import type { InstanceTypeSpec } from '../../model/catalog.ts';
import { imageFor } from './images.ts';

export interface LaunchPlan {
  readonly claims: readonly NodeClaim[];
  readonly nodeClass: EC2NodeClass;
  readonly options: readonly LaunchOption[];
  readonly token: string;
  readonly tags: Readonly<Record<string, string>>;
  readonly join?: JoinToken;
  /** The instance types the options come from: each picks the newest image it boots (images.ts). */
  readonly instanceTypes?: readonly InstanceTypeSpec[];
}

/** Tags on every instance, volume and template: the node class's own, the cluster's, the pool's. */
export function baseTags(cluster: string, nodeClass: NodeClass, claim: NodeClaim): Record<string, string> {
  const pool = claimNodePool(claim);
  return {
    ...((nodeClass as EC2NodeClass).spec?.tags ?? {}),
    [clusterOwnedTag(cluster)]: 'owned',
    [TAG_CLUSTER]: cluster,
    'karpenter.k8s.aws/ec2nodeclass': nodeClass.metadata.name,
    ...(pool ? { [TAG_NODEPOOL]: pool } : {}),
  };
}

/** A client token per claim (or gang) and its uid, so a recreated claim of the same name launches anew. */
export function clientToken(cluster: string, kind: string, parts: readonly string[]): string {
  const hash = createHash('sha256')
    .update(JSON.stringify([cluster, kind, ...parts]))
    .digest('hex');
  return `kraftsman-${hash.slice(0, 48)}`;
}

/**
 * One CreateFleet. `instanceProfile` is the profile the node runs with (instance-profiles.ts: spec.instanceProfile,
 * or the one kraftsman keeps for spec.role); the provider never launches without one.
 */
export async function launchFleet(
  ctx: Ec2Context,
  resolved: ResolvedNodeClass,
  plan: LaunchPlan,
  instanceProfile: string,
): Promise<FleetOutcome> {
  const subnetByZone = new Map(resolved.subnets.map((s) => [s.zone, s.subnetId]));
  // Each instance type launches the newest image it boots: its architecture, and the NVIDIA or Neuron variant for
  // accelerated types (Karpenter's per-AMI requirements); a type no image fits is left out, as Karpenter filters it.
  const specs = new Map((plan.instanceTypes ?? []).map((t) => [t.name, t]));
  const images = resolved.images ?? [];
  const imageOf = (o: LaunchOption): string | undefined => {
    const spec = specs.get(o.instanceType);
    return spec && images.length > 0 ? imageFor(images, spec)?.id : resolved.imageId;
  };
  const zoned = plan.options.filter((o) => subnetByZone.has(o.zone));
  const options = zoned.filter((o) => imageOf(o) !== undefined);
  const first = options[0];
  if (!first && zoned.length > 0)
    throw new FatalCloudError(
      `NodeClaim ${plan.claims[0]?.metadata.name ?? ''}: no image the node class selects boots ${[...new Set(zoned.map((o) => o.instanceType))].join(', ')} (architecture or accelerator)`,
    );
  // Nothing left to ask EC2 for (every offering unavailable or outside the node class's subnets).
  if (!first)
    throw new InsufficientCapacityError(
      `NodeClaim ${plan.claims[0]?.metadata.name ?? ''}: no available offering in the node class's zones`,
      [],
    );
  const claim = plan.claims[0] as NodeClaim;
  const cluster = ctx.config.clusterName;
  const userData = userDataOf({
    cluster,
    claim,
    nodeClass: plan.nodeClass,
    ...(plan.join ? { join: plan.join } : {}),
  });
  const content = {
    cluster,
    securityGroupIds: resolved.securityGroupIds,
    userData,
    tags: baseTags(cluster, plan.nodeClass, claim),
    instanceProfile,
    settings: launchSettings(plan.nodeClass),
  };
  // One template per image, and per capacity reservation for `reserved` (a reservation is named in the template).
  const groups = new Map<string, { imageId: string; reservation: string; options: LaunchOption[] }>();
  for (const o of options) {
    const imageId = imageOf(o) ?? resolved.imageId;
    const reservation = first.capacityType === 'reserved' ? (o.reservationId ?? '') : '';
    const key = `${imageId}|${reservation}`;
    const g = groups.get(key) ?? { imageId, reservation, options: [] };
    g.options.push(o);
    groups.set(key, g);
  }
  const templates = [];
  for (const g of groups.values()) {
    const name = await ensureLaunchTemplate(ctx.ec2, ctx.call, {
      ...content,
      imageId: g.imageId,
      ...(g.reservation ? { capacityReservationId: g.reservation } : {}),
    });
    templates.push({ name, options: g.options });
  }
  const input = fleetInput({
    templates,
    subnetByZone,
    capacityType: first.capacityType,
    count: plan.claims.length,
    clientToken: plan.token,
    tags: plan.tags,
    maxOverrides: ctx.config.maxOverrides,
    ...(plan.nodeClass.spec.placementGroupSelector
      ? { placementGroup: plan.nodeClass.spec.placementGroupSelector }
      : {}),
  });
  const out = await ctx.call('CreateFleet', () => ctx.ec2.send(new CreateFleetCommand(input)));
  return readFleet(out, first.capacityType);
}

/** The node's user data; a node class that cannot join is refused before any call (it would fail every offering). */
function userDataOf(input: Parameters<typeof renderUserData>[0]): string {
  try {
    return renderUserData(input);
  } catch (err: unknown) {
    if (err instanceof BootstrapError) throw new FatalCloudError(err.message, { cause: err });
    throw err;
  }
}

/**
 * Why a fleet launched nothing. Karpenter's rule (combineFleetErrors): the answer is "insufficient
 * capacity" only when every error is a capacity error. Any other error (UnauthorizedOperation, a
 * launch template EC2 cannot find, a bad parameter) decides, even among capacity errors, so a broken
 * node class is never cached away as a stockout; throttling inside the fleet is retryable. An answer
 * with neither instances nor errors is no answer at all: retryable, and not a lack of capacity.
 */
export function fleetFailure(what: string, outcome: FleetOutcome): Error {
  const kinds = outcome.otherErrors.map((e) => ({ ...e, kind: classifyCode(e.code) }));
  const describe = (errors: readonly { code: string; message: string }[]): string =>
    [...new Set(errors.map((e) => `${e.code}: ${e.message}`))].join('; ');
  const fatal = kinds.filter((e) => e.kind === 'fatal' || e.kind === 'not-found');
  const capacityNote =
    outcome.unavailable.length > 0 ? ` (and ${outcome.unavailable.length} offerings had no capacity)` : '';
  if (fatal.length > 0)
    return new FatalCloudError(`${what}: CreateFleet refused with ${describe(fatal)}${capacityNote}`);
  const throttled = kinds.filter((e) => e.kind === 'throttled');
  if (throttled.length > 0)
    return new RetryableCloudError(`${what}: CreateFleet was throttled: ${describe(throttled)}`);
  if (outcome.unavailable.length > 0 || kinds.length > 0)
    return new InsufficientCapacityError(`${what}: no offering had capacity`, outcome.unavailable);
  return new RetryableCloudError(
    `${what}: CreateFleet answered with neither instances nor errors; not read as a lack of capacity`,
  );
}

/** The instance as the fleet answer describes it (pending), without another DescribeInstances. */
export function launchedInstance(
  l: FleetOutcome['launched'][number],
  plan: LaunchPlan,
  extra: Record<string, string> = {},
): CloudInstance {
  const tags = { ...plan.tags, ...extra };
  const option =
    plan.options.find((o) => o.instanceType === l.instanceType && o.zone === l.zone) ?? plan.options[0];
  return toCloudInstance({
    InstanceId: l.instanceId,
    InstanceType: l.instanceType as Instance['InstanceType'],
    Placement: { AvailabilityZone: l.zone },
    State: { Name: 'pending' },
    InstanceLifecycle: option?.capacityType === 'spot' ? 'spot' : undefined,
    CapacityReservationId: option?.reservationId,
    Tags: Object.entries(tags).map(([Key, Value]) => ({ Key, Value })),
  });
}
