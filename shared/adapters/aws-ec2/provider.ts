// The EC2 CloudProvider: CreateFleet (instant) launches for claims and gangs, DescribeInstances for
// get/list, TerminateInstances for delete, DescribeInstanceTypes + prices for offerings, drift checks.
import { createHash } from 'node:crypto';
import {
  CreateFleetCommand,
  CreateTagsCommand,
  DescribeInstancesCommand,
  DescribeInstanceTypeOfferingsCommand,
  DescribeInstanceTypesCommand,
  TerminateInstancesCommand,
  type EC2Client,
  type Filter,
  type Instance,
  type InstanceTypeInfo,
} from '@aws-sdk/client-ec2';
import type { PricingClient } from '@aws-sdk/client-pricing';
import type { InstanceTypeCatalog, InstanceTypeSpec } from '../../model/catalog.ts';
import type { NodeClaim } from '../../model/nodeclaim.ts';
import type { EC2NodeClass, NodeClass } from '../../model/nodeclass.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Logger } from '../../ports/logger.ts';
import {
  FatalCloudError,
  InsufficientCapacityError,
  NotFoundError,
  RetryableCloudError,
  claimNodePool,
  launchOptions,
  type CloudInstance,
  type CloudProvider,
  type DriftReason,
  type GangLaunchRequest,
  type GangLaunchResult,
  type LaunchOption,
  type LaunchRequest,
  type LaunchResult,
  type ProviderId,
} from '../../ports/cloud-provider.ts';
import type { Ec2ProviderConfig } from './config.ts';
import { NodeClassResolutionError, classifyCode, toCloudError } from './errors.ts';
import { fleetInput, readFleet, type FleetOutcome } from './fleet.ts';
import {
  TAG_CLUSTER,
  TAG_GANG,
  TAG_NODECLAIM,
  TAG_NODEPOOL,
  clusterOwnedTag,
  instanceIdOf,
  toCloudInstance,
} from './instances.ts';
import { toInstanceTypeSpec } from './instance-types.ts';
import { ensureLaunchTemplate } from './launch-template.ts';
import { readPriceBook } from './pricing.ts';
import { resolveNodeClass, type ResolvedNodeClass } from './resolve.ts';
import { realSleep, withThrottleRetry, type Sleep } from './retry.ts';
import { renderBootstrapScript } from './userdata.ts';

export interface Ec2ProviderDeps {
  readonly ec2: EC2Client;
  readonly config: Ec2ProviderConfig;
  readonly clock: Clock;
  /** The Price List Query API client; without it on-demand prices come from the catalog. */
  readonly pricing?: PricingClient;
  /** Prices of last resort (the built-in catalog). */
  readonly fallbackCatalog?: InstanceTypeCatalog;
  readonly logger?: Logger;
  readonly sleep?: Sleep;
}

interface LaunchPlan {
  readonly claims: readonly NodeClaim[];
  readonly nodeClass: EC2NodeClass;
  readonly options: readonly LaunchOption[];
  readonly token: string;
  readonly tags: Readonly<Record<string, string>>;
}

export class Ec2CloudProvider implements CloudProvider {
  readonly cloud = 'aws' as const;
  constructor(private readonly deps: Ec2ProviderDeps) {}

  async create(request: LaunchRequest): Promise<LaunchResult> {
    const claim = request.claim;
    const name = claim.metadata.name;
    const [existing] = await this.findByTag(TAG_NODECLAIM, name);
    if (existing) return { instance: existing, unavailableOfferings: [] };
    const tags = {
      ...this.baseTags(request.nodeClass, claim),
      [TAG_NODECLAIM]: name,
      Name: `${claimNodePool(claim) ?? 'kraftsman'}/${name}`,
    };
    const plan = {
      claims: [claim],
      nodeClass: this.ec2Class(request.nodeClass),
      options: launchOptions(claim, request.instanceTypes),
      token: this.token('claim', [`${name}/${claim.metadata.uid ?? ''}`]),
      tags,
    };
    const outcome = await this.launch(plan);
    const first = outcome.launched[0];
    if (!first) throw this.failure(`NodeClaim ${name}`, outcome);
    return { instance: this.launchedInstance(first, plan), unavailableOfferings: outcome.unavailable };
  }

  async createGang(request: GangLaunchRequest): Promise<GangLaunchResult> {
    const [first] = request.claims;
    if (!first) throw new FatalCloudError(`gang ${request.gang} has no NodeClaims`);
    const n = request.claims.length;
    const existing = await this.findByTag(TAG_GANG, request.gang);
    if (existing.length === n)
      return { instances: this.matchGang(request, existing), unavailableOfferings: [] };
    if (existing.length > 0) {
      await this.terminate(existing.map((i) => instanceIdOf(i.providerId)));
      throw new RetryableCloudError(
        `gang ${request.gang}: terminated ${existing.length} of ${n} instances left by an earlier attempt`,
      );
    }
    const tags = {
      ...this.baseTags(request.nodeClass, first),
      [TAG_GANG]: request.gang,
      Name: `${claimNodePool(first) ?? 'kraftsman'}/${request.gang}`,
    };
    const plan = {
      claims: request.claims,
      nodeClass: this.ec2Class(request.nodeClass),
      options: launchOptions(first, request.instanceTypes),
      token: this.token('gang', [
        request.gang,
        ...request.claims.map((c) => `${c.metadata.name}/${c.metadata.uid ?? ''}`),
      ]),
      tags,
    };
    const outcome = await this.launch(plan);
    if (outcome.launched.length < n) {
      // All or nothing (DESIGN §4): whatever EC2 launched below MinTargetCapacity is terminated, never kept.
      if (outcome.launched.length > 0) await this.terminate(outcome.launched.map((l) => l.instanceId));
      const why = this.failure(`gang ${request.gang} (${n} instances)`, outcome);
      throw why instanceof InsufficientCapacityError
        ? why
        : new InsufficientCapacityError(
            `gang ${request.gang}: EC2 launched ${outcome.launched.length} of ${n}`,
            outcome.unavailable,
            { cause: why },
          );
    }
    const instances = outcome.launched.map((l, i) => {
      const claim = request.claims[i] as NodeClaim;
      return {
        claim: claim.metadata.name,
        instance: this.launchedInstance(l, plan, { [TAG_NODECLAIM]: claim.metadata.name }),
      };
    });
    for (const x of instances) {
      await this.call('CreateTags', () =>
        this.deps.ec2.send(
          new CreateTagsCommand({
            Resources: [instanceIdOf(x.instance.providerId)],
            Tags: [{ Key: TAG_NODECLAIM, Value: x.claim }],
          }),
        ),
      );
    }
    return { instances, unavailableOfferings: outcome.unavailable };
  }

  async get(id: ProviderId): Promise<CloudInstance> {
    return toCloudInstance(await this.describeLive(id));
  }

  async list(): Promise<readonly CloudInstance[]> {
    return this.describe([{ Name: 'tag-key', Values: [TAG_NODEPOOL] }]);
  }

  async delete(id: ProviderId): Promise<void> {
    await this.describeLive(id);
    await this.terminate([instanceIdOf(id)]);
  }

  async instanceTypes(nodeClass: NodeClass): Promise<readonly InstanceTypeSpec[]> {
    const nc = this.ec2Class(nodeClass);
    const resolved = await this.resolve(nc);
    const infos: InstanceTypeInfo[] = [];
    let token: string | undefined;
    do {
      const page = await this.call('DescribeInstanceTypes', () =>
        this.deps.ec2.send(new DescribeInstanceTypesCommand({ NextToken: token })),
      );
      infos.push(...(page.InstanceTypes ?? []));
      token = page.NextToken;
    } while (token);
    const zonesByType = new Map<string, string[]>();
    const offered = await this.call('DescribeInstanceTypeOfferings', () =>
      this.deps.ec2.send(new DescribeInstanceTypeOfferingsCommand({ LocationType: 'availability-zone' })),
    );
    for (const o of offered.InstanceTypeOfferings ?? [])
      zonesByType.set(String(o.InstanceType), [
        ...(zonesByType.get(String(o.InstanceType)) ?? []),
        o.Location ?? '',
      ]);
    const subnetZones = new Set(resolved.subnets.map((s) => s.zone));
    const names = infos.map((i) => String(i.InstanceType));
    const { book, failures } = await readPriceBook({
      ec2: this.deps.ec2,
      region: this.deps.config.region,
      types: names,
      now: this.deps.clock.now(),
      ...(this.deps.pricing ? { pricing: this.deps.pricing } : {}),
      ...(this.deps.fallbackCatalog ? { fallback: this.deps.fallbackCatalog } : {}),
    });
    if (failures.length > 0)
      this.deps.logger?.warn('EC2 prices fell back to the built-in catalog', { failures });
    return infos
      .map((info) =>
        toInstanceTypeSpec({
          info,
          zones: (zonesByType.get(String(info.InstanceType)) ?? []).filter((z) => subnetZones.has(z)).sort(),
          resolved,
          prices: book,
          ...(nc.spec.kubelet?.maxPods ? { maxPods: nc.spec.kubelet.maxPods } : {}),
        }),
      )
      .filter((t): t is InstanceTypeSpec => t !== undefined);
  }

  async isDrifted(claim: NodeClaim, nodeClass: NodeClass): Promise<DriftReason | undefined> {
    const id = claim.status?.providerID;
    if (!id) return undefined;
    const instance = await this.describeLive(id as ProviderId);
    const resolved = await this.resolve(this.ec2Class(nodeClass));
    if (instance.ImageId !== resolved.imageId) return 'ImageDrift';
    if (!resolved.subnets.some((s) => s.subnetId === instance.SubnetId)) return 'SubnetDrift';
    const groups = (instance.SecurityGroups ?? []).map((g) => g.GroupId ?? '').sort();
    if (groups.join(',') !== [...resolved.securityGroupIds].sort().join(',')) return 'SecurityGroupDrift';
    return undefined;
  }

  // ---- helpers -------------------------------------------------------------------------------------

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

  private async resolve(nc: EC2NodeClass): Promise<ResolvedNodeClass> {
    try {
      return await resolveNodeClass(this.deps.ec2, this.call, nc);
    } catch (err) {
      throw err instanceof NodeClassResolutionError ? new FatalCloudError(err.message, { cause: err }) : err;
    }
  }

  private baseTags(nodeClass: NodeClass, claim: NodeClaim): Record<string, string> {
    const cluster = this.deps.config.clusterName;
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
  private token(kind: string, parts: readonly string[]): string {
    return `kraftsman-${createHash('sha256')
      .update(JSON.stringify([this.deps.config.clusterName, kind, ...parts]))
      .digest('hex')
      .slice(0, 48)}`;
  }

  private async launch(plan: LaunchPlan): Promise<FleetOutcome> {
    const resolved = await this.resolve(plan.nodeClass);
    const subnetByZone = new Map(resolved.subnets.map((s) => [s.zone, s.subnetId]));
    const options = plan.options.filter((o) => subnetByZone.has(o.zone));
    const first = options[0];
    if (!first) return { launched: [], unavailable: [], otherErrors: [] };
    const claim = plan.claims[0] as NodeClaim;
    const spec = plan.nodeClass.spec;
    const userData = renderBootstrapScript({
      cluster: this.deps.config.clusterName,
      claim,
      ...(spec.bootstrap ? { bootstrap: spec.bootstrap } : {}),
      ...(spec.userData ? { userData: spec.userData } : {}),
      ...(spec.kubelet?.maxPods ? { maxPods: spec.kubelet.maxPods } : {}),
    });
    const content = {
      cluster: this.deps.config.clusterName,
      imageId: resolved.imageId,
      securityGroupIds: resolved.securityGroupIds,
      userData,
      tags: this.baseTags(plan.nodeClass, claim),
    };
    // A capacity reservation is named in the launch template, so `reserved` takes one template per reservation.
    const groups =
      first.capacityType === 'reserved'
        ? [...new Set(options.map((o) => o.reservationId ?? ''))].map((r) => ({
            r,
            options: options.filter((o) => o.reservationId === r),
          }))
        : [{ r: '', options }];
    const templates = [];
    for (const g of groups)
      templates.push({
        name: await ensureLaunchTemplate(this.deps.ec2, this.call, {
          ...content,
          ...(g.r ? { capacityReservationId: g.r } : {}),
        }),
        options: g.options,
      });
    const input = fleetInput({
      templates,
      subnetByZone,
      capacityType: first.capacityType,
      count: plan.claims.length,
      clientToken: plan.token,
      tags: plan.tags,
      maxOverrides: this.deps.config.maxOverrides,
    });
    const out = await this.call('CreateFleet', () => this.deps.ec2.send(new CreateFleetCommand(input)));
    return readFleet(out, first.capacityType);
  }

  private failure(what: string, outcome: FleetOutcome): Error {
    const other = outcome.otherErrors[0];
    if (outcome.unavailable.length > 0 || !other)
      return new InsufficientCapacityError(`${what}: no offering had capacity`, outcome.unavailable);
    const message = `${what}: CreateFleet refused with ${other.code}: ${other.message}`;
    return classifyCode(other.code) === 'throttled'
      ? new RetryableCloudError(message)
      : new FatalCloudError(message);
  }

  private launchedInstance(
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

  private matchGang(
    request: GangLaunchRequest,
    existing: readonly CloudInstance[],
  ): GangLaunchResult['instances'] {
    const unclaimed = existing.filter((i) => !i.nodeClaim);
    return request.claims.map((c) => ({
      claim: c.metadata.name,
      instance: existing.find((i) => i.nodeClaim === c.metadata.name) ?? (unclaimed.shift() as CloudInstance),
    }));
  }

  private async findByTag(key: string, value: string): Promise<CloudInstance[]> {
    return this.describe([{ Name: `tag:${key}`, Values: [value] }]);
  }

  private async describe(filters: Filter[]): Promise<CloudInstance[]> {
    const out: CloudInstance[] = [];
    let token: string | undefined;
    const all = [
      { Name: `tag:${TAG_CLUSTER}`, Values: [this.deps.config.clusterName] },
      { Name: 'instance-state-name', Values: ['pending', 'running'] },
      ...filters,
    ];
    do {
      const page = await this.call('DescribeInstances', () =>
        this.deps.ec2.send(new DescribeInstancesCommand({ Filters: all, NextToken: token })),
      );
      for (const r of page.Reservations ?? [])
        for (const i of r.Instances ?? []) out.push(toCloudInstance(i));
      token = page.NextToken;
    } while (token);
    return out;
  }

  private async describeLive(id: ProviderId): Promise<Instance> {
    const instanceId = instanceIdOf(id);
    const page = await this.call('DescribeInstances', () =>
      this.deps.ec2.send(new DescribeInstancesCommand({ InstanceIds: [instanceId] })),
    );
    const found = page.Reservations?.flatMap((r) => r.Instances ?? []).find(
      (i) => i.InstanceId === instanceId,
    );
    if (!found || found.State?.Name === 'terminated' || found.State?.Name === 'shutting-down')
      throw new NotFoundError(`EC2 instance ${instanceId} not found`, id);
    return found;
  }

  private async terminate(ids: readonly string[]): Promise<void> {
    await this.call('TerminateInstances', () =>
      this.deps.ec2.send(new TerminateInstancesCommand({ InstanceIds: [...ids] })),
    );
  }
}
