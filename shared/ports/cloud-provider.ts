// CloudProvider port: launch, find and remove instances on one cloud, and describe what it can launch.
// Every adapter (EC2, Compute Engine, the test fake) satisfies the same contract suite in
// test/contracts/cloud-provider; errors are the four classes below, partial results are values.
import type { CapacityType, Cloud } from '../model/labels.ts';
import type { InstanceTypeSpec } from '../model/catalog.ts';
import type { NodeClaim } from '../model/nodeclaim.ts';
import type { NodeClass } from '../model/nodeclass.ts';

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
  readonly nodeClaim?: string;
  readonly nodePool?: string;
  readonly imageId?: string;
  readonly launchTime?: Date;
  /** Tags (EC2) or labels (GCE) as the cloud holds them. */
  readonly tags: Readonly<Record<string, string>>;
}

/** An offering the cloud refused for lack of capacity: the caller records it with a TTL and skips it. */
export interface UnavailableOffering {
  readonly instanceType: string;
  readonly zone: string;
  readonly capacityType: CapacityType;
  /** The cloud's own error code, e.g. InsufficientInstanceCapacity or ZONE_RESOURCE_POOL_EXHAUSTED. */
  readonly reason: string;
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
}

export interface LaunchResult {
  readonly instance: CloudInstance;
  /** Offerings tried and refused on the way to this launch (Karpenter marks these unavailable too). */
  readonly unavailableOfferings: readonly UnavailableOffering[];
}

/** A gang: every claim gets an instance of the same type in the same zone, or none does (DESIGN §4). */
export interface GangLaunchRequest {
  /** Stable name of the gang (the PodGroup): the idempotency key of the whole launch. */
  readonly gang: string;
  readonly claims: readonly NodeClaim[];
  readonly nodeClass: NodeClass;
  readonly instanceTypes: readonly InstanceTypeSpec[];
}

export interface GangLaunchResult {
  /** One entry per claim, in the order of the request. */
  readonly instances: readonly { readonly claim: string; readonly instance: CloudInstance }[];
  readonly unavailableOfferings: readonly UnavailableOffering[];
}

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
   * Launches a gang all or nothing: on any shortfall it launches nothing (or terminates what the
   * cloud launched anyway) and throws InsufficientCapacityError. Idempotent per gang name.
   */
  createGang(request: GangLaunchRequest): Promise<GangLaunchResult>;
  /** Throws NotFoundError when the instance does not exist or is already terminated. */
  get(id: ProviderId): Promise<CloudInstance>;
  /** Every live instance tagged with this adapter's cluster. */
  list(): Promise<readonly CloudInstance[]>;
  /** Starts termination. Throws NotFoundError when the instance is already gone. */
  delete(id: ProviderId): Promise<void>;
  /** Instance types this node class can launch, with offerings (zone × capacity type) and prices. */
  instanceTypes(nodeClass: NodeClass): Promise<readonly InstanceTypeSpec[]>;
  /** Why the claim's instance no longer matches its node class, or undefined when it still does. */
  isDrifted(claim: NodeClaim, nodeClass: NodeClass): Promise<DriftReason | undefined>;
}

// ---- interruption -----------------------------------------------------------------------------------

/** Values of the kraftsman.dev/termination-cause annotation a cloud interruption stamps on a NodeClaim. */
export const TERMINATION_CAUSES = [
  'spot-interruption',
  'preempted',
  'instance-stopped',
  'instance-terminated',
  'scheduled-maintenance',
  'rebalance-recommendation',
] as const;
export type TerminationCause = (typeof TERMINATION_CAUSES)[number];

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

// ---- the error contract ---------------------------------------------------------------------------

export const CLOUD_ERROR_NAMES = [
  'NotFoundError',
  'InsufficientCapacityError',
  'RetryableCloudError',
  'FatalCloudError',
] as const;
export type CloudErrorName = (typeof CLOUD_ERROR_NAMES)[number];

/** The instance (or the resource a call named) does not exist: a delete already happened. */
export class NotFoundError extends Error {
  override name = 'NotFoundError' as const;
  constructor(
    message: string,
    readonly id?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The cloud had no capacity for any offering tried; `offerings` are to be marked unavailable. */
export class InsufficientCapacityError extends Error {
  override name = 'InsufficientCapacityError' as const;
  constructor(
    message: string,
    readonly offerings: readonly UnavailableOffering[],
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Throttling, a server error or a timeout that outlived the adapter's own retries: try again later. */
export class RetryableCloudError extends Error {
  override name = 'RetryableCloudError' as const;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A request the cloud will never accept as made (bad node class, permissions, invalid parameters). */
export class FatalCloudError extends Error {
  override name = 'FatalCloudError' as const;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Finds the first contract error along an error's `cause` chain, by name (survives bundling). */
export function cloudErrorOf(err: unknown): (Error & { name: CloudErrorName }) | undefined {
  let current: unknown = err;
  for (let depth = 0; current instanceof Error && depth < 10; depth++) {
    if ((CLOUD_ERROR_NAMES as readonly string[]).includes(current.name))
      return current as Error & { name: CloudErrorName };
    current = current.cause;
  }
  return undefined;
}

/** True when trying again later may succeed (capacity frees up, throttling passes). */
export function isRetryableCloudError(err: unknown): boolean {
  const found = cloudErrorOf(err);
  return found?.name === 'RetryableCloudError' || found?.name === 'InsufficientCapacityError';
}

// ---- what every adapter narrows a request to --------------------------------------------------------

/** One launchable (type, zone, capacity type) with its price, as adapters try them: cheapest first. */
export interface LaunchOption {
  readonly instanceType: string;
  readonly zone: string;
  readonly capacityType: CapacityType;
  readonly price: number;
  readonly reservationId?: string;
}

const ZONE_KEY = 'topology.kubernetes.io/zone';
const TYPE_KEY = 'node.kubernetes.io/instance-type';
const CAPACITY_KEY = 'karpenter.sh/capacity-type';

function allows(claim: NodeClaim, key: string, value: string): boolean {
  for (const r of claim.spec.requirements) {
    if (r.key !== key) continue;
    const values = r.values ?? [];
    if (r.operator === 'In' && !values.includes(value)) return false;
    if (r.operator === 'NotIn' && values.includes(value)) return false;
    if (r.operator === 'DoesNotExist') return false;
  }
  return true;
}

/**
 * The offerings a claim may launch on, cheapest first (ties by type, zone). Like Karpenter's launch
 * path, a claim that allows `reserved` uses only reserved offerings when any exist, because a
 * reservation is already paid for; otherwise spot is preferred to on-demand when both are allowed.
 */
export function launchOptions(claim: NodeClaim, types: readonly InstanceTypeSpec[]): LaunchOption[] {
  const all: LaunchOption[] = [];
  for (const t of types) {
    if (!allows(claim, TYPE_KEY, t.name)) continue;
    for (const o of t.offerings) {
      if (
        o.available === false ||
        !allows(claim, ZONE_KEY, o.zone) ||
        !allows(claim, CAPACITY_KEY, o.capacityType)
      )
        continue;
      all.push({
        instanceType: t.name,
        zone: o.zone,
        capacityType: o.capacityType,
        price: o.price,
        ...(o.reservationId ? { reservationId: o.reservationId } : {}),
      });
    }
  }
  const preferred = (['reserved', 'spot', 'on-demand'] as const).find((ct) =>
    all.some((o) => o.capacityType === ct),
  );
  return all
    .filter((o) => o.capacityType === preferred)
    .sort(
      (a, b) =>
        a.price - b.price || a.instanceType.localeCompare(b.instanceType) || a.zone.localeCompare(b.zone),
    );
}

/** The claim's NodePool, from the label Karpenter puts on every claim it creates. */
export function claimNodePool(claim: NodeClaim): string | undefined {
  return claim.metadata.labels?.['karpenter.sh/nodepool'];
}
