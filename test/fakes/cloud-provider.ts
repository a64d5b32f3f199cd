// In-memory recording CloudProvider: capacity per offering, idempotent launches, gangs all or nothing, and the
// identity rules of delete (docs/mechanisms/identity.md#instances).
// The contract suite holds it to the same behaviour as the EC2 and Compute Engine adapters.
import type { CapacityType, Cloud } from '../../shared/model/labels.ts';
import type { InstanceTypeSpec } from '../../shared/model/catalog.ts';
import type { NodeClaim } from '../../shared/model/nodeclaim.ts';
import type { NodeClass } from '../../shared/model/nodeclass.ts';
import {
  InsufficientCapacityError,
  InstanceNotFoundError,
  OwnershipError,
} from '../../shared/ports/cloud-provider/errors.ts';
import { claimNodePool, launchOptions, type LaunchOption } from '../../shared/model/launch-options.ts';
import {
  gangShapes,
  preferZones,
  providerId,
  type CloudInstance,
  type CloudProvider,
  type DeleteExpectation,
  type DriftReason,
  type GangLaunchRequest,
  type GangLaunchResult,
  type LaunchRequest,
  type LaunchResult,
  type ProviderId,
} from '../../shared/ports/cloud-provider/index.ts';
import { type UnavailableOffering } from '../../shared/model/unavailable-offering.ts';
import { claimName, nodeClaimName } from '../../shared/model/names.ts';

export interface FakeCall {
  readonly method: keyof CloudProvider;
  readonly args: readonly unknown[];
}

const key = (type: string, zone: string, ct: CapacityType): string => `${type}|${zone}|${ct}`;
export const FAKE_CLUSTER_TAG = 'kraftsman.dev/cluster';
export const FAKE_DEPLOYMENT_TAG = 'kraftsman.dev/deployment';
/** The fake's Compute Engine project: a gce:// providerID naming another is refused. */
export const FAKE_PROJECT = 'fake';

export class FakeCloudProvider implements CloudProvider {
  readonly calls: FakeCall[] = [];
  /** Every instance ever launched, terminated ones included (leak checks read this). */
  readonly instances = new Map<ProviderId, CloudInstance>();
  private readonly capacity = new Map<string, number>();
  private readonly byIdempotencyKey = new Map<string, ProviderId[]>();
  private readonly driftByClaim = new Map<string, DriftReason>();
  /** Instances another account or project owns (an EC2 reservation's owner; a GCE providerID's project). */
  private readonly foreign = new Set<ProviderId>();
  private sequence = 0;

  constructor(
    private readonly catalog: readonly InstanceTypeSpec[],
    readonly cloud: Cloud = 'aws',
    private readonly cluster = 'test',
    readonly deployment = 'fake-deployment',
  ) {}

  /** Puts an instance in, outside any launch (another deployment's, another account's when `foreign`). */
  plant(instance: CloudInstance, foreign = false): void {
    this.instances.set(instance.providerId, instance);
    if (foreign) this.foreign.add(instance.providerId);
  }

  /** Instances left for an offering; unset offerings have unlimited capacity. */
  setCapacity(type: string, zone: string, capacityType: CapacityType, count: number): void {
    this.capacity.set(key(type, zone, capacityType), count);
  }

  setDrift(claim: string, reason: DriftReason): void {
    this.driftByClaim.set(claim, reason);
  }

  async create(request: LaunchRequest): Promise<LaunchResult> {
    this.calls.push({ method: 'create', args: [request] });
    const name = request.claim.metadata.name;
    const existing = this.byIdempotencyKey.get(`claim/${name}`);
    if (existing?.[0])
      return { instance: this.instances.get(existing[0]) as CloudInstance, unavailableOfferings: [] };
    const refused: UnavailableOffering[] = [];
    for (const option of launchOptions(request.claim, request.instanceTypes)) {
      if (!this.take(option, 1)) {
        refused.push({ ...pick(option), reason: 'InsufficientCapacity' });
        continue;
      }
      const instance = this.launch(option, request.claim, request.nodeClass);
      this.byIdempotencyKey.set(`claim/${name}`, [instance.providerId]);
      return { instance, unavailableOfferings: refused };
    }
    throw new InsufficientCapacityError(`no capacity for NodeClaim ${name}`, refused);
  }

  /** Per shape, one offering for all its members (zones already used first); a short shape rolls back the rest. */
  async createGang(request: GangLaunchRequest): Promise<GangLaunchResult> {
    this.calls.push({ method: 'createGang', args: [request] });
    if (request.members.length === 0) throw new Error(`gang ${request.gang} has no claims`);
    const existing = this.byIdempotencyKey.get(`gang/${request.gang}`);
    if (existing)
      return {
        instances: existing.map((id, i) => ({
          claim: nodeClaimName(request.members[i]?.claim.metadata.name ?? ''),
          instance: this.instances.get(id) as CloudInstance,
        })),
        unavailableOfferings: [],
      };
    const refused: UnavailableOffering[] = [];
    const launched = new Map<string, CloudInstance>();
    const zones = new Set<string>();
    for (const shape of gangShapes(request)) {
      const first = shape.claims[0] as NodeClaim;
      const option = preferZones(launchOptions(first, shape.instanceTypes), zones).find((o) => {
        if (this.take(o, shape.claims.length)) return true;
        refused.push({ ...pick(o), reason: 'InsufficientCapacity' });
        return false;
      });
      if (!option) {
        for (const i of launched.values()) await this.delete(i.providerId);
        throw new InsufficientCapacityError(
          `no offering has capacity for all ${shape.claims.length} members of shape ${shape.index + 1} of gang ${request.gang}`,
          refused,
        );
      }
      zones.add(option.zone);
      for (const claim of shape.claims)
        launched.set(claim.metadata.name, this.launch(option, claim, shape.nodeClass));
    }
    const instances = request.members.map(({ claim }) => ({
      claim: claimName(claim),
      instance: launched.get(claim.metadata.name) as CloudInstance,
    }));
    this.byIdempotencyKey.set(
      `gang/${request.gang}`,
      instances.map((x) => x.instance.providerId),
    );
    return { instances, unavailableOfferings: refused };
  }

  async get(id: ProviderId): Promise<CloudInstance> {
    this.calls.push({ method: 'get', args: [id] });
    // As the Compute Engine adapter reads (ownedLocation): another project's instance is refused, never "not found".
    const project = /^gce:\/\/([^/]+)\//.exec(id)?.[1];
    if (project !== undefined && project !== FAKE_PROJECT)
      throw new OwnershipError(
        `instance ${id} is in project ${project}, not ${FAKE_PROJECT}`,
        'foreign-project',
        id,
      );
    const found = this.instances.get(id);
    if (!found || found.state === 'terminated')
      throw new InstanceNotFoundError(`instance ${id} not found`, id);
    return found;
  }

  async list(): Promise<readonly CloudInstance[]> {
    this.calls.push({ method: 'list', args: [] });
    return [...this.instances.values()].filter(
      (i) =>
        i.state !== 'terminated' &&
        !this.foreign.has(i.providerId) &&
        i.tags[FAKE_CLUSTER_TAG] === this.cluster &&
        i.tags[FAKE_DEPLOYMENT_TAG] === this.deployment,
    );
  }

  async delete(id: ProviderId, expect?: DeleteExpectation): Promise<void> {
    this.calls.push({ method: 'delete', args: expect ? [id, expect] : [id] });
    this.checkIdentity(id, expect);
    const found = await this.get(id);
    this.instances.set(id, { ...found, state: 'terminated' });
    const k = key(found.instanceType, found.zone, found.capacityType);
    const left = this.capacity.get(k);
    if (left !== undefined) this.capacity.set(k, left + 1);
  }

  async instanceTypes(nodeClass: NodeClass): Promise<readonly InstanceTypeSpec[]> {
    this.calls.push({ method: 'instanceTypes', args: [nodeClass] });
    return this.catalog.filter((t) => t.cloud === this.cloud);
  }

  async isDrifted(claim: NodeClaim, nodeClass: NodeClass): Promise<DriftReason | undefined> {
    this.calls.push({ method: 'isDrifted', args: [claim, nodeClass] });
    return this.driftByClaim.get(claim.metadata.name);
  }

  /** The adapters' rules, in their order: parseable, this project/account, this cluster, this deployment, the claim. */
  private checkIdentity(id: ProviderId, expect: DeleteExpectation = {}): void {
    const refuse = (reason: OwnershipError['reason'], why: string): never => {
      throw new OwnershipError(`instance ${id} ${why}`, reason, id);
    };
    const gce = /^gce:\/\/([^/]+)\/[^/]+\/[^/]+$/.exec(id);
    if (!gce && !/^aws:\/\/\/[^/]+\/i-[^/]+$/.test(id)) refuse('malformed-provider-id', 'is no provider ID');
    if ((gce && gce[1] !== FAKE_PROJECT) || this.foreign.has(id)) refuse('foreign-project', 'is foreign');
    const found = this.instances.get(id);
    if (!found) return;
    if (found.tags[FAKE_CLUSTER_TAG] !== this.cluster) refuse('foreign-cluster', 'is another cluster’s');
    if (found.tags[FAKE_DEPLOYMENT_TAG] !== this.deployment)
      refuse('foreign-deployment', 'is another deployment’s');
    if (expect.nodeClaim !== undefined && found.nodeClaim !== expect.nodeClaim)
      refuse('instance-mismatch', `was not launched for ${expect.nodeClaim}`);
  }

  private take(option: LaunchOption, count: number): boolean {
    const k = key(option.instanceType, option.zone, option.capacityType);
    const left = this.capacity.get(k);
    if (left === undefined) return true;
    if (left < count) return false;
    this.capacity.set(k, left - count);
    return true;
  }

  private launch(option: LaunchOption, claim: NodeClaim, nodeClass: NodeClass): CloudInstance {
    this.sequence += 1;
    const id = providerId(
      this.cloud === 'aws'
        ? `aws:///${option.zone}/i-fake${this.sequence}`
        : `gce://${FAKE_PROJECT}/${option.zone}/${claim.metadata.name}`,
    );
    const pool = claimNodePool(claim);
    const instance: CloudInstance = {
      providerId: id,
      cloud: this.cloud,
      ...pick(option),
      state: 'running',
      nodeClaim: claimName(claim),
      ...(pool ? { nodePool: pool } : {}),
      tags: {
        // The node class's own tags (EC2) or labels (Compute Engine), as the adapters put them on the instance.
        ...(nodeClass.kind === 'EC2NodeClass' ? nodeClass.spec.tags : nodeClass.spec.labels),
        [FAKE_CLUSTER_TAG]: this.cluster,
        [FAKE_DEPLOYMENT_TAG]: this.deployment,
        'karpenter.sh/nodeclaim': claim.metadata.name,
        ...(pool ? { 'karpenter.sh/nodepool': pool } : {}),
      },
    };
    this.instances.set(id, instance);
    return instance;
  }
}

function pick(o: LaunchOption): { instanceType: string; zone: string; capacityType: CapacityType } {
  return { instanceType: o.instanceType, zone: o.zone, capacityType: o.capacityType };
}
