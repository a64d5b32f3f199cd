// A gang on EC2 (docs/mechanisms/gangs.md#mixed-shapes): one CreateFleet (instant) per shape, each with
// MinTargetCapacity over that shape's members in one type and one zone, and compensation across the fleets:
// when any shape falls short, every instance the earlier shapes launched is terminated. One fleet cannot carry
// a mixed gang: MinTargetCapacity counts the fleet's whole capacity, whichever launch template config filled it,
// and needs SingleInstanceType or SingleAvailabilityZone (EC2 API reference, OnDemandOptionsRequest), so a CPU
// master and GPU workers in one fleet could come back as nine CPU hosts.
import { CreateTagsCommand } from '@aws-sdk/client-ec2';
import type { NodeClaim } from '../../model/nodeclaim.ts';
import type { EC2NodeClass } from '../../model/nodeclass.ts';
import { claimNodePool, launchOptions } from '../../model/launch-options.ts';
import { claimName } from '../../model/names.ts';
import type { UnavailableOffering } from '../../model/unavailable-offering.ts';
import {
  FatalCloudError,
  InsufficientCapacityError,
  RetryableCloudError,
} from '../../ports/cloud-provider/errors.ts';
import {
  gangShapes,
  preferZones,
  type CloudInstance,
  type GangLaunchRequest,
  type GangLaunchResult,
  type GangShape,
} from '../../ports/cloud-provider/index.ts';
import type { Call, Ec2Context } from './ec2-context.ts';
import type { FleetOutcome } from './fleet.ts';
import { TAG_DEPLOYMENT, TAG_GANG, TAG_NODECLAIM, instanceIdOf } from './instances.ts';
import { baseTags, clientToken, fleetFailure, launchedInstance, type LaunchPlan } from './launch.ts';
import type { Owner } from './ownership.ts';
import { goneAmong, terminateInstances } from './queries.ts';

/** Which shape of its gang an instance was launched for: a retry matches untagged members by it. */
export const TAG_GANG_SHAPE = 'kraftsman.dev/gang-shape';
/** How many dead fleets in a row a shape's launch steps past before it gives up (each one a cleaned-up attempt). */
const STALE_TOKEN_RETRIES = 3;

export interface Ec2GangDeps {
  readonly ctx: Ec2Context;
  readonly owner: Owner;
  /** Calls on instances launched a moment ago (EC2 may not see them yet). */
  readonly callAfterLaunch: Call;
  readonly ec2Class: (nc: GangShape['nodeClass']) => EC2NodeClass;
  readonly findGang: (gang: string) => Promise<CloudInstance[]>;
  readonly launch: (plan: LaunchPlan) => Promise<FleetOutcome>;
  readonly launched: (instanceIds: readonly string[]) => void;
}

export async function createEc2Gang(
  deps: Ec2GangDeps,
  request: GangLaunchRequest,
): Promise<GangLaunchResult> {
  const n = request.members.length;
  if (n === 0) throw new FatalCloudError(`gang ${request.gang} has no NodeClaims`);
  const shapes = gangShapes(request);
  const existing = await deps.findGang(request.gang);
  if (existing.length === n)
    return { instances: matchGang(request, shapes, existing), unavailableOfferings: [] };
  if (existing.length > 0) {
    await terminateInstances(
      deps.ctx,
      existing.map((i) => instanceIdOf(i.providerId)),
    );
    throw new RetryableCloudError(
      `gang ${request.gang}: terminated ${existing.length} of ${n} instances left by an earlier attempt`,
    );
  }
  const done: { shape: GangShape; plan: LaunchPlan; outcome: FleetOutcome }[] = [];
  const refused: UnavailableOffering[] = [];
  const zones = new Set<string>();
  for (const shape of shapes) {
    let plan = shapePlan(deps, request, shape, zones);
    let outcome: FleetOutcome;
    try {
      outcome = await deps.launch(plan);
      // EC2 answers a client token it has seen with that fleet's instances, whatever became of them: after an
      // earlier attempt's instances were terminated (the cleanup above, or a rollback), the same token would hand
      // the dead fleet back as a launch. Ask again under a token salted with the dead instances' ids — the same
      // dead fleet gives the same new token, so a retry of this call stays idempotent. Each crash and cleanup of
      // the same claims adds one dead fleet to the chain; past the limit the launch fails (retryable) rather than
      // hand back the last dead fleet as a launch, and the claims' replacements start a chain of their own.
      for (let stale = 0; ; stale++) {
        const dead = await goneAmong(
          deps.ctx,
          outcome.launched.map((l) => l.instanceId),
        );
        if (dead.length === 0) break;
        if (stale === STALE_TOKEN_RETRIES)
          throw new RetryableCloudError(
            `gang ${request.gang}, shape ${shape.index + 1}: EC2 answered ${stale + 1} client tokens in a row with a terminated fleet`,
          );
        plan = {
          ...plan,
          token: clientToken(deps.ctx.config.clusterName, 'gang-relaunch', [plan.token, ...dead.sort()]),
        };
        outcome = await deps.launch(plan);
      }
    } catch (err) {
      await compensate(deps, done);
      throw withRefusals(err, refused);
    }
    refused.push(...outcome.unavailable);
    done.push({ shape, plan, outcome });
    const want = shape.claims.length;
    if (outcome.launched.length < want) {
      // All or nothing: this shape came up short, so every shape's instances go, never kept.
      await compensate(deps, done);
      throw shortfall(request.gang, shape, outcome, refused);
    }
    for (const l of outcome.launched) zones.add(l.zone);
  }
  deps.launched(done.flatMap((d) => d.outcome.launched.map((l) => l.instanceId)));
  const byClaim = new Map<string, CloudInstance>();
  for (const { shape, plan, outcome } of done)
    shape.claims.forEach((claim, i) => {
      const l = outcome.launched[i] as FleetOutcome['launched'][number];
      byClaim.set(claim.metadata.name, launchedInstance(l, plan, { [TAG_NODECLAIM]: claim.metadata.name }));
    });
  const instances = request.members.map((m) => ({
    claim: claimName(m.claim),
    instance: byClaim.get(m.claim.metadata.name) as CloudInstance,
  }));
  for (const x of instances)
    // Right after CreateFleet the new instance may not be visible yet (EC2 is eventually consistent).
    await deps.callAfterLaunch('CreateTags', () =>
      deps.ctx.ec2.send(
        new CreateTagsCommand({
          Resources: [instanceIdOf(x.instance.providerId)],
          Tags: [{ Key: TAG_NODECLAIM, Value: x.claim }],
        }),
      ),
    );
  return { instances, unavailableOfferings: refused };
}

function shapePlan(
  deps: Ec2GangDeps,
  request: GangLaunchRequest,
  shape: GangShape,
  zones: ReadonlySet<string>,
): LaunchPlan {
  const first = shape.claims[0] as NodeClaim;
  const cluster = deps.ctx.config.clusterName;
  return {
    claims: shape.claims,
    nodeClass: deps.ec2Class(shape.nodeClass),
    options: preferZones(launchOptions(first, shape.instanceTypes), zones),
    instanceTypes: shape.instanceTypes,
    token: clientToken(cluster, 'gang', [
      request.gang,
      String(shape.index),
      ...shape.claims.map((c) => `${c.metadata.name}/${c.metadata.uid ?? ''}`),
    ]),
    tags: {
      ...baseTags(cluster, shape.nodeClass, first),
      [TAG_DEPLOYMENT]: deps.owner.deployment,
      [TAG_GANG]: request.gang,
      [TAG_GANG_SHAPE]: String(shape.index),
      Name: `${claimNodePool(first) ?? 'kraftsman'}/${request.gang}`,
    },
    ...(request.join ? { join: request.join } : {}),
  };
}

async function compensate(deps: Ec2GangDeps, done: readonly { outcome: FleetOutcome }[]): Promise<void> {
  const ids = done.flatMap((d) => d.outcome.launched.map((l) => l.instanceId));
  if (ids.length > 0) await terminateInstances(deps.ctx, ids);
}

/** Why a shape came up short. Only a short fleet without other errors reads as a lack of capacity. */
function shortfall(
  gang: string,
  shape: GangShape,
  outcome: FleetOutcome,
  refused: readonly UnavailableOffering[],
): Error {
  const want = shape.claims.length;
  const what = `gang ${gang}, shape ${shape.index + 1} (${want} × NodePool ${claimNodePool(shape.claims[0] as NodeClaim) ?? '?'})`;
  const why = fleetFailure(what, outcome);
  if (why instanceof InsufficientCapacityError) return new InsufficientCapacityError(why.message, refused);
  if (outcome.launched.length === 0 || outcome.otherErrors.length > 0) return why;
  return new InsufficientCapacityError(
    `${what}: EC2 launched ${outcome.launched.length} of ${want}`,
    refused,
    {
      cause: why,
    },
  );
}

/** A later shape's own refusal, carrying the offerings the earlier shapes' fleets were refused too (its cause). */
function withRefusals(err: unknown, refused: readonly UnavailableOffering[]): unknown {
  if (!(err instanceof InsufficientCapacityError)) return err;
  return new InsufficientCapacityError(err.message, [...refused, ...err.offerings], { cause: err });
}

/** A retry finds the whole gang: each claim its tagged instance, the untagged ones by shape. */
function matchGang(
  request: GangLaunchRequest,
  shapes: readonly GangShape[],
  existing: readonly CloudInstance[],
): GangLaunchResult['instances'] {
  const shapeOf = new Map<string, string>();
  for (const s of shapes) for (const c of s.claims) shapeOf.set(c.metadata.name, String(s.index));
  const unclaimed = existing.filter((i) => !i.nodeClaim);
  /** The first untagged instance launched for `shape` (or without a shape tag), taken off the list. */
  const takeUnclaimed = (shape: string | undefined): CloudInstance | undefined => {
    const i = unclaimed.findIndex((x) => (x.tags[TAG_GANG_SHAPE] ?? shape) === shape);
    return i >= 0 ? unclaimed.splice(i, 1)[0] : undefined;
  };
  return request.members.map(({ claim }) => {
    const name = claim.metadata.name;
    const instance = existing.find((i) => i.nodeClaim === name) ?? takeUnclaimed(shapeOf.get(name));
    if (!instance)
      throw new RetryableCloudError(`gang ${request.gang}: no instance found for NodeClaim ${name}`);
    return { claim: claimName(claim), instance };
  });
}
