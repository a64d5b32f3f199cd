// CloudProvider port: launch, find and remove instances on one cloud, and describe what it can launch.
// Every adapter (EC2, Compute Engine, the test fake) satisfies the same contract suite in
// test/contracts/cloud-provider; errors are the four classes of errors.ts, partial results are values.
import type { CapacityType, Cloud, TerminationCause } from '../../model/labels.ts';
import type { InstanceTypeSpec } from '../../model/catalog.ts';
import type { NodeClaim } from '../../model/nodeclaim.ts';
import type { NodeClass } from '../../model/nodeclass.ts';
import type { NodeClassResolution } from '../../model/nodeclass-status.ts';
import type { JoinToken } from '../../model/join-readiness.ts';
import type { NodeClaimName, NodePoolName } from '../../model/names.ts';
import type { UnavailableOffering } from '../../model/unavailable-offering.ts';
import type { InstanceTypeReadOptions } from '../price-store.ts';
import type { GangLaunchRequest } from './gang.ts';

export {
  gangShapes,
  preferZones,
  uniformGang,
  type GangLaunchRequest,
  type GangMember,
  type GangShape,
} from './gang.ts';

/** `aws:///us-east-1a/i-0abc` or `gce://project/zone/name`, as the kubelet reports spec.providerID. */
export type ProviderId = string & { readonly __brand: 'ProviderId' };
export const providerId = (text: string): ProviderId => text as ProviderId;

export const INSTANCE_STATES = ['pending', 'running', 'terminating', 'terminated'] as const;
export type InstanceState = (typeof INSTANCE_STATES)[number];

/** One cloud instance as kraftsman sees it: enough to match it to a NodeClaim and to price it. */
export interface CloudInstance {
  readonly providerId: ProviderId;
  readonly cloud: Cloud;
  readonly instanceType: string;
  readonly zone: string;
  readonly capacityType: CapacityType;
  readonly state: InstanceState;
  readonly nodeClaim?: NodeClaimName;
  readonly nodePool?: NodePoolName;
  readonly imageId?: string;
  readonly launchTime?: Date;
  /** Tags (EC2) or labels (GCE) as the cloud holds them. */
  readonly tags: Readonly<Record<string, string>>;
}

/**
 * What to launch for one NodeClaim. `instanceTypes` are the candidates the scheduler kept (cheapest
 * first is not required: the adapter orders offerings by price); offerings are narrowed further by
 * the claim's zone / capacity-type / instance-type requirements and by `available`.
 */
export interface LaunchRequest {
  readonly claim: NodeClaim;
  readonly nodeClass: NodeClass;
  readonly instanceTypes: readonly InstanceTypeSpec[];
  /** The bootstrap token a Kubeadm node joins with (the launcher's); other families need none. */
  readonly join?: JoinToken;
}

export interface LaunchResult {
  readonly instance: CloudInstance;
  /** Offerings tried and refused on the way to this launch (Karpenter marks these unavailable too). */
  readonly unavailableOfferings: readonly UnavailableOffering[];
}

export interface GangLaunchResult {
  /** One entry per claim, in the order of the request. */
  readonly instances: readonly { readonly claim: NodeClaimName; readonly instance: CloudInstance }[];
  readonly unavailableOfferings: readonly UnavailableOffering[];
}

/** What the caller recorded about the instance it means to delete, checked against the instance's own tags. */
export interface DeleteExpectation {
  /** The NodeClaim the instance was launched for (its claim tag or label must name it). */
  readonly nodeClaim?: NodeClaimName;
}

/** Reads this deployment's id once per container (the state store's get-or-create, functions/compose). */
export type DeploymentSource = () => Promise<string>;

export const DRIFT_REASONS = ['ImageDrift', 'SubnetDrift', 'SecurityGroupDrift', 'NetworkDrift'] as const;
export type DriftReason = (typeof DRIFT_REASONS)[number];

export interface CloudProvider {
  readonly cloud: Cloud;
  /**
   * Launches one instance for the claim. Idempotent per claim name: a retry returns the instance the
   * first call launched. Throws InsufficientCapacityError (with every refused offering) when no
   * offering could be launched, RetryableCloudError, FatalCloudError.
   */
  create(request: LaunchRequest): Promise<LaunchResult>;
  /**
   * Launches a gang all or nothing, each member on an offering its own claim allows and with its own node class
   * (members of one shape share one type in one zone, gang.ts): on any shortfall it launches nothing (or
   * terminates whatever any shape launched) and throws InsufficientCapacityError. Idempotent per gang name.
   */
  createGang(request: GangLaunchRequest): Promise<GangLaunchResult>;
  /** Throws InstanceNotFoundError when the instance does not exist or is already terminated. */
  get(id: ProviderId): Promise<CloudInstance>;
  /** Every live instance tagged with this adapter's cluster and deployment (docs/mechanisms/identity.md#instances). */
  list(): Promise<readonly CloudInstance[]>;
  /**
   * Starts termination, after proving the instance is this deployment's: in its project or account, tagged with
   * its cluster and deployment, and, given `expect.nodeClaim`, tagged for that claim. Throws OwnershipError (with
   * the rule that refused) otherwise, without touching the instance; InstanceNotFoundError when it is already gone.
   */
  delete(id: ProviderId, expect?: DeleteExpectation): Promise<void>;
  /**
   * Instance types this node class can launch, with offerings (zone × capacity type) and prices: those of
   * `options.prices` (the stored price book) when given; a provider may read its cloud's own otherwise.
   */
  instanceTypes(
    nodeClass: NodeClass,
    options?: InstanceTypeReadOptions,
  ): Promise<readonly InstanceTypeSpec[]>;
  /** Why the claim's instance no longer matches its node class, or undefined when it still does. */
  isDrifted(claim: NodeClaim, nodeClass: NodeClass): Promise<DriftReason | undefined>;
  /**
   * What the node class's selectors resolve to now, part by part, for its status (lifecycle publishes it,
   * shared/loop/nodeclass-status.ts). A provider may answer from a resolution a few minutes old. A part that
   * selects nothing is a value (`ok: false`); a failed call (throttling, network) throws.
   */
  describeNodeClass?(nodeClass: NodeClass): Promise<NodeClassResolution>;
}

// ---- interruption -----------------------------------------------------------------------------------

/** A cloud's notice that an instance is going away (or may): translated from EventBridge or GCE operations. */
export interface InterruptionSignal {
  readonly cloud: Cloud;
  /** EC2 instance ID, or the Compute Engine instance name. */
  readonly instance: string;
  readonly zone?: string;
  readonly cause: TerminationCause;
  /** True when the instance is being taken away: stamp the cause and drain early (Karpenter deletes the claim). */
  readonly drain: boolean;
  readonly at: Date;
}
