// The EC2 CloudProvider: CreateFleet (instant) launches for claims and gangs, DescribeInstances for
// get/list, TerminateInstances for delete, DescribeInstanceTypes priced by the caller's price lookup (the
// stored price book) for offerings, drift checks. It calls no price API: only the pricing function does
// (price-source.ts), so no other function's role grants one (docs/functions/pricing.md).
import {
  DescribeInstanceTypeOfferingsCommand,
  DescribeInstanceTypesCommand,
  type EC2Client,
  type InstanceTypeInfo,
} from '@aws-sdk/client-ec2';
import type { InstanceTypeSpec } from '../../model/catalog.ts';
import type { NodeClaim } from '../../model/nodeclaim.ts';
import type { EC2NodeClass, NodeClass } from '../../model/nodeclass.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Logger } from '../../ports/logger.ts';
import type { InstanceTypeReadOptions, PriceLookup } from '../../ports/price-store.ts';
import { FatalCloudError, InstanceNotFoundError } from '../../ports/cloud-provider/errors.ts';
import { claimNodePool, launchOptions } from '../../model/launch-options.ts';
import {
  type CloudInstance,
  type CloudProvider,
  type DeleteExpectation,
  type DeploymentSource,
  type DriftReason,
  type GangLaunchRequest,
  type GangLaunchResult,
  type LaunchRequest,
  type LaunchResult,
  type ProviderId,
} from '../../ports/cloud-provider/index.ts';
import type { Ec2ProviderConfig } from '../../config/aws-ec2.ts';
import type { Call, Ec2Context } from './ec2-context.ts';
import { NodeClassResolutionError, toCloudError } from './errors.ts';
import { RecentLaunches, callAfterLaunch } from './consistency.ts';
import { createEc2Gang } from './gang.ts';
import type { FleetOutcome } from './fleet.ts';
import {
  TAG_DEPLOYMENT,
  TAG_GANG,
  TAG_NODECLAIM,
  TAG_NODEPOOL,
  instanceIdOf,
  toCloudInstance,
} from './instances.ts';
import { assertOwned, ownedInstanceId, type Owner } from './ownership.ts';
import { toInstanceTypeSpec } from './instance-types.ts';
import { allPages } from './pages.ts';
import { baseTags, clientToken, fleetFailure, launchedInstance, type LaunchPlan } from './launch.ts';
import {
  describeClusterInstances,
  describeInstance,
  describeLive,
  isGone,
  terminateInstances,
} from './queries.ts';
import { resolveNodeClass, type ResolvedNodeClass } from './node-class-resolver.ts';
import { realSleep, type Sleep } from '../backoff.ts';
import { launchWithProfile } from './profile-launch.ts';
import type { IAMClient } from '@aws-sdk/client-iam';
import type { SSMClient } from '@aws-sdk/client-ssm';
import { imageFor, type ImageSources } from './images.ts';
import { describeEc2NodeClass } from './node-class-status.ts';
import type { NodeClassResolution } from '../../model/nodeclass-status.ts';
import { InstanceProfiles } from './instance-profiles.ts';
import type { InstanceProfileCollector } from '../../ports/instance-profiles.ts';
import { withThrottleRetry } from './retry.ts';

/** How long a node class's status resolution is reused (describeNodeClass). */
export const STATUS_TTL_MS = 5 * 60_000;

export interface Ec2ProviderDeps {
  readonly ec2: EC2Client;
  readonly config: Ec2ProviderConfig;
  readonly clock: Clock;
  /** Prices for an instance-type read that brings none (`options.prices`); without either the read fails. */
  readonly prices?: () => Promise<PriceLookup>;
  readonly logger?: Logger;
  readonly sleep?: Sleep;
  /**
   * This deployment's id (functions/compose reads it once per container from the state store): every launch is
   * tagged with it, list() and delete() act only on instances that carry it. Without it those calls fail.
   */
  readonly deployment?: DeploymentSource;
  /**
   * IAM, for the instance profiles of node classes that name a `role` (instance-profiles.ts). Without it only
   * `spec.instanceProfile` can launch: a node class with a role is refused, never launched without a profile.
   */
  readonly iam?: IAMClient;
  /** SSM, for image aliases (AWS's public parameters, images.ts); without it an alias is refused. */
  readonly ssm?: SSMClient;
}

export class Ec2CloudProvider implements CloudProvider {
  readonly cloud = 'aws' as const;
  private readonly ctx: Ec2Context;
  private readonly recent: RecentLaunches;
  private readonly callAfterLaunch: Call;
  private readonly profiles?: InstanceProfiles;
  private readonly described = new Map<string, { at: number; value: NodeClassResolution }>();
  constructor(private readonly deps: Ec2ProviderDeps) {
    this.ctx = { ec2: deps.ec2, config: deps.config, call: this.call };
    if (deps.iam)
      this.profiles = new InstanceProfiles(
        deps.iam,
        {
          clusterName: deps.config.clusterName,
          region: deps.config.region,
          now: () => deps.clock.now().getTime(),
        },
        this.call,
      );
    this.recent = new RecentLaunches(deps.clock);
    this.callAfterLaunch = callAfterLaunch(deps.config.retry, deps.sleep ?? realSleep);
  }

  /** The managed instance profiles' garbage collector (lifecycle's), when the provider has IAM. */
  get instanceProfiles(): InstanceProfileCollector | undefined {
    return this.profiles;
  }

  async create(request: LaunchRequest): Promise<LaunchResult> {
    const claim = request.claim;
    const name = claim.metadata.name;
    const owner = await this.owner();
    const [existing] = await this.findByTag(owner, TAG_NODECLAIM, name);
    if (existing) return { instance: existing, unavailableOfferings: [] };
    const tags = {
      ...baseTags(this.deps.config.clusterName, request.nodeClass, claim),
      [TAG_DEPLOYMENT]: owner.deployment,
      [TAG_NODECLAIM]: name,
      Name: `${claimNodePool(claim) ?? 'kraftsman'}/${name}`,
    };
    const plan = {
      claims: [claim],
      nodeClass: this.ec2Class(request.nodeClass),
      options: launchOptions(claim, request.instanceTypes),
      token: clientToken(this.deps.config.clusterName, 'claim', [`${name}/${claim.metadata.uid ?? ''}`]),
      tags,
      instanceTypes: request.instanceTypes,
      ...(request.join ? { join: request.join } : {}),
    };
    const outcome = await this.launch(plan);
    const first = outcome.launched[0];
    if (!first) throw fleetFailure(`NodeClaim ${name}`, outcome);
    this.recent.record(outcome.launched.map((l) => l.instanceId));
    return { instance: launchedInstance(first, plan), unavailableOfferings: outcome.unavailable };
  }

  /** One fleet per shape, compensated across shapes (gang.ts, docs/mechanisms/gangs.md#mixed-shapes). */
  async createGang(request: GangLaunchRequest): Promise<GangLaunchResult> {
    const owner = await this.owner();
    return createEc2Gang(
      {
        ctx: this.ctx,
        owner,
        callAfterLaunch: this.callAfterLaunch,
        ec2Class: (nc) => this.ec2Class(nc),
        findGang: (gang) => this.findByTag(owner, TAG_GANG, gang),
        launch: (plan) => this.launch(plan),
        launched: (ids) => this.recent.record(ids),
      },
      request,
    );
  }

  async get(id: ProviderId): Promise<CloudInstance> {
    return toCloudInstance(await describeLive(this.ctxFor(id), id));
  }

  async list(): Promise<readonly CloudInstance[]> {
    const owner = await this.owner();
    return describeClusterInstances(this.ctx, owner.deployment, [
      { Name: 'tag-key', Values: [TAG_NODEPOOL] },
    ]);
  }

  /**
   * Identity first, then liveness (docs/mechanisms/identity.md#instances): the IAM tag condition alone would let
   * another deployment's instance of this cluster go, so the tags are checked here too.
   */
  async delete(id: ProviderId, expect?: DeleteExpectation): Promise<void> {
    const owner = await this.owner();
    const instanceId = ownedInstanceId(id);
    // EC2 may not list yet an instance another container launched a moment ago, and a delete cannot tell that
    // from one long gone: it retries InvalidInstanceID.NotFound with the shared backoff before taking the instance
    // for gone (docs/mechanisms/identity.md#instances). A terminated instance stays listed for about an hour, so a
    // real NotFound here is rare and the retries cheap; what still lags past them is garbage collection's.
    const { instance, ownerId } = await describeInstance({ ...this.ctx, call: this.callAfterLaunch }, id);
    assertOwned(id, instance, ownerId, owner, expect);
    if (isGone(instance)) throw new InstanceNotFoundError(`EC2 instance ${instanceId} is terminating`, id);
    await terminateInstances(this.ctx, [instanceId]);
  }

  /** Priced by `options.prices` (the stored price book, shared/loop/prices.ts), else by the provider's own. */
  async instanceTypes(
    nodeClass: NodeClass,
    options: InstanceTypeReadOptions = {},
  ): Promise<readonly InstanceTypeSpec[]> {
    const nc = this.ec2Class(nodeClass);
    const read = options.prices ?? this.deps.prices;
    if (!read)
      throw new FatalCloudError(
        `EC2 instance types of ${nc.metadata.name}: no prices to read them with (pass the stored price book)`,
      );
    const resolved = await this.resolve(nc);
    const infos: InstanceTypeInfo[] = await allPages(
      this.call,
      'DescribeInstanceTypes',
      (NextToken) => this.deps.ec2.send(new DescribeInstanceTypesCommand({ NextToken })),
      (p) => p.InstanceTypes,
    );
    const zonesByType = new Map<string, string[]>();
    const offered = await allPages(
      this.call,
      'DescribeInstanceTypeOfferings',
      (NextToken) =>
        this.deps.ec2.send(
          new DescribeInstanceTypeOfferingsCommand({ LocationType: 'availability-zone', NextToken }),
        ),
      (p) => p.InstanceTypeOfferings,
    );
    for (const o of offered)
      zonesByType.set(String(o.InstanceType), [
        ...(zonesByType.get(String(o.InstanceType)) ?? []),
        o.Location ?? '',
      ]);
    const subnetZones = new Set(resolved.subnets.map((s) => s.zone));
    const book = await read();
    const images = resolved.images ?? [];
    return (
      infos
        .map((info) =>
          toInstanceTypeSpec({
            info,
            zones: (zonesByType.get(String(info.InstanceType)) ?? [])
              .filter((z) => subnetZones.has(z))
              .sort(),
            resolved,
            prices: book,
            ...(nc.spec.kubelet?.maxPods ? { maxPods: nc.spec.kubelet.maxPods } : {}),
          }),
        )
        .filter((t): t is InstanceTypeSpec => t !== undefined)
        // Karpenter offers only instance types some image of the node class boots (architecture, accelerators).
        .filter((t) => images.length === 0 || imageFor(images, t) !== undefined)
    );
  }

  async isDrifted(claim: NodeClaim, nodeClass: NodeClass): Promise<DriftReason | undefined> {
    const id = claim.status?.providerID;
    if (!id) return undefined;
    const instance = await describeLive(this.ctxFor(id as ProviderId), id as ProviderId);
    const resolved = await this.resolve(this.ec2Class(nodeClass));
    // Karpenter: drifted when the instance's image is none of those the node class resolves to now.
    const images = resolved.images?.map((i) => i.id) ?? [resolved.imageId];
    if (!images.includes(instance.ImageId ?? '')) return 'ImageDrift';
    if (!resolved.subnets.some((s) => s.subnetId === instance.SubnetId)) return 'SubnetDrift';
    const groups = (instance.SecurityGroups ?? []).map((g) => g.GroupId ?? '').sort();
    if (groups.join(',') !== [...resolved.securityGroupIds].sort().join(',')) return 'SecurityGroupDrift';
    return undefined;
  }

  /**
   * The node class's resolution for its status, re-read at most every STATUS_TTL_MS per node class spec
   * (Karpenter's node-class controller re-reads AMIs and security groups every 5 minutes, subnets every minute):
   * lifecycle asks each minute, and a Describe per class per minute would be spent on a status nobody acts on.
   */
  async describeNodeClass(nodeClass: NodeClass): Promise<NodeClassResolution> {
    const nc = this.ec2Class(nodeClass);
    const key = `${nc.metadata.name}/${nc.metadata.uid ?? ''}/${JSON.stringify(nc.spec)}`;
    const now = this.deps.clock.now().getTime();
    const hit = this.described.get(key);
    if (hit && now - hit.at < STATUS_TTL_MS) return hit.value;
    const value = await describeEc2NodeClass(this.deps.ec2, this.call, nc, {
      clusterName: this.deps.config.clusterName,
      region: this.deps.config.region,
      sources: this.imageSources(),
      makesProfiles: this.profiles !== undefined,
    });
    for (const k of this.described.keys()) if (k.startsWith(`${nc.metadata.name}/`)) this.described.delete(k);
    this.described.set(key, { at: now, value });
    return value;
  }

  // ---- helpers -------------------------------------------------------------------------------------

  /** The context for a call about one instance: one this container just launched is retried while EC2 catches up. */
  private ctxFor(id: ProviderId): Ec2Context {
    return this.recent.isFresh(instanceIdOf(id)) ? { ...this.ctx, call: this.callAfterLaunch } : this.ctx;
  }

  private async owner(): Promise<Owner> {
    if (!this.deps.deployment)
      throw new FatalCloudError(
        'the EC2 provider has no deployment id: it cannot tag launches or prove instances are its own',
      );
    const { clusterName, accountId } = this.deps.config;
    return {
      cluster: clusterName,
      deployment: await this.deps.deployment(),
      ...(accountId ? { accountId } : {}),
    };
  }

  private readonly call = async <T>(what: string, op: () => Promise<T>): Promise<T> => {
    try {
      return await withThrottleRetry(op, this.deps.config.retry, this.deps.sleep ?? realSleep);
    } catch (err) {
      throw toCloudError(err, what);
    }
  };

  private ec2Class(nodeClass: NodeClass): EC2NodeClass {
    if (nodeClass.kind !== 'EC2NodeClass')
      throw new FatalCloudError(
        `the EC2 provider cannot launch a ${nodeClass.kind} (${nodeClass.metadata.name})`,
      );
    return nodeClass as EC2NodeClass;
  }

  private imageSources(): ImageSources {
    return {
      ...(this.deps.ssm ? { ssm: this.deps.ssm } : {}),
      ...(this.deps.config.kubernetesVersion
        ? { kubernetesVersion: this.deps.config.kubernetesVersion }
        : {}),
    };
  }

  private async resolve(nc: EC2NodeClass): Promise<ResolvedNodeClass> {
    try {
      return await resolveNodeClass(this.deps.ec2, this.call, nc, this.imageSources());
    } catch (err) {
      throw err instanceof NodeClassResolutionError ? new FatalCloudError(err.message, { cause: err }) : err;
    }
  }

  private async findByTag(owner: Owner, key: string, value: string): Promise<CloudInstance[]> {
    return describeClusterInstances(this.ctx, owner.deployment, [{ Name: `tag:${key}`, Values: [value] }]);
  }

  /** Resolves the node class, then launches with its instance profile (profile-launch.ts). */
  private async launch(plan: LaunchPlan): Promise<FleetOutcome> {
    const resolved = await this.resolve(plan.nodeClass);
    return launchWithProfile(
      {
        ctx: this.ctx,
        sleep: this.deps.sleep ?? realSleep,
        ...(this.profiles ? { profiles: this.profiles } : {}),
        ...(this.deps.logger ? { logger: this.deps.logger } : {}),
      },
      resolved,
      plan,
    );
  }
}
