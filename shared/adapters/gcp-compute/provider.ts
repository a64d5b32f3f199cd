// The Compute Engine CloudProvider: instances.insert per claim (cheapest offering first, stockouts
// recorded and skipped), bulkInsert with minCount for gangs, get/aggregatedList/delete, machine types.
import type { protos } from '@google-cloud/compute';
import type { InstanceTypeCatalog, InstanceTypeSpec } from '../../model/catalog.ts';
import type { NodeClaim } from '../../model/nodeclaim.ts';
import type { GCENodeClass, NodeClass } from '../../model/nodeclass.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Logger } from '../../ports/logger.ts';
import {
  FatalCloudError,
  InstanceNotFoundError,
  InsufficientCapacityError,
} from '../../ports/cloud-provider/errors.ts';
import { launchOptions, type LaunchOption } from '../../model/launch-options.ts';
import {
  type CloudInstance,
  type CloudProvider,
  type DeleteExpectation,
  type DeploymentSource,
  type DriftReason,
  type GangLaunchRequest,
  type InterruptionSignal,
  type GangLaunchResult,
  type LaunchRequest,
  type LaunchResult,
  type ProviderId,
} from '../../ports/cloud-provider/index.ts';
import { type UnavailableOffering } from '../../model/unavailable-offering.ts';
import type { ComputeClients } from './clients.ts';
import type { GceProviderConfig } from '../../config/gcp-compute.ts';
import type { GceContext } from './gce-context.ts';
import { toCloudError } from './errors.ts';
import {
  LABEL_DEPLOYMENT,
  LABEL_GANG,
  instanceName,
  labelValue,
  metadataItem,
  META_IMAGE,
  parseGceProviderId,
  toCloudInstance,
} from './instances.ts';
import { HOST_MAINTENANCE_FILTER, PREEMPTION_FILTER, gceInterruptionSignals } from './interruption.ts';
import type { GcePriceBook, TypeShape } from './machine-types.ts';
import type { InstanceTypeReadOptions } from '../../ports/price-store.ts';
import { readInstanceTypes } from './offerings.ts';
import { launchAttempt } from './launch.ts';
import { createGceGang } from './gang.ts';
import {
  deleteInstance,
  getRawInstance,
  isGone,
  listClusterInstances,
  readInstance,
  requestId,
} from './queries.ts';
import { assertOwned, ownedLocation, type Owner } from './ownership.ts';
import { existingClaimInstance } from './claim-instance.ts';
import { InvalidLabelError, instanceBody } from './instance-body.ts';
import { currentImage, launchImage, statusImages } from './images.ts';
import { BootstrapError } from '../../provisioning/bootstrap.ts';
import type { JoinToken } from '../../model/join-readiness.ts';
import { realSleep, type Sleep } from '../backoff.ts';
import { withThrottleRetry } from './retry.ts';
import {
  resolved,
  unresolved,
  type NodeClassResolution,
  type Resolved,
  type StatusGceImage,
} from '../../model/nodeclass-status.ts';
import { claimName } from '../../model/names.ts';

type Instance = protos.google.cloud.compute.v1.IInstance;

export interface GceProviderDeps {
  readonly clients: ComputeClients;
  readonly config: GceProviderConfig;
  readonly clock: Clock;
  /**
   * Prices for an instance-type read that brings none (`options.prices`), layered over `fallbackCatalog`: tests
   * and local tools (the billing catalog, billing.ts); every function hands in the stored book instead.
   */
  readonly readPrices?: (shapes: readonly TypeShape[]) => Promise<GcePriceBook>;
  readonly fallbackCatalog?: InstanceTypeCatalog;
  readonly logger?: Logger;
  readonly sleep?: Sleep;
  /**
   * This deployment's id (functions/compose reads it once per container from the state store): every launch is
   * labelled with it, list() and delete() act only on instances that carry it. Without it those calls fail.
   */
  readonly deployment?: DeploymentSource;
}

export class GceCloudProvider implements CloudProvider {
  readonly cloud = 'gcp' as const;
  private readonly ctx: GceContext;
  constructor(private readonly deps: GceProviderDeps) {
    this.ctx = {
      clients: deps.clients,
      config: deps.config,
      clock: deps.clock,
      sleep: deps.sleep ?? realSleep,
      call: <T>(what: string, op: () => Promise<T>) => this.call(what, op),
    };
  }

  private get project(): string {
    return this.deps.config.project;
  }

  async create(request: LaunchRequest): Promise<LaunchResult> {
    const { claim } = request;
    const nc = this.gceClass(request.nodeClass);
    const owner = await this.owner();
    const name = instanceName(claim.metadata.name);
    // One instance per claim across zones: read its name in every zone (strongly consistent, unlike the
    // aggregated list) and adopt what an earlier delivery launched; a zone whose name is taken is not tried.
    const existing = await existingClaimInstance(this.ctx, owner, claimName(claim), name);
    if (existing.ours) return { instance: existing.ours, unavailableOfferings: [] };
    const refused: UnavailableOffering[] = [];
    const options = this.options(claim, request.instanceTypes).filter((o) => !existing.taken.has(o.zone));
    for (const option of options) {
      const body = {
        ...this.body(nc, claim, option, true, owner, {}, request.join, request.instanceTypes),
        name,
      };
      const id = requestId([
        this.deps.config.clusterName,
        claim.metadata.name,
        claim.metadata.uid ?? '',
        option.instanceType,
        option.zone,
        option.capacityType,
      ]);
      const outcome = await launchAttempt(
        this.ctx,
        option,
        () =>
          this.deps.clients.instances.insert({
            project: this.project,
            zone: option.zone,
            requestId: id,
            instanceResource: body,
          }),
        true,
      );
      if (outcome !== 'launched') {
        refused.push(outcome);
        continue;
      }
      const raw = await getRawInstance(this.ctx, option.zone, name);
      // `alreadyExists` counts as launched: the instance under that name must be this claim's, of this deployment.
      assertOwned(`gce://${this.project}/${option.zone}/${name}`, raw, owner, {
        nodeClaim: claimName(claim),
      });
      return { instance: toCloudInstance(this.project, raw), unavailableOfferings: refused };
    }
    throw new InsufficientCapacityError(
      `NodeClaim ${claim.metadata.name}: no offering had capacity`,
      refused,
    );
  }

  /** One bulkInsert per shape, rolled back across shapes (gang.ts, docs/mechanisms/gangs.md#mixed-shapes). */
  async createGang(request: GangLaunchRequest): Promise<GangLaunchResult> {
    const owner = await this.owner();
    return createGceGang(
      {
        ctx: this.ctx,
        gceClass: (nc) => this.gceClass(nc),
        body: (nc, claim, option, labels, types) =>
          this.body(nc, claim, option, false, owner, labels, request.join, types),
        options: (claim, types) => this.options(claim, types),
        findGang: (label) => this.findByLabel(LABEL_GANG, label),
      },
      request,
    );
  }

  /** Another project's providerID is refused (OwnershipError), never read under this project's name. */
  async get(id: ProviderId): Promise<CloudInstance> {
    const { zone, name } = ownedLocation(this.project, id);
    return this.getIn(zone, name);
  }

  async list(): Promise<readonly CloudInstance[]> {
    return listClusterInstances(this.ctx, (await this.owner()).deployment);
  }

  /** Identity first (docs/mechanisms/identity.md#instances), then liveness: a foreign instance is never "gone". */
  async delete(id: ProviderId, expect?: DeleteExpectation): Promise<void> {
    const owner = await this.owner();
    const { zone, name } = ownedLocation(this.project, id);
    const raw = await readInstance(this.ctx, zone, name);
    assertOwned(id, raw, owner, expect);
    if (isGone(raw))
      throw new InstanceNotFoundError(`Compute Engine instance ${zone}/${name} is terminating`, id);
    await deleteInstance(this.ctx, zone, name, ['delete', id]);
  }

  /** Priced by `options.prices` (the stored price book, shared/loop/prices.ts), else by the provider's own. */
  async instanceTypes(
    nodeClass: NodeClass,
    options: InstanceTypeReadOptions = {},
  ): Promise<readonly InstanceTypeSpec[]> {
    const nc = this.gceClass(nodeClass);
    const stored = options.prices;
    if (!stored && !this.deps.readPrices && !this.deps.fallbackCatalog)
      throw new FatalCloudError(
        `Compute Engine instance types of ${nc.metadata.name}: no prices to read them with (pass the stored price book)`,
      );
    return readInstanceTypes(this.ctx, nc, stored ? { ...this.deps, readPrices: () => stored() } : this.deps);
  }

  async isDrifted(claim: NodeClaim, nodeClass: NodeClass): Promise<DriftReason | undefined> {
    const id = claim.status?.providerID;
    if (!id) return undefined;
    const nc = this.gceClass(nodeClass);
    const { zone, name } = parseGceProviderId(id);
    const instance = await getRawInstance(this.ctx, zone, name);
    // Drifted when the instance's image is not the one its machine type would boot now (its architecture and
    // GPUs decide the family: docs/mechanisms/images.md#drift).
    if (metadataItem(instance, META_IMAGE) !== currentImage(nc, instance)) return 'ImageDrift';
    const subnet = instance.networkInterfaces?.[0]?.subnetwork ?? undefined;
    if (nc.spec.subnetwork && !(subnet ?? '').endsWith(nc.spec.subnetwork)) return 'NetworkDrift';
    return undefined;
  }

  /**
   * The node class's status resolution: the image each kind of machine boots (architecture × NVIDIA GPUs or none,
   * resolved as launches resolve it), its subnetwork and service account come from its spec, so no Compute Engine
   * call is made; an image kraftsman cannot name is ImagesReady=False.
   */
  describeNodeClass(nodeClass: NodeClass): Promise<NodeClassResolution> {
    const nc = this.gceClass(nodeClass);
    let images: Resolved<readonly StatusGceImage[]>;
    try {
      images = resolved(statusImages(nc));
    } catch (err) {
      images = unresolved('ImageNotFound', err instanceof Error ? err.message : String(err));
    }
    return Promise.resolve({
      kind: 'GCENodeClass',
      images,
      ...(nc.spec.subnetwork ? { subnetwork: nc.spec.subnetwork } : {}),
      ...(nc.spec.serviceAccount ? { serviceAccount: nc.spec.serviceAccount } : {}),
    });
  }

  /** Preemptions and host-maintenance terminations since `since`, from the zonal operations of every zone. */
  async interruptions(since: Date): Promise<{ signals: InterruptionSignal[]; skipped: number }> {
    const ops: unknown[] = [];
    for (const zone of this.deps.config.zones) {
      for (const filter of [PREEMPTION_FILTER, HOST_MAINTENANCE_FILTER]) {
        const [found] = await this.call('zoneOperations.list', () =>
          this.deps.clients.operations.list({ project: this.project, zone, filter }),
        );
        ops.push(...found);
      }
    }
    return gceInterruptionSignals(ops, since);
  }

  // ---- helpers -------------------------------------------------------------------------------------

  private async call<T>(what: string, op: () => Promise<T>): Promise<T> {
    try {
      return await withThrottleRetry(op, this.deps.config.retry, this.deps.sleep ?? realSleep);
    } catch (err) {
      throw toCloudError(err, what);
    }
  }

  private async owner(): Promise<Owner> {
    if (!this.deps.deployment)
      throw new FatalCloudError(
        'the Compute Engine provider has no deployment id: it cannot label launches or prove instances are its own',
      );
    return { cluster: this.deps.config.clusterName, deployment: await this.deps.deployment() };
  }

  private gceClass(nodeClass: NodeClass): GCENodeClass {
    if (nodeClass.kind !== 'GCENodeClass')
      throw new FatalCloudError(
        `the Compute Engine provider cannot launch a ${nodeClass.kind} (${nodeClass.metadata.name})`,
      );
    return nodeClass as GCENodeClass;
  }

  private body(
    nc: GCENodeClass,
    claim: NodeClaim,
    option: LaunchOption,
    claimMetadata: boolean,
    owner: Owner,
    extraLabels: Record<string, string>,
    join: JoinToken | undefined,
    types: readonly InstanceTypeSpec[],
  ): Instance {
    const image = launchImage(nc, option.instanceType, types);
    try {
      return instanceBody({
        cluster: this.deps.config.clusterName,
        project: this.project,
        zone: option.zone,
        option,
        claim,
        nodeClass: nc,
        image,
        extraLabels: { ...extraLabels, [LABEL_DEPLOYMENT]: labelValue(owner.deployment) },
        claimMetadata,
        deploymentTag: this.deps.config.deploymentTag,
        join,
      });
    } catch (err) {
      // Labels the API would refuse with 400, or no join: the node class is wrong as written, for every offering.
      if (err instanceof InvalidLabelError || err instanceof BootstrapError)
        throw new FatalCloudError(err.message, { cause: err });
      throw err;
    }
  }

  private options(claim: NodeClaim, types: readonly InstanceTypeSpec[]): LaunchOption[] {
    return launchOptions(claim, types)
      .filter((o) => this.deps.config.zones.includes(o.zone))
      .slice(0, this.deps.config.maxLaunchAttempts);
  }

  private async findByLabel(key: string, value: string): Promise<CloudInstance[]> {
    return (await this.list()).filter((i) => i.tags[key] === value);
  }

  private async getIn(zone: string, name: string): Promise<CloudInstance> {
    return toCloudInstance(this.project, await getRawInstance(this.ctx, zone, name));
  }
}
