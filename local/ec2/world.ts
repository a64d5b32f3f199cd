// The EC2 emulator's in-memory world: instance types, prices, capacity per offering, network and
// image resources, launch templates, instances, and the faults a test injects.
import type { EmuTemplateSettings } from './template-data.ts';

export type Lifecycle = 'on-demand' | 'spot' | 'reserved';
export type Ec2State = 'pending' | 'running' | 'shutting-down' | 'terminated';
export const STATE_CODES: Record<Ec2State, number> = {
  pending: 0,
  running: 16,
  'shutting-down': 32,
  terminated: 48,
};

export interface EmuInstanceType {
  readonly name: string;
  readonly vcpu: number;
  readonly memoryMiB: number;
  readonly arch?: 'x86_64' | 'arm64';
  readonly gpu?: {
    readonly name: string;
    readonly manufacturer: string;
    readonly count: number;
    readonly memoryMiB: number;
  };
  readonly maxPods?: number;
  /** On-demand $/h (served by the Pricing API stand-in) and spot $/h (DescribeSpotPriceHistory). */
  readonly onDemandPrice: number;
  readonly spotPrice?: number;
  readonly zones: readonly string[];
}

export interface EmuInstance {
  readonly instanceId: string;
  readonly instanceType: string;
  readonly zone: string;
  readonly subnetId: string;
  readonly imageId: string;
  readonly securityGroupIds: readonly string[];
  readonly lifecycle: Lifecycle;
  readonly capacityReservationId?: string;
  readonly userData?: string;
  /** Block devices, metadata options, public IP and monitoring of the template it was launched from. */
  readonly settings?: EmuTemplateSettings;
  readonly clientToken?: string;
  /** The placement group it launched into (the fleet override's Placement). */
  readonly placementGroup?: string;
  readonly launchTime: Date;
  tags: Record<string, string>;
  state: Ec2State;
  /** The account that owns it (its reservation's ownerId); the world's account unless set. */
  readonly ownerId?: string;
  /** Eventual consistency: this many more DescribeInstances/CreateTags requests do not see it yet... */
  unseen?: number;
  /** ...unless the world's clock has passed this (ms since the epoch; see faults.unseenMs). */
  unseenUntil?: number;
}

/** An EC2 placement group (created beforehand, as Karpenter's placementGroupSelector expects). */
export interface EmuPlacementGroup {
  readonly groupName: string;
  readonly groupId: string;
  readonly strategy: 'cluster' | 'spread' | 'partition';
}

export interface EmuSubnet {
  readonly subnetId: string;
  readonly zone: string;
  /** AWS's zone ID (`use1-az1`): the same physical zone in every account. */
  readonly zoneId?: string;
  readonly availableIps: number;
  readonly tags: Record<string, string>;
}
export interface EmuSecurityGroup {
  readonly groupId: string;
  readonly groupName: string;
  readonly tags: Record<string, string>;
}
export interface EmuImage {
  readonly imageId: string;
  readonly name: string;
  readonly owner: string;
  readonly creationDate: string;
  readonly arch: 'x86_64' | 'arm64';
  readonly tags: Record<string, string>;
}
export interface EmuLaunchTemplate {
  readonly id: string;
  readonly name: string;
  readonly imageId?: string;
  readonly userData?: string;
  readonly securityGroupIds: readonly string[];
  readonly capacityReservationId?: string;
  /** IamInstanceProfile.Name of the template (the node's instance profile). */
  readonly instanceProfile?: string;
  readonly tags: Record<string, string>;
  readonly settings: EmuTemplateSettings;
}
export interface EmuReservation {
  readonly id: string;
  readonly instanceType: string;
  readonly zone: string;
  available: number;
  readonly tags: Record<string, string>;
}

/** What a booted instance tells the Kubernetes emulator, so a Node can register for it. */
export interface BootedInstance {
  readonly providerId: string;
  readonly instanceId: string;
  readonly instanceType: string;
  readonly zone: string;
  readonly capacityType: Lifecycle;
  readonly imageId: string;
  readonly tags: Readonly<Record<string, string>>;
  /** User data as the instance would run it (base64-decoded). */
  readonly userData: string;
}

export interface Faults {
  /** The next N requests (of `action`, or any) fail with RequestLimitExceeded. */
  throttle: { remaining: number; action?: string };
  /** Extra latency per action, in ms. */
  delayMs: Record<string, number>;
  /** Instant fleets launch what fits even below MinTargetCapacity (the partial fleet a bug would leave). */
  ignoreMinTargetCapacity: boolean;
  /** The Pricing API answers 503 (the adapter must fall back to the built-in catalog). */
  pricingUnavailable: boolean;
  /**
   * One-shot errors: the next call of the action fails with this code (or the one after `after` more calls of it
   * went through: the second CreateFleet of a gang, say).
   */
  failNext: Record<string, { code: string; message: string; status: number; after?: number }>;
  /**
   * Eventual consistency: a freshly launched instance is invisible (InvalidInstanceID.NotFound when
   * named) to this many DescribeInstances/CreateTags requests after its CreateFleet.
   */
  unseenRequests: number;
  /**
   * With `unseenRequests`: the lag also ends once this long (ms, world clock) has passed since the launch, as
   * EC2's does within seconds. Unset: only requests age it (a test that counts the requests it expects to miss).
   */
  unseenMs?: number;
  /**
   * Which of DescribeInstances/CreateTags the lag applies to (and is aged by); unset, both. EC2's consistency is
   * per API, not per instance: a CreateTags that landed does not mean DescribeInstances lists the instance yet.
   */
  unseenBy?: readonly UnseenAction[];
  /**
   * The next CreateFleet refuses every override that had capacity with this error (in errorSet, as EC2
   * reports UnauthorizedOperation or a launch template problem per override), launching nothing.
   */
  refuseOverrides?: { code: string; message: string };
  /** The next CreateFleet answers with neither instances nor errors (what a broken proxy might pass on). */
  emptyFleet: boolean;
}

/**
 * How many DescribeInstances/CreateTags requests miss a new instance where the e2e harness and the local fleet
 * turn EC2's eventual consistency on (`faults.unseenRequests`, README "Eventual consistency").
 */
export const EVENTUAL_UNSEEN_REQUESTS = 2;
/** ... or until this long has passed on the world's clock (ms). */
export const EVENTUAL_UNSEEN_MS = 5_000;

/** The calls that can miss an instance EC2 launched a moment ago (faults.unseenRequests). */
export type UnseenAction = 'DescribeInstances' | 'CreateTags';
export const UNSEEN_ACTIONS: readonly UnseenAction[] = ['DescribeInstances', 'CreateTags'];

export class Ec2World {
  readonly types = new Map<string, EmuInstanceType>();
  readonly instances = new Map<string, EmuInstance>();
  readonly subnets: EmuSubnet[] = [];
  readonly securityGroups: EmuSecurityGroup[] = [];
  readonly images: EmuImage[] = [];
  readonly launchTemplates = new Map<string, EmuLaunchTemplate>();
  /** Placement groups by name; a launch naming another is refused with InvalidPlacementGroup.Unknown. */
  readonly placementGroups = new Map<string, EmuPlacementGroup>();
  /**
   * Whether a launch may name this instance profile (IAM's view as EC2 sees it: the IAM emulator's
   * `world.usableByEc2`, README.md "Instance profiles"); unset, every profile is accepted.
   */
  instanceProfileUsable?: (name: string) => boolean;
  readonly reservations: EmuReservation[] = [];
  /** Fleets by client token: the request's fingerprint and the response it got. */
  readonly fleets = new Map<string, { fingerprint: string; response: Record<string, unknown> }>();
  readonly capacity = new Map<string, number>();
  /** The error code EC2 reports for an offering without capacity (default InsufficientInstanceCapacity). */
  readonly capacityErrors = new Map<string, string>();
  readonly faults: Faults = {
    throttle: { remaining: 0 },
    delayMs: {},
    ignoreMinTargetCapacity: false,
    pricingUnavailable: false,
    failNext: {},
    unseenRequests: 0,
    emptyFleet: false,
  };
  /** Items per page of a Describe call that sends no MaxResults (small, so one-page readers miss the rest). */
  pageSize = 4;
  /** The account DescribeInstances names as each reservation's owner (an instance may name another). */
  account = '123456789012';
  /** Every request by action name, for tests that assert what the adapter called. */
  readonly calls: string[] = [];
  /** Every request's parameters, in order (what the SDK put on the wire). */
  readonly requests: { readonly action: string; readonly params: ReadonlyMap<string, string> }[] = [];
  private seq = 0;

  /**
   * The world's time: what it stamps launch times, events and price history with. A local fleet passes its
   * simulated clock, so a launch is as old to the functions as it is in the fleet's time.
   */
  constructor(
    readonly region: string,
    readonly now: () => Date = () => new Date(),
  ) {}

  nextId(prefix: string): string {
    this.seq += 1;
    return `${prefix}-${this.seq.toString(16).padStart(17, '0')}`;
  }

  /** Instances left for an offering; unset means unlimited. */
  setCapacity(type: string, zone: string, lifecycle: Lifecycle, count: number, errorCode?: string): void {
    this.capacity.set(`${type}|${zone}|${lifecycle}`, count);
    if (errorCode) this.capacityErrors.set(`${type}|${zone}|${lifecycle}`, errorCode);
  }

  capacityLeft(type: string, zone: string, lifecycle: Lifecycle): number {
    return this.capacity.get(`${type}|${zone}|${lifecycle}`) ?? Number.POSITIVE_INFINITY;
  }

  capacityErrorCode(type: string, zone: string, lifecycle: Lifecycle): string {
    return this.capacityErrors.get(`${type}|${zone}|${lifecycle}`) ?? 'InsufficientInstanceCapacity';
  }

  consume(type: string, zone: string, lifecycle: Lifecycle, count: number): void {
    const left = this.capacity.get(`${type}|${zone}|${lifecycle}`);
    if (left !== undefined) this.capacity.set(`${type}|${zone}|${lifecycle}`, left - count);
  }

  /** Whether `action` (DescribeInstances or CreateTags) sees the instance yet (see faults.unseenRequests). */
  visible(id: string, action: UnseenAction): boolean {
    const i = this.instances.get(id);
    if (i === undefined) return false;
    if (!this.lags(action)) return true;
    const lagging = i.unseen !== undefined && i.unseen > 0;
    return !lagging || (i.unseenUntil !== undefined && this.now().getTime() >= i.unseenUntil);
  }

  /** Whether the eventual-consistency lag applies to `action` (faults.unseenBy). */
  lags(action: string): boolean {
    return (this.faults.unseenBy ?? UNSEEN_ACTIONS).some((a) => a === action);
  }

  /** One DescribeInstances/CreateTags request went by: fresh instances are one step closer to visible. */
  ageUnseen(action: string): void {
    if (!this.lags(action)) return;
    for (const i of this.instances.values()) if (i.unseen && i.unseen > 0) i.unseen -= 1;
  }

  /** A shutting-down instance becomes terminated and gives its capacity back. */
  finishTermination(i: EmuInstance): void {
    if (i.state !== 'shutting-down') return;
    i.state = 'terminated';
    if (i.capacityReservationId) {
      const r = this.reservations.find((x) => x.id === i.capacityReservationId);
      if (r) r.available += 1;
    } else this.consume(i.instanceType, i.zone, i.lifecycle, -1);
  }

  live(): EmuInstance[] {
    return [...this.instances.values()].filter((i) => i.state === 'pending' || i.state === 'running');
  }

  priceOf(type: string, lifecycle: Lifecycle): number {
    const t = this.types.get(type);
    if (!t) return Number.POSITIVE_INFINITY;
    return lifecycle === 'spot'
      ? (t.spotPrice ?? t.onDemandPrice)
      : lifecycle === 'reserved'
        ? 0
        : t.onDemandPrice;
  }
}
